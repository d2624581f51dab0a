#include <catch2/catch.hpp>

#include "adb_protocol/sync_protocol.hpp"

using namespace flakescan::adb_protocol;
using flakescan::util::Errc;

TEST_CASE("sync requests: id, little-endian length, payload", "[adb][codec]") {
  CHECK(*encode_sync_request("STAT", "/data/local/tmp/a.apk") == std::string("STAT\x15\x00\x00\x00/data/local/tmp/a.apk", 29));
  CHECK(*encode_sync_request("QUIT", "") == std::string("QUIT\0\0\0\0", 8));
  CHECK(encode_sync_done(0x01020304) == std::string("DONE\x04\x03\x02\x01", 8));
  CHECK(encode_sync_request("NOPE", "x").error().code == Errc::invalid_argument);
  CHECK(encode_sync_request("DATA", std::string(max_sync_data + 1, 'a')).error().code == Errc::too_large);
  CHECK(encode_sync_request("DATA", std::string(max_sync_data, 'a')).has_value());
  auto h = decode_sync_header(*encode_sync_request("SEND", "/x,33188"));
  CHECK(h->id == "SEND");
  CHECK(h->length == 8);
}

TEST_CASE("sync stat replies round-trip; a missing file is all zeros", "[adb][codec]") {
  SyncStat st{0100644, 1234, 1700000000};
  auto wire = encode_sync_stat(st);
  REQUIRE(wire.size() == 16);
  CHECK(*decode_sync_stat(wire) == st);
  CHECK(decode_sync_stat(std::span<const char>(wire.data(), 15)).error().code == Errc::need_more);
  CHECK_FALSE(decode_sync_stat(encode_sync_stat({})).value().exists());
  CHECK(decode_sync_stat(std::string("FAIL") + std::string(12, '\0')).error().code == Errc::malformed);
}

TEST_CASE("sync status after DONE", "[adb][codec]") {
  auto ok = decode_sync_status(*encode_sync_status(true, ""));
  CHECK(ok->okay);
  CHECK(ok->consumed == 8);
  auto bad = *encode_sync_status(false, "couldn't create file: Read-only file system");
  auto f = decode_sync_status(bad);
  CHECK_FALSE(f->okay);
  CHECK(f->message == "couldn't create file: Read-only file system");
  CHECK(decode_sync_status(std::span<const char>(bad.data(), 10)).error().code == Errc::need_more);
  CHECK(decode_sync_status(std::string("WHAT\0\0\0\0", 8)).error().code == Errc::malformed);
}
