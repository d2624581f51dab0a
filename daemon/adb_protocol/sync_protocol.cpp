#include "adb_protocol/sync_protocol.hpp"

namespace flakescan::adb_protocol {

using util::Errc;
using util::fail;

namespace {

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i, v >>= 8) out.push_back(char(v & 0xFF));
}

std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::uint8_t(p[i]);
  return v;
}

bool known_id(std::string_view id) {
  for (std::string_view k : {"STAT", "SEND", "DATA", "DONE", "QUIT", "OKAY", "FAIL", "LIST", "RECV", "DENT"})
    if (k == id) return true;
  return false;
}

}  // namespace

util::Result<std::string> encode_sync_request(std::string_view id, std::string_view payload) {
  if (id.size() != 4 || !known_id(id)) return fail(Errc::invalid_argument, "not a sync request id");
  if (id == "DATA" ? payload.size() > max_sync_data : payload.size() > max_sync_path)
    return fail(Errc::too_large, "sync payload too large");
  std::string out(id);
  put_u32(out, std::uint32_t(payload.size()));
  return out + std::string(payload);
}

std::string encode_sync_done(std::uint32_t mtime) {
  std::string out("DONE");
  put_u32(out, mtime);
  return out;
}

util::Result<SyncStat> decode_sync_stat(std::span<const char> bytes) {
  if (bytes.size() < 16) return fail(Errc::need_more, "sync stat");
  if (std::string_view(bytes.data(), 4) != "STAT") return fail(Errc::malformed, "sync reply is not STAT");
  return SyncStat{get_u32(bytes.data() + 4), get_u32(bytes.data() + 8), get_u32(bytes.data() + 12)};
}

std::string encode_sync_stat(const SyncStat& stat) {
  std::string out("STAT");
  put_u32(out, stat.mode);
  put_u32(out, stat.size);
  put_u32(out, stat.mtime);
  return out;
}

util::Result<SyncHeader> decode_sync_header(std::span<const char> bytes) {
  if (bytes.size() < sync_header_size) return fail(Errc::need_more, "sync header");
  std::string id(bytes.data(), 4);
  if (!known_id(id)) return fail(Errc::malformed, "unknown sync id");
  return SyncHeader{std::move(id), get_u32(bytes.data() + 4)};
}

util::Result<SyncStatus> decode_sync_status(std::span<const char> bytes) {
  auto header = decode_sync_header(bytes);
  if (!header) return std::unexpected(header.error());
  if (header->id == "OKAY") return SyncStatus{true, {}, sync_header_size};
  if (header->id != "FAIL") return fail(Errc::malformed, "sync status is neither OKAY nor FAIL");
  if (header->length > max_sync_path) return fail(Errc::too_large, "sync FAIL message too long");
  if (bytes.size() < sync_header_size + header->length) return fail(Errc::need_more, "sync FAIL message");
  return SyncStatus{false, std::string(bytes.data() + sync_header_size, header->length),
                    sync_header_size + header->length};
}

util::Result<std::string> encode_sync_status(bool okay, std::string_view message) {
  if (okay) {
    std::string out("OKAY");
    put_u32(out, 0);
    return out;
  }
  return encode_sync_request("FAIL", message);
}

}  // namespace flakescan::adb_protocol
