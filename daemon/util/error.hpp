#pragma once
// The one error type of flakescan. Every fallible function returns Result<T>;
// exceptions are used only at start-up. The set of codes is closed: adding one means
// adding its HTTP mapping in api/problem.cpp too.
#include <expected>
#include <string>
#include <string_view>

namespace flakescan::util {

enum class Errc {
  invalid_argument,  // the caller's input is wrong (bad JSON, bad test id, bad option)
  not_found,         // a named thing does not exist (scan id, class, file)
  conflict,          // the request clashes with current state (scan already finished)
  too_large,         // input over a configured limit
  need_more,         // a codec needs more bytes before it can decide
  malformed,         // bytes that can never decode (a protocol violation of one packet)
  unsupported,       // a valid request the peer or this build cannot serve
  timeout,           // a deadline passed
  disconnected,      // the peer went away
  cancelled,         // the work was cancelled by the user or by shutdown
  io,                // an operating-system call failed
  process,           // a child process could not be started or failed as infrastructure
  storage,           // the store failed
  internal,          // a bug: an invariant did not hold
};

std::string_view errc_name(Errc code) noexcept;

struct Error {
  Errc code;
  std::string message;

  friend bool operator==(const Error&, const Error&) = default;
};

template <class T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(Errc code, std::string message) {
  return std::unexpected<Error>(Error{code, std::move(message)});
}

// "<code>: <message>", for logs and CLI output.
std::string describe(const Error& error);

}  // namespace flakescan::util
