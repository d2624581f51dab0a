#include <catch2/catch.hpp>

#include <optional>

#include "adb_protocol/host_protocol.hpp"

using namespace flakescan::adb_protocol;
using flakescan::util::Errc;

namespace {
std::span<const char> bytes(const std::string& s) { return {s.data(), s.size()}; }
}

TEST_CASE("requests carry a 4-hex-digit length", "[adb][codec]") {
  REQUIRE(*encode_request("host:version") == "000chost:version");
  REQUIRE(*encode_request("host:transport:emulator-5554") == "001chost:transport:emulator-5554");
  REQUIRE(encode_request("").error().code == Errc::invalid_argument);
  REQUIRE(encode_request(std::string(65536, 'x')).error().code == Errc::invalid_argument);
  REQUIRE(encode_request(std::string(65535, 'x'))->substr(0, 4) == "ffff");
}

TEST_CASE("hex lengths: exactly four digits, either case", "[adb][codec]") {
  struct Row { std::string in; std::optional<std::size_t> out; };
  std::vector<Row> rows = {{"0000", 0}, {"001c", 28}, {"FFFF", 65535}, {"00aF", 175},
                           {"00g0", std::nullopt}, {"12", std::nullopt}, {" 123", std::nullopt}, {"-001", std::nullopt}};
  for (const auto& r : rows) {
    auto v = parse_hex4(r.in);
    INFO(r.in);
    if (r.out) REQUIRE(*v == *r.out);
    else REQUIRE(v.error().code == Errc::malformed);
  }
}

TEST_CASE("status replies: OKAY, FAIL with message, need-more, malformed", "[adb][codec]") {
  auto ok = decode_status(bytes("OKAYrest"));
  REQUIRE(ok->okay);
  REQUIRE(ok->consumed == 4);

  auto f = decode_status(bytes("FAIL0014device 'x' not found"));
  REQUIRE_FALSE(f->okay);
  REQUIRE(f->message == "device 'x' not found");
  REQUIRE(f->consumed == 28);

  for (std::string partial : {"", "OK", "FAI", "FAIL", "FAIL00", "FAIL0014device"})
    REQUIRE(decode_status(bytes(partial)).error().code == Errc::need_more);
  for (std::string bad : {"HTTP/1.1 200 OK", "okay", "FAILzzzz"})
    REQUIRE(decode_status(bytes(bad)).error().code == Errc::malformed);

  // Round trip.
  auto wire = *encode_fail("closed");
  auto back = decode_status(bytes(wire));
  REQUIRE(back->message == "closed");
  REQUIRE(back->consumed == wire.size());
}

TEST_CASE("frames round-trip and report need-more", "[adb][codec]") {
  for (std::string payload : {std::string(), std::string("0029"), std::string(65535, 'a')}) {
    auto wire = *encode_frame(payload);
    auto back = decode_frame(bytes(wire));
    REQUIRE(back->payload == payload);
    REQUIRE(back->consumed == wire.size());
    if (!wire.empty()) REQUIRE(decode_frame(std::span<const char>(wire.data(), wire.size() - 1)).error().code == Errc::need_more);
  }
  REQUIRE(encode_frame(std::string(65536, 'a')).error().code == Errc::too_large);
  REQUIRE(*parse_version("0029") == 41);
  REQUIRE(parse_version("29").error().code == Errc::malformed);
}

