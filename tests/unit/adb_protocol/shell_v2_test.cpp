#include <catch2/catch.hpp>

#include "adb_protocol/shell_v2.hpp"

using namespace flakescan::adb_protocol;
using flakescan::util::Errc;

TEST_CASE("shell v2 packets: wire table", "[adb][codec]") {
  struct Row { std::string wire; ShellPacket packet; };
  std::vector<Row> rows = {
      {std::string("\x01\x03\x00\x00\x00" "abc", 8), {ShellPacketId::stdout_data, "abc"}},
      {std::string("\x02\x00\x00\x00\x00", 5), {ShellPacketId::stderr_data, ""}},
      {std::string("\x03\x01\x00\x00\x00\x2a", 6), {ShellPacketId::exit, "\x2a"}},
      {std::string("\x01\x00\x01\x00\x00", 5) + std::string(256, 'z'), {ShellPacketId::stdout_data, std::string(256, 'z')}},
  };
  for (const auto& r : rows) {
    auto d = decode_shell_packet(r.wire);
    REQUIRE(d);
    CHECK(d->packet == r.packet);
    CHECK(d->consumed == r.wire.size());
    CHECK(*encode_shell_packet(r.packet) == r.wire);
    for (std::size_t cut = 0; cut < r.wire.size(); ++cut)
      CHECK(decode_shell_packet(std::span<const char>(r.wire.data(), cut)).error().code == Errc::need_more);
  }
}

TEST_CASE("shell v2 packets: malformed and oversized", "[adb][codec]") {
  CHECK(decode_shell_packet(std::string("\x09\x00\x00\x00\x00", 5)).error().code == Errc::malformed);
  CHECK(decode_shell_packet(std::string("\x03\x02\x00\x00\x00\x00\x00", 7)).error().code == Errc::malformed);
  CHECK(decode_shell_packet(std::string("\x01\xff\xff\xff\x7f", 5)).error().code == Errc::too_large);
  CHECK(encode_shell_packet({ShellPacketId::exit, ""}).error().code == Errc::invalid_argument);
}
