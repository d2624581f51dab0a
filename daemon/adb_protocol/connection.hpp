#pragma once
// One TCP connection to an adb server, with a blocking API where every call takes a
// deadline and an optional cancel flag. Policy: each connection owns a private io_context
// and is used by one thread at a time; the calling thread drives the I/O in slices of at
// most 50 ms so that a deadline or a cancel is noticed promptly. After a timeout or a
// cancel the stream position is unknown, so callers drop the connection. Bytes read but
// not yet consumed stay in buffer().
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace boost::asio {
class io_context;
}

namespace flakescan::adb_protocol {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
using CancelFlag = std::atomic<bool>;

inline Deadline after(std::chrono::milliseconds ms) { return Clock::now() + ms; }

struct ServerAddress {
  std::string host = "127.0.0.1";
  std::uint16_t port = 5037;
  std::string str() const { return host + ":" + std::to_string(port); }
  // "host:port", "host" (port 5037) or ":port"; hosts are names or IPv4/IPv6 literals
  // ("[::1]:5037").
  static util::Result<ServerAddress> parse(std::string_view text);
  friend bool operator==(const ServerAddress&, const ServerAddress&) = default;
};

class Connection {
 public:
  static util::Result<Connection> open(const ServerAddress& server, Deadline deadline,
                                       const CancelFlag* cancel = nullptr);
  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;
  ~Connection();

  util::Result<void> write(std::string_view bytes, Deadline deadline, const CancelFlag* cancel = nullptr);
  // Reads until buffer() holds at least `need` bytes. EOF -> Errc::disconnected.
  util::Result<void> fill(std::size_t need, Deadline deadline, const CancelFlag* cancel = nullptr);
  // Reads what is available (at least one byte) into buffer(). EOF -> Errc::disconnected.
  util::Result<std::size_t> read_some(Deadline deadline, const CancelFlag* cancel = nullptr);

  // Host protocol: sends one service request and reads its OKAY/FAIL. FAIL becomes an
  // error whose message is the server's (not_found for unknown devices, conflict for
  // offline/unauthorized ones, unsupported otherwise).
  util::Result<void> request(std::string_view service, Deadline deadline, const CancelFlag* cancel = nullptr);
  // Reads one length-prefixed payload (host:version, device lists, track updates).
  util::Result<std::string> read_frame(Deadline deadline, const CancelFlag* cancel = nullptr);

  std::string& buffer() { return buffer_; }
  void consume(std::size_t n) { buffer_.erase(0, n); }

  // Gives up the socket (e.g. to a JDWP session on another io_context); the connection is
  // unusable afterwards. Bytes already buffered are returned through `leftover`.
  util::Result<int> release_native_handle(std::string* leftover);

  void close();

 private:
  struct Impl;
  explicit Connection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  std::string buffer_;
};

// Maps an adb server FAIL message to the error code used above.
util::Error server_failure(std::string_view message);

}  // namespace flakescan::adb_protocol