TEST_CASE("device lists in short and long format, every state", "[adb][codec]") {
  // Shapes as printed by adb 34 (`adb devices -l`), including the no-permissions text.
  std::string text =
      "emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n"
      "0123456789ABCDEF       unauthorized usb:1-1 transport_id:2\n"
      "192.168.1.20:5555      offline transport_id:3\n"
      "R58M12345             no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:3-2 transport_id:4\n"
      "weird                  frobnicating\n";
  auto list = parse_device_list(text);
  REQUIRE(list);
  REQUIRE(list->size() == 5);
  CHECK((*list)[0].serial == "emulator-5554");
  CHECK((*list)[0].state == DeviceState::device);
  CHECK((*list)[0].model == "sdk_gphone64_x86_64");
  CHECK((*list)[0].transport_id == "1");
  CHECK((*list)[1].state == DeviceState::unauthorized);
  CHECK((*list)[1].usb == "1-1");
  CHECK((*list)[2].serial == "192.168.1.20:5555");
  CHECK((*list)[2].state == DeviceState::offline);
  CHECK((*list)[3].state == DeviceState::no_permissions);
  CHECK((*list)[3].usb == "3-2");
  CHECK((*list)[3].transport_id == "4");
  CHECK((*list)[4].state == DeviceState::unknown);
  CHECK((*list)[4].state_text == "frobnicating");

  auto short_list = parse_device_list("emulator-5554\tdevice\nemulator-5556\toffline\r\n\n");
  REQUIRE(short_list->size() == 2);
  CHECK((*short_list)[1].state == DeviceState::offline);

  REQUIRE(parse_device_list("").value().empty());
  REQUIRE(parse_device_list("lonely-serial\n").error().code == Errc::malformed);
}

TEST_CASE("device lists round-trip through format_device_list", "[adb][codec]") {
  std::vector<DeviceEntry> devices = {
      {"emulator-5554", DeviceState::device, "device", "sdk", "Pixel_7", "emu64", "", "7"},
      {"serial-b", DeviceState::unauthorized, "unauthorized", "", "", "", "1-1", "8"},
  };
  for (bool long_format : {true, false}) {
    auto back = parse_device_list(format_device_list(devices, long_format));
    REQUIRE(back);
    REQUIRE(back->size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK((*back)[i].serial == devices[i].serial);
      CHECK((*back)[i].state == devices[i].state);
      if (long_format) CHECK((*back)[i] == devices[i]);
    }
  }
}

// Found by fuzz_adb_host_replies (tests/fixtures/adb/host_corpus/regression-cr-inside-device-line):
// a CR inside a line stuck to the word before it, which then read back without it.
TEST_CASE("a CR inside a device line separates words like a space", "[adb][codec]") {
  auto devices = parse_device_list("emulator-5554\tdevice\r usb:1-1\rtransport_id:3\r\n");
  REQUIRE(devices);
  REQUIRE(devices->size() == 1);
  CHECK((*devices)[0].state_text == "device");
  CHECK((*devices)[0].usb == "1-1");
  CHECK((*devices)[0].transport_id == "3");
  auto back = parse_device_list(format_device_list(*devices, true));
  REQUIRE(back);
  CHECK(*back == *devices);
}

// Found by fuzz_adb_host_replies (tests/fixtures/adb/host_corpus/regression-no-permissions-without-usb):
// a "no permissions" text without its bracketed link ended only at " usb:", so without usb:
// it swallowed "product:..." and the line did not read back as it was written.
TEST_CASE("a no-permissions text without a link ends at the first key", "[adb][codec]") {
  auto devices = parse_device_list("0123456789ABCDEF       no permissions (user in plugdev group) product:sdk model:m transport_id:4\n");
  REQUIRE(devices);
  REQUIRE(devices->size() == 1);
  const auto& d = (*devices)[0];
  CHECK(d.state == DeviceState::no_permissions);
  CHECK(d.state_text == "no permissions (user in plugdev group)");
  CHECK(d.product == "sdk");
  CHECK(d.model == "m");
  CHECK(d.transport_id == "4");
  auto back = parse_device_list(format_device_list(*devices, true));
  REQUIRE(back);
  CHECK(*back == *devices);
}

TEST_CASE("track-jdwp pid lists", "[adb][codec]") {
  REQUIRE(*parse_pid_list("1234\n5678\n") == std::vector<int>{1234, 5678});
  REQUIRE(parse_pid_list("").value().empty());
  REQUIRE(parse_pid_list("12a\n").error().code == Errc::malformed);
  REQUIRE(parse_pid_list("-5\n").error().code == Errc::malformed);
}
