#pragma once
// The sync protocol codec (service "sync:" on a device transport): file stat and push.
// Facts from AOSP SYNC.TXT. Pure functions, no I/O.
//
// Every request and most replies:       STAT reply (v1):
//   +-----------+-----------------+       +--------+----------+----------+-----------+
//   | id: 4 chr | u32 LE length   |       | "STAT" | mode u32 | size u32 | mtime u32 |
//   +-----------+-----------------+       +--------+----------+----------+-----------+
//   | payload: length bytes       |
//   +-----------------------------+
// Requests: STAT path | SEND "path,mode" | DATA chunk (<= 64 KiB) | DONE (length = mtime,
// no payload) | QUIT. After DONE the device answers OKAY (length 0) or FAIL + message.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace flakescan::adb_protocol {

constexpr std::size_t sync_header_size = 8;
constexpr std::size_t max_sync_data = 64 * 1024;
constexpr std::size_t max_sync_path = 1024;

// A request with a payload (STAT, SEND, DATA, QUIT) or DONE with its mtime.
util::Result<std::string> encode_sync_request(std::string_view id, std::string_view payload);
std::string encode_sync_done(std::uint32_t mtime);

struct SyncStat {
  std::uint32_t mode = 0, size = 0, mtime = 0;
  bool exists() const { return mode != 0; }  // SYNC.TXT: a missing file stats as all zeros
  friend bool operator==(const SyncStat&, const SyncStat&) = default;
};
util::Result<SyncStat> decode_sync_stat(std::span<const char> bytes);  // needs 16 bytes
std::string encode_sync_stat(const SyncStat& stat);

// A request or status header: the id and the length/argument field.
struct SyncHeader {
  std::string id;
  std::uint32_t length = 0;
};
util::Result<SyncHeader> decode_sync_header(std::span<const char> bytes);

// The reply to DONE: OKAY, or FAIL with its message.
struct SyncStatus {
  bool okay = false;
  std::string message;
  std::size_t consumed = 0;
};
util::Result<SyncStatus> decode_sync_status(std::span<const char> bytes);
util::Result<std::string> encode_sync_status(bool okay, std::string_view message);

}  // namespace flakescan::adb_protocol
