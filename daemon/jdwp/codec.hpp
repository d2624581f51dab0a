#pragma once
// Typed encode/decode of one packet's data, plus what the session and the tests need to
// handle any command by number: names, error names, and a re-encode dispatch (decode then
// encode again) used by the round-trip tests and by the fuzz target.
// Decoding insists that the data is consumed exactly: trailing bytes are malformed.
#include <optional>
#include <string>
#include <string_view>

#include "jdwp/commands.hpp"
#include "jdwp/events.hpp"
#include "jdwp/wire.hpp"

namespace flakescan::jdwp {

template <class T>
Bytes encode(const T& message, const IdSizes& sizes) {
  Writer w(sizes);
  w.put(message);
  return w.take();
}

template <class T>
util::Result<T> decode(ByteView data, const IdSizes& sizes) {
  Reader r(data, sizes);
  T message{};
  r.get(message);
  if (r.ok() && r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes");
  if (!r.ok()) return std::unexpected(r.error());
  return message;
}

// "VirtualMachine.Version"; nullopt for commands not in protocol.def.
std::optional<std::string_view> command_name(std::uint8_t set, std::uint8_t command);
std::optional<Command> find_command(std::uint8_t set, std::uint8_t command);
// "ABSENT_INFORMATION" or "error 1234".
std::string error_name(std::uint16_t code);
// Maps a JDWP error code to the daemon's codes (INVALID_OBJECT -> not_found, VM_DEAD ->
// disconnected, NOT_IMPLEMENTED -> unsupported, ...), with the JDWP name in the message.
util::Error error_from_jdwp(std::uint16_t code, std::string_view context);

enum class Direction { request, reply };
// Decodes `data` as the request or reply of `command` and encodes the result again.
// Errors: unsupported (unknown command, or an encode-only layout), malformed.
util::Result<Bytes> reencode(Command command, Direction direction, ByteView data, const IdSizes& sizes);

}  // namespace flakescan::jdwp
