// The adb client against the scripted fake adb server (loopback, port 0).
// Nothing here ran on a real device: the device side is the fake.
#include <catch2/catch.hpp>

#include <thread>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "adb_protocol/server_client.hpp"
#include "backend/adb/device_registry.hpp"
#include "support/fake_adb/fake_adb_server.hpp"

using namespace flakescan;
using adb_protocol::after;
using std::chrono::milliseconds;
using util::Errc;

namespace {

adb_protocol::Client client_for(const test::FakeAdbServer& fake) {
  return adb_protocol::Client(*adb_protocol::ServerAddress::parse(fake.address()));
}

}  // namespace

TEST_CASE("fake adb: version, devices with their states", "[adb][fake]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.add_device({"0123456789ABCDEF", "unauthorized"});
  fake.add_device({"emulator-5556", "offline"});
  auto c = client_for(fake);
  CHECK(*c.version(after(milliseconds(5000))) == 41);
  auto devices = c.devices(after(milliseconds(5000)));
  REQUIRE(devices);
  REQUIRE(devices->size() == 3);
  CHECK((*devices)[0].state == adb_protocol::DeviceState::device);
  CHECK((*devices)[0].model == "sdk_gphone64_x86_64");
  CHECK((*devices)[1].state == adb_protocol::DeviceState::unauthorized);
  CHECK((*devices)[2].state == adb_protocol::DeviceState::offline);

  CHECK(c.transport("0123456789ABCDEF", after(milliseconds(5000))).error().code == Errc::conflict);
  CHECK(c.transport("emulator-5556", after(milliseconds(5000))).error().code == Errc::conflict);
  CHECK(c.transport("nope", after(milliseconds(5000))).error().code == Errc::not_found);
}

TEST_CASE("fake adb: shell v2 keeps streams and exit code apart; old devices fall back to shell:", "[adb][fake]") {
  test::FakeAdbServer fake;
  fake.add_device({"new-device"});
  test::FakeDevice old{"old-device"};
  old.shell_v2 = false;
  fake.add_device(old);
  fake.on_shell([](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (cmd != "getprop ro.build.version.sdk") return std::nullopt;
    test::FakeReply r;
    r.out = "34\n";
    r.err = "warning: something\n";
    r.exit_code = 3;
    r.chunk = 1;
    return r;
  });
  auto c = client_for(fake);
  auto v2 = c.shell("new-device", "getprop ro.build.version.sdk", after(milliseconds(5000)));
  REQUIRE(v2);
  CHECK(v2->v2);
  CHECK(v2->out == "34\n");
  CHECK(v2->err == "warning: something\n");
  CHECK(v2->exit_code == 3);
  CHECK_FALSE(v2->cut);

  auto v1 = c.shell("old-device", "getprop ro.build.version.sdk", after(milliseconds(5000)));
  REQUIRE(v1);
  CHECK_FALSE(v1->v2);
  CHECK(v1->out.starts_with("34\r\n"));
  CHECK_FALSE(v1->exit_code);
}

TEST_CASE("fake adb: sync push then stat; a missing file stats as absent", "[adb][fake]") {
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  auto c = client_for(fake);
  std::string data(200000, 'x');  // more than three DATA chunks
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = char('a' + i % 26);
  REQUIRE(c.push("emulator-5554", data, "/data/local/tmp/x.bin", 0644, after(milliseconds(5000))));
  CHECK(fake.files("emulator-5554").at("/data/local/tmp/x.bin") == data);
  auto st = c.stat("emulator-5554", "/data/local/tmp/x.bin", after(milliseconds(5000)));
  REQUIRE(st);
  CHECK(st->size == data.size());
  CHECK(st->exists());
  CHECK_FALSE(c.stat("emulator-5554", "/data/local/tmp/none", after(milliseconds(5000)))->exists());
}

TEST_CASE("fake adb: a malformed server reply is an error, not a crash", "[adb][fake]") {
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.set_malformed(true);
  auto c = client_for(fake);
  CHECK(c.version(after(milliseconds(5000))).error().code == Errc::malformed);
  CHECK(c.devices(after(milliseconds(5000))).error().code == Errc::malformed);
  CHECK(c.shell("emulator-5554", "true", after(milliseconds(5000))).error().code == Errc::malformed);
  fake.set_malformed(false);
  CHECK(*c.version(after(milliseconds(5000))) == 41);
}

TEST_CASE("fake adb: a hung command ends at the caller's deadline", "[adb][fake]") {
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.on_shell([](const std::string&, const std::string&) -> std::optional<test::FakeReply> {
    test::FakeReply r;
    r.out = "partial\n";
    r.hang = true;
    return r;
  });
  auto c = client_for(fake);
  auto r = c.shell("emulator-5554", "sleep 1000", after(milliseconds(2000)));  // connecting counts too
  REQUIRE(r);
  REQUIRE(r->cut);
  CHECK(r->cut->code == Errc::timeout);
  CHECK(r->out == "partial\n");
  std::atomic<bool> cancel{true};
  auto cancelled = c.shell("emulator-5554", "sleep 1000", after(milliseconds(60000)), &cancel);
  CHECK(!cancelled.has_value());
  CHECK(cancelled.error().code == Errc::cancelled);
}

TEST_CASE("fake adb: nobody listening is `disconnected`", "[adb][fake]") {
  // A port bound here but not listening: a connection is refused, and no other socket can take
  // the port meanwhile (a port let go could be).
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  adb_protocol::Client c({"127.0.0.1", ntohs(a.sin_port)});
  CHECK(c.version(after(milliseconds(2000))).error().code == Errc::disconnected);
  ::close(fd);
}

TEST_CASE("device registry tracks devices live through host:track-devices", "[adb][fake][registry]") {
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.add_device({"serial-unauth", "unauthorized"});
  backend::adb::DeviceRegistry registry({*adb_protocol::ServerAddress::parse(fake.address())});
  registry.start();
  REQUIRE(registry.wait_until_tracked(milliseconds(5000)));
  auto wait_for = [&](auto pred) {
    for (int i = 0; i < 500 && !pred(registry.snapshot()); ++i) std::this_thread::sleep_for(milliseconds(10));
    return pred(registry.snapshot());
  };
  auto state_of = [](const std::vector<backend::adb::DeviceInfo>& s, const std::string& serial) {
    for (const auto& d : s) if (d.serial == serial) return d.state;
    return std::string("absent");
  };
  REQUIRE(wait_for([&](auto s) { return state_of(s, "emulator-5554") == "device"; }));
  CHECK(state_of(registry.snapshot(), "serial-unauth") == "unauthorized");
  for (const auto& d : registry.snapshot())
    if (d.serial == "emulator-5554") CHECK(d.model == "sdk_gphone64_x86_64");  // from host:devices-l
  CHECK(registry.ready_count() == 1);

  fake.add_device({"emulator-5556"});
  CHECK(wait_for([&](auto s) { return state_of(s, "emulator-5556") == "device"; }));

  auto lease = registry.acquire({}, milliseconds(1000));
  REQUIRE(lease);
  std::string leased = lease->serial();
  CHECK_FALSE(lease->lost());
  fake.unplug(leased);
  CHECK(wait_for([&](auto s) { return state_of(s, leased) == "gone"; }));
  CHECK(lease->lost());

  // Unauthorized devices are never leased.
  auto other = registry.acquire({lease->key()}, milliseconds(200));
  REQUIRE(other);
  CHECK(other->serial() != "serial-unauth");
  registry.stop();
}
