// JDWP over the adb transport: the fake adb server's jdwp:PID is proxied to a real HotSpot
// JVM with a JDWP agent; flakescan finds the pid with track-jdwp, opens jdwp:PID and drives
// the VM through core::Vm. The device side is the fake: nothing here ran on a real device.
#include <catch2/catch.hpp>

#ifdef FLAKESCAN_ADB_JDWP

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "backend/adb/debug_run.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"
#include "util/process.hpp"

using namespace flakescan;
using std::chrono::milliseconds;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("debugger over adb: jdwp:PID through the transport reaches a real JVM", "[adb][jdwp]") {
  WARN("fake adb server proxying jdwp:PID to a local HotSpot JVM: the device path was not run on a real device");
  std::string dir = std::string(FLAKESCAN_BINARY_DIR) + "/adb_it/jdwp";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  util::SpawnOptions jvm;
  jvm.argv = {"java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0",
              std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/adb/jdwp/DebuggeeMain.java"};
  jvm.stdout_path = dir + "/jvm.out";
  auto child = util::Child::spawn(jvm);
  REQUIRE(child);
  int port = 0;
  std::regex listening("Listening for transport dt_socket at address: ([0-9]+)");
  for (int i = 0; i < 400 && port == 0; ++i) {
    std::smatch m;
    std::string out = slurp(jvm.stdout_path);
    if (std::regex_search(out, m, listening)) port = std::stoi(m[1]);
    else std::this_thread::sleep_for(milliseconds(50));
  }
  REQUIRE(port > 0);
  // The source launcher compiles DebuggeeMain after the agent is up: wait until main runs.
  for (int i = 0; i < 600 && slurp(jvm.stdout_path).find("debuggee up") == std::string::npos; ++i)
    std::this_thread::sleep_for(milliseconds(50));
  REQUIRE(slurp(jvm.stdout_path).find("debuggee up") != std::string::npos);

  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.on_shell([&](const std::string& serial, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    REQUIRE(cmd.find(" -e debug true ") != std::string::npos);
    fake.add_jdwp(serial, 4242, std::uint16_t(port));  // the app process is now debuggable
    test::FakeReply r;
    r.out = test::transcript({{"demo.AsyncTest", "waitsForResult", 0}});
    r.before = [&] {  // AndroidJUnitRunner waits for the debugger before running tests
      for (int i = 0; i < 400; ++i) {
        auto s = fake.services();
        if (std::find(s.begin(), s.end(), "emulator-5554:jdwp:4242") != s.end()) return;
        std::this_thread::sleep_for(milliseconds(50));
      }
    };
    return r;
  });
  std::ofstream(dir + "/app.apk", std::ios::binary) << test::build_apk("com.example.app");
  std::ofstream(dir + "/test.apk", std::ios::binary) << test::build_apk("com.example.app.test");
  backend::adb::AdbBackendConfig config;
  config.servers = {*adb_protocol::ServerAddress::parse(fake.address())};
  config.app_apk = dir + "/app.apk";
  config.test_apk = dir + "/test.apk";
  auto exec = backend::adb::make_adb_executor(config);
  REQUIRE(exec);
  core::CancelFlag cancel{false};
  core::RunSpec spec;
  spec.tests = {"demo.AsyncTest#waitsForResult"};
  spec.timeout_ms = 30000;
  auto run = backend::adb::start_debug_run(**exec, spec, cancel);
  REQUIRE(run);
  CHECK((*run)->pid() == 4242);
  auto& vm = (*run)->vm();
  CHECK(vm.alive());
  CHECK(vm.description().find("VM") != std::string::npos);
  auto threads = vm.threads(core::deadline_in(milliseconds(10000)));
  REQUIRE(threads);
  bool has_main = false;
  for (const auto& t : *threads) has_main = has_main || t.name == "main";
  CHECK(has_main);
  auto classes = vm.loaded_classes(core::deadline_in(milliseconds(10000)));
  REQUIRE(classes);
  CHECK(std::find(classes->begin(), classes->end(), "DebuggeeMain") != classes->end());
  // Handed over suspended; change program state through the debugger, resume: the JVM sees it and ends.
  REQUIRE(vm.set_static_field("DebuggeeMain", "released", core::Value::of_bool(true), core::deadline_in(milliseconds(10000))));
  REQUIRE(vm.resume_all(core::deadline_in(milliseconds(10000))));
  auto status = child->wait(std::chrono::steady_clock::now() + std::chrono::seconds(20));
  REQUIRE(status);
  CHECK(status->success());
  CHECK(slurp(jvm.stdout_path).find("released=true") != std::string::npos);

  auto report = (*run)->finish();
  REQUIRE(report);
  REQUIRE(report->results.size() == 1);
  CHECK(report->results[0].outcome == core::Outcome::pass);
  auto cmds = fake.commands("emulator-5554");
  CHECK(std::count_if(cmds.begin(), cmds.end(), [](const std::string& c) { return c.starts_with("am instrument -w -r -e debug true"); }) == 1);
}

#else
TEST_CASE("debugger over adb", "[adb][jdwp]") { WARN("built without the JDWP engine (flakescan_jdwp_vm): skipped"); }
#endif
