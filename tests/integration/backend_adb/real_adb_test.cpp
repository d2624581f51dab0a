// The real `adb` binary (Debian package adb) on a test port, asked through our client; and
// the real-device checks, which run only when ANDROID_SERIAL names a connected device.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <boost/asio/ip/tcp.hpp>

#include "adb_protocol/server_client.hpp"
#include "util/process.hpp"

using namespace flakescan;
using adb_protocol::after;
using std::chrono::milliseconds;

namespace {

std::uint16_t free_port() {
  boost::asio::io_context ctx;
  boost::asio::ip::tcp::acceptor a(ctx, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

}  // namespace

TEST_CASE("real adb server on a test port answers version and device list", "[adb][real_adb]") {
  if (std::system("command -v adb >/dev/null 2>&1") != 0) {
    WARN("adb binary not installed (Debian package adb): skipped");
    return;
  }
  std::string port = std::to_string(free_port());
  auto started = util::run_capture({"adb", "-P", port, "start-server"}, milliseconds(30000));
  REQUIRE(started);
  adb_protocol::Client client({"127.0.0.1", std::uint16_t(std::stoi(port))});
  auto version = client.version(after(milliseconds(5000)));
  auto devices = client.devices(after(milliseconds(5000)));
  (void)util::run_capture({"adb", "-P", port, "kill-server"}, milliseconds(10000));
  REQUIRE(version);
  CHECK(*version >= 39);  // Debian 12's adb 29.0.6 speaks host protocol 41
  REQUIRE(devices);
  WARN("real adb " << port << ": version " << *version << ", " << devices->size() << " device(s)");
  if (!std::getenv("ANDROID_SERIAL")) CHECK(devices->empty());  // no USB devices on the build machine
}

TEST_CASE("real device: shell v2 exit code and sdk level", "[adb][real_device]") {
  const char* serial = std::getenv("ANDROID_SERIAL");
  if (!serial) {
    WARN("ANDROID_SERIAL not set: real-device test skipped (nothing was run on a real device)");
    return;
  }
  adb_protocol::Client client;  // the user's adb server, 127.0.0.1:5037
  auto sdk = client.shell(serial, "getprop ro.build.version.sdk", after(milliseconds(10000)));
  REQUIRE(sdk);
  CHECK(std::atoi(sdk->out.c_str()) > 0);
  auto f = client.shell(serial, "false", after(milliseconds(10000)));
  REQUIRE(f);
  if (f->v2) CHECK(f->exit_code == 1);
}
