#pragma once
// The shell v2 packet codec ("shell,v2,raw:CMD"): stdout, stderr and the exit code arrive
// as separate packets on one stream. Pure functions, no I/O.
//
//   +--------+----------------------+----------------------+
//   | id: u8 | length: u32 little-e | data: length bytes   |
//   +--------+----------------------+----------------------+
//   id: 0 stdin, 1 stdout, 2 stderr, 3 exit (data = 1 byte exit code), 4 close-stdin,
//       5 window-size-change (data = "ROWSxCOLS,XxY").
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace flakescan::adb_protocol {

enum class ShellPacketId : std::uint8_t {
  stdin_data = 0, stdout_data = 1, stderr_data = 2, exit = 3, close_stdin = 4, window_size = 5,
};

constexpr std::size_t shell_header_size = 5;
constexpr std::size_t max_shell_packet = 1 << 20;  // adbd sends at most 256 KiB; refuse more

struct ShellPacket {
  ShellPacketId id = ShellPacketId::stdout_data;
  std::string data;
  friend bool operator==(const ShellPacket&, const ShellPacket&) = default;
};

struct DecodedShellPacket {
  ShellPacket packet;
  std::size_t consumed = 0;
};

// need_more until header and data are present; malformed for unknown ids, too_large over cap.
util::Result<DecodedShellPacket> decode_shell_packet(std::span<const char> bytes);
util::Result<std::string> encode_shell_packet(const ShellPacket& packet);

}  // namespace flakescan::adb_protocol
