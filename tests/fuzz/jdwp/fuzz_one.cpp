#include "fuzz_one.hpp"

#include <string_view>

#include "jdwp/codec.hpp"
#include "jdwp/wire_log.hpp"

namespace flakescan::jdwp::fuzz {

bool fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return true;
  const std::uint8_t pick = data[0];
  IdSizes sizes{(pick >> 3 & 1) ? 4 : 8, (pick >> 4 & 1) ? 4 : 8, (pick & 7) + 1, (pick >> 5 & 1) ? 4 : 8, (pick >> 6 & 1) ? 4 : 8};
  ByteView stream(data + 1, size - 1);
  (void)decode_handshake(stream);
  std::size_t offset = 0;
  while (offset < stream.size()) {
    auto framed = decode_packet(stream.subspan(offset), 1 << 20);
    if (!framed) break;  // need_more, malformed or too_large: all fine, never a crash
    if (framed->consumed == 0 || framed->consumed > stream.size() - offset) return false;
    offset += framed->consumed;
    const Packet& p = framed->packet;
    if (encode_packet(p) != Bytes(stream.begin() + static_cast<std::ptrdiff_t>(offset - framed->consumed),
                                  stream.begin() + static_cast<std::ptrdiff_t>(offset))) {
      return false;  // framing must round-trip byte for byte
    }
    // Decode the data as every command's request and reply: whatever decodes must encode to
    // a canonical form that decodes to itself.
#define JDWP_COMMAND(set, set_id, cmd, cmd_id, type)                                   \
  for (auto dir : {Direction::request, Direction::reply}) {                             \
    auto once = reencode(Command::set##_##cmd, dir, p.data, sizes);                     \
    if (once) {                                                                         \
      auto twice = reencode(Command::set##_##cmd, dir, *once, sizes);                   \
      if (!twice || *twice != *once) return false;                                      \
    } else if (once.error().code != util::Errc::malformed &&                            \
               once.error().code != util::Errc::unsupported) {                          \
      return false;                                                                     \
    }                                                                                   \
  }
#include "jdwp/protocol.def"
#undef JDWP_COMMAND
  }
  (void)parse_trace(std::string_view(reinterpret_cast<const char*>(data), size));
  return true;
}

}  // namespace flakescan::jdwp::fuzz
