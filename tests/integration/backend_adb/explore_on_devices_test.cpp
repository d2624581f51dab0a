// Event-order exploration on devices, end to end through the scan layer: a scan with
// backend "adb" and technique "explore" on two fake devices whose instrumentations run the
// android-style examples on real HotSpot JVMs (support/fake_adb/jvm_device.hpp). Every
// debugged run finds the test process with track-jdwp, opens jdwp:PID through the device
// transport, and drives the JVM over that stream. The device and its runner are stand-ins:
// nothing here ran on a real device.
#include <catch2/catch.hpp>

#ifdef FLAKESCAN_ADB_JDWP

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "backend/adb/config_json.hpp"
#include "backend/adb/adb_executor.hpp"
#include "scan/scan_manager.hpp"
#include "scan/scan_request.hpp"
#include "scan/technique_table.hpp"
#include "store/store.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/jvm_device.hpp"
#include "integration/backend_adb/scan_verdicts.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A folder with the two APKs (the fake reads their package names) and the JVM that plays
// the devices: examples/android-style under flakescan's runner.
backend::LocalJvmConfig prepare(const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "app.apk", std::ios::binary) << test::build_apk("demo.android");
  std::ofstream(dir / "test.apk", std::ios::binary) << test::build_apk("demo.android.test");
  auto jvm = test::example_device_jvm("android-style", dir / "devices");
  REQUIRE(jvm.classpath.size() >= 2);
  return jvm;
}

}  // namespace

TEST_CASE("explore on devices: a scan with backend adb finds the race over jdwp:PID", "[adb][explore][scan]") {
  WARN("fake adb server with HotSpot JVMs as devices: the device path was not run on a real device");
  // Both strategies record and schedule through the same JDWP path a device gives.
  const std::string strategy = GENERATE(as<std::string>{}, "flakescanner", "maxdiff");
  fs::path dir = fs::path(FLAKESCAN_BINARY_DIR) / "adb_it" / ("explore-" + strategy);
  auto jvm = prepare(dir);

  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.add_device({"emulator-5556"});
  test::JvmBackedDevices devices(fake, jvm);
  fake.on_shell([&](const std::string& serial, const std::string& cmd) { return devices.handle(serial, cmd); });

  auto store = store::Store::open(dir / "flakescan.db");
  REQUIRE(store);
  scan::ScanManagerConfig config;
  config.data_dir = dir / "data";
  config.backends["adb"] = [](const scan::ScanRequest& r, const fs::path& work) {
    return backend::adb::make_adb_executor_from_json(r.adb, work.string());
  };
  scan::ScanManager manager(**store, config);
  const std::string racy = "demo.android.AsyncWaitTest#forecastShownAfterRefresh";
  const std::string twin = "demo.android.AsyncWaitTest#forecastShownAfterRefreshWithIdlingResource";
  json body = {{"backend", "adb"},
               {"tests", {racy, twin}},
               {"techniques", {"explore"}},
               {"strategy", strategy},
               {"adb", {{"servers", {fake.address()}},
                        {"app_apk", (dir / "app.apk").string()},
                        {"test_apk", (dir / "test.apk").string()}}}};
  auto request = scan::parse_scan_request(body, scan::technique_names());
  REQUIRE(request);
  auto submitted = manager.submit(*request);
  REQUIRE(submitted);
  auto verdicts = test::completed_scan_verdicts(manager, submitted->id, std::chrono::seconds(300));
  auto& by_test = verdicts.by_test;
  INFO(verdicts.file);
  REQUIRE(by_test.count(racy));
  REQUIRE(by_test.count(twin));
  CHECK(by_test[racy]["verdict"] == "flaky");
  CHECK(by_test[racy]["category"] == "concurrency");
  CHECK(by_test[racy]["evidence"]["details"]["strategy"] == strategy);
  if (strategy == "flakescanner")
    CHECK(by_test[racy]["evidence"]["details"]["racing_line"] == "33");  // the // RACING line
  else
    CHECK_FALSE(by_test[racy]["evidence"]["details"]["placements"].get<std::string>().empty());
  CHECK(by_test[twin]["verdict"] == "not_flaky");

  // Every explore run went through the debugger over adb.
  CHECK(devices.debugged_runs() >= 4);  // per test: a trace and at least one schedule
  auto services = fake.services();
  auto jdwp_opens = std::count_if(services.begin(), services.end(), [](const std::string& s) {
    return s.find(":jdwp:") != std::string::npos;
  });
  CHECK(jdwp_opens == devices.debugged_runs());
  CHECK(fake.max_instrumentations_per_device() == 1);
  manager.shutdown();
}

TEST_CASE("a device unplugged while the debugger drives a run: the run is made again on another device",
          "[adb][explore]") {
  WARN("fake adb server with HotSpot JVMs as devices: the device path was not run on a real device");
  fs::path dir = fs::path(FLAKESCAN_BINARY_DIR) / "adb_it" / "explore-unplug";
  auto jvm = prepare(dir);

  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  test::JvmBackedDevices devices(fake, jvm);
  fake.on_shell([&](const std::string& serial, const std::string& cmd) { return devices.handle(serial, cmd); });
  backend::adb::AdbBackendConfig config;
  config.servers = {*adb_protocol::ServerAddress::parse(fake.address())};
  config.app_apk = (dir / "app.apk").string();
  config.test_apk = (dir / "test.apk").string();
  auto exec = backend::adb::make_adb_executor(config);
  REQUIRE(exec);

  core::RunSpec spec;
  spec.tests = {"demo.android.AsyncWaitTest#forecastShownAfterRefreshWithIdlingResource"};
  spec.timeout_ms = 120000;
  core::CancelFlag cancel{false};
  int drives = 0;
  auto report = (*exec)->run_debugged(spec, cancel, [&](core::Vm& vm) -> util::Result<void> {
    if (++drives == 1) {  // the cable is pulled while the debugger holds the first device
      fake.add_device({"emulator-5556"});
      fake.unplug("emulator-5554");
      auto threads = vm.threads(core::deadline_in(std::chrono::seconds(10)));
      REQUIRE_FALSE(threads);
      return std::unexpected(threads.error());
    }
    return vm.resume_all(core::deadline_in(std::chrono::seconds(10)));
  });
  REQUIRE(report);
  CHECK(drives == 2);
  REQUIRE(report->results.size() == 1);
  CHECK(report->results[0].outcome == core::Outcome::pass);
  auto on_second = fake.commands("emulator-5556");
  CHECK(std::count_if(on_second.begin(), on_second.end(), [](const std::string& c) {
          return c.starts_with("am instrument -w -r -e debug true");
        }) == 1);
}

#else
TEST_CASE("explore on devices", "[adb][explore]") { WARN("built without the JDWP engine (flakescan_jdwp_vm): skipped"); }
#endif
