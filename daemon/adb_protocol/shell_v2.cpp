#include "adb_protocol/shell_v2.hpp"

namespace flakescan::adb_protocol {

using util::Errc;
using util::fail;

util::Result<DecodedShellPacket> decode_shell_packet(std::span<const char> bytes) {
  if (bytes.size() < shell_header_size) return fail(Errc::need_more, "shell packet header");
  auto id = std::uint8_t(bytes[0]);
  if (id > 5) return fail(Errc::malformed, "unknown shell v2 packet id " + std::to_string(id));
  std::uint32_t len = 0;
  for (int i = 4; i >= 1; --i) len = (len << 8) | std::uint8_t(bytes[i]);
  if (len > max_shell_packet) return fail(Errc::too_large, "shell v2 packet of " + std::to_string(len) + " bytes");
  if (ShellPacketId(id) == ShellPacketId::exit && len != 1)
    return fail(Errc::malformed, "shell v2 exit packet must carry exactly one byte");
  if (bytes.size() < shell_header_size + len) return fail(Errc::need_more, "shell packet data");
  return DecodedShellPacket{{ShellPacketId(id), std::string(bytes.data() + shell_header_size, len)},
                            shell_header_size + len};
}

util::Result<std::string> encode_shell_packet(const ShellPacket& packet) {
  if (packet.data.size() > max_shell_packet) return fail(Errc::too_large, "shell v2 packet too large");
  if (packet.id == ShellPacketId::exit && packet.data.size() != 1)
    return fail(Errc::invalid_argument, "shell v2 exit packet must carry exactly one byte");
  std::string out(shell_header_size, '\0');
  out[0] = char(packet.id);
  auto len = std::uint32_t(packet.data.size());
  for (int i = 1; i <= 4; ++i, len >>= 8) out[i] = char(len & 0xFF);
  return out + packet.data;
}

}  // namespace flakescan::adb_protocol
