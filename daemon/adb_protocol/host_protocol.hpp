#pragma once
// ADB host protocol codec (client <-> adb server on TCP 5037). Pure functions over bytes:
// no I/O, no logging. Facts from AOSP packages/modules/adb OVERVIEW.TXT / SERVICES.TXT.
//
// Request (client -> server):            Status reply (server -> client):
//   +-----------+---------------------+    +------+                       (success)
//   | len: 4 hex| service: len bytes  |    | OKAY |
//   | "000c"    | "host:version"      |    +------+-----------+----------+ (failure)
//   +-----------+---------------------+    | FAIL | len: 4 hex| message  |
//                                          +------+-----------+----------+
// Length-prefixed payload (host:version, host:devices-l, each track-devices/track-jdwp update):
//   +-----------+--------------------+
//   | len: 4 hex| payload: len bytes |
//   +-----------+--------------------+
// Device list payload: one line per device, "SERIAL\tSTATE\n"; with -l the serial is padded
// with spaces and followed by "STATE key:value key:value ...".
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::adb_protocol {

using Bytes = std::span<const char>;

constexpr std::size_t max_hex4 = 0xFFFF;  // the largest length 4 hex digits can say

// "000chost:version". Empty services and services over max_hex4 bytes are invalid_argument.
util::Result<std::string> encode_request(std::string_view service);
// Parses exactly 4 hex digits (either case); anything else is malformed.
util::Result<std::size_t> parse_hex4(std::string_view digits);
std::string hex4(std::size_t n);  // n <= max_hex4

struct Status {
  bool okay = false;
  std::string message;       // FAIL's message; empty for OKAY
  std::size_t consumed = 0;  // bytes of `bytes` that made up the status
};
// need_more until a whole status is present; malformed for anything but OKAY/FAIL.
util::Result<Status> decode_status(Bytes bytes);
std::string encode_okay();
util::Result<std::string> encode_fail(std::string_view message);

struct Frame {
  std::string payload;
  std::size_t consumed = 0;
};
// One length-prefixed payload; need_more until complete.
util::Result<Frame> decode_frame(Bytes bytes);
util::Result<std::string> encode_frame(std::string_view payload);

// The server's version number from host:version's payload ("0029" -> 41).
util::Result<int> parse_version(std::string_view payload);

enum class DeviceState {
  device, offline, unauthorized, authorizing, connecting, bootloader, recovery, sideload,
  rescue, host, no_permissions, unknown,
};
std::string_view device_state_name(DeviceState state);
DeviceState parse_device_state(std::string_view text);  // unknown for names not in the table

struct DeviceEntry {
  std::string serial;
  DeviceState state = DeviceState::unknown;
  std::string state_text;    // as the server wrote it ("no permissions (...)" keeps its detail)
  std::string product, model, device, usb;
  std::string transport_id;  // "" when the server did not say
  friend bool operator==(const DeviceEntry&, const DeviceEntry&) = default;
};

// Parses host:devices / host:devices-l / track-devices payloads. A line without a state is
// malformed; unknown key:value words are ignored.
util::Result<std::vector<DeviceEntry>> parse_device_list(std::string_view text);
std::string format_device_list(const std::vector<DeviceEntry>& devices, bool long_format);

// track-jdwp payload: one decimal pid per line.
util::Result<std::vector<int>> parse_pid_list(std::string_view text);

}  // namespace flakescan::adb_protocol
