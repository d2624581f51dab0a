// A whole scan with backend "adb" through the scan layer (request parsing, ScanManager,
// the store, the rerun technique, the verdict file) on three fake devices. Device side: the
// fake adb server; nothing here ran on a real device.
#include <catch2/catch.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "backend/adb/config_json.hpp"
#include "scan/scan_manager.hpp"
#include "scan/scan_request.hpp"
#include "scan/technique_table.hpp"
#include "store/store.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"
#include "integration/backend_adb/scan_verdicts.hpp"

using namespace flakescan;
using nlohmann::json;

TEST_CASE("a scan with backend adb on three fake devices gives correct verdicts", "[adb][scan]") {
  WARN("fake adb server: the device path was not run on a real device");
  std::string dir = std::string(FLAKESCAN_BINARY_DIR) + "/adb_it/scan";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/app.apk", std::ios::binary) << test::build_apk("com.example.app");
  std::ofstream(dir + "/test.apk", std::ios::binary) << test::build_apk("com.example.app.test");

  test::FakeAdbServer fake;
  for (auto s : {"emulator-5554", "emulator-5556", "emulator-5558"}) fake.add_device({s});
  std::atomic<int> flaky_runs{0};
  std::atomic<bool> unplugged{false};
  // The first instrumentation waits (up to 5 s) for a second one to start, so that runs
  // overlap whenever the scan runs them in parallel, however fast the fake answers.
  std::mutex pair_mutex;
  std::condition_variable pair_cv;
  int pair_waiting = 0;
  bool paired = false;
  fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    bool listing = cmd.find("-e 'log' 'true'") != std::string::npos;  // the scan's discovery: a dry run
    std::vector<test::ScriptedTest> tests;
    for (const auto& id : test::instrumented_tests(cmd)) {
      auto hash = id.find('#');
      test::ScriptedTest t{id.substr(0, hash), id.substr(hash + 1)};
      bool fails = !listing && (id == "demo.AsyncTest#alwaysFails" || (id == "demo.AsyncTest#flaky" && ++flaky_runs % 4 == 0));
      if (fails) t.code = -2, t.stack = test::assertion_stack(t.cls, t.method, 23);
      tests.push_back(t);
    }
    test::FakeReply r;
    r.out = test::transcript(tests);
    r.chunk = 128;
    if (listing) return r;
    r.before = [&] {
      std::unique_lock lock(pair_mutex);
      if (paired) return;
      if (++pair_waiting >= 2) {
        paired = true;
        pair_cv.notify_all();
        return;
      }
      if (!pair_cv.wait_for(lock, std::chrono::seconds(5), [&] { return paired; })) --pair_waiting;
    };
    // One device is unplugged in the middle of its first run that reports a failure: that
    // failure must not count.
    if (r.out.find("CODE: -2") != std::string::npos && !unplugged.exchange(true))
      r.unplug_after = r.out.find("CODE: -2") + 12;
    return r;
  });

  auto store = store::Store::open(dir + "/flakescan.db");
  REQUIRE(store);
  scan::ScanManagerConfig config;
  config.data_dir = dir + "/data";
  config.backends["adb"] = [](const scan::ScanRequest& r, const std::filesystem::path& work)
      -> util::Result<std::unique_ptr<core::TestExecutor>> {
    return backend::adb::make_adb_executor_from_json(r.adb, work.string());
  };
  scan::ScanManager manager(**store, config);
  json body = {{"backend", "adb"},
               {"tests", {"demo.AsyncTest#flaky", "demo.AsyncTest#stable", "demo.AsyncTest#alwaysFails"}},
               {"techniques", {"rerun"}},
               {"runs", 8},
               {"adb", {{"servers", {fake.address()}}, {"app_apk", dir + "/app.apk"}, {"test_apk", dir + "/test.apk"}}}};
  auto request = scan::parse_scan_request(body, scan::technique_names());
  REQUIRE(request);
  auto submitted = manager.submit(*request);
  REQUIRE(submitted);
  auto verdicts = test::completed_scan_verdicts(manager, submitted->id, std::chrono::seconds(60));
  auto& by_test = verdicts.by_test;
  INFO(verdicts.file);
  REQUIRE(by_test.size() == 3);
  CHECK(by_test["demo.AsyncTest#flaky"]["verdict"] == "flaky");
  CHECK(by_test["demo.AsyncTest#stable"]["verdict"] == "not_flaky");
  CHECK(by_test["demo.AsyncTest#alwaysFails"]["verdict"] == "failing");  // fails every run: broken, not flaky
  CHECK(fake.max_instrumentations_per_device() == 1);
  CHECK(fake.max_parallel_instrumentations() >= 2);
  CHECK(unplugged.load());
  manager.shutdown();
}
