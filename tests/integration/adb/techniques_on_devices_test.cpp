// Techniques over the device executor: rerun (and order/NIO when that layer is built) on
// three fake devices, with a RunLog that keeps runs in memory. Device side: the fake adb
// server; nothing here ran on a real device.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "backend/adb/executor.hpp"
#include "rerun/rerun.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"
#ifdef FLAKESCAN_HAVE_ORDER
#include "order/techniques.hpp"
#endif

using namespace flakescan;
using std::chrono::milliseconds;

namespace {

class MemoryRunLog final : public core::RunLog {
 public:
  explicit MemoryRunLog(core::TestExecutor& exec) : exec_(exec) {}
  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    auto r = exec_.run(spec, cancel_);
    if (!r) return std::unexpected(r.error());
    std::lock_guard lock(mutex_);
    runs_.push_back({next_++, spec, *r});
    return runs_.back();
  }
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override {
    std::vector<util::Result<core::RecordedRun>> out(specs.size(), util::fail(util::Errc::internal, "not run"));
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    for (int w = 0; w < parallelism(); ++w)
      workers.emplace_back([&] {
        for (std::size_t i; (i = next++) < specs.size();) out[i] = run(specs[i]);
      });
    for (auto& t : workers) t.join();
    std::vector<core::RecordedRun> done;
    for (auto& r : out) {
      if (!r) return std::unexpected(r.error());
      done.push_back(*r);
    }
    return done;
  }
  int parallelism() const override { return exec_.parallelism(); }
  bool cancelled() const override { return false; }
  void plan(int) override {}

 private:
  core::TestExecutor& exec_;
  core::CancelFlag cancel_{false};
  std::mutex mutex_;
  std::int64_t next_ = 1;
  std::vector<core::RecordedRun> runs_;
};

std::unique_ptr<backend::adb::AdbExecutor> executor_for(test::FakeAdbServer& fake, const std::string& name) {
  std::string dir = std::string(FLAKESCAN_BINARY_DIR) + "/adb_it/" + name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/app.apk", std::ios::binary) << test::build_apk("com.example.app");
  std::ofstream(dir + "/test.apk", std::ios::binary) << test::build_apk("com.example.app.test");
  backend::adb::AdbBackendConfig config;
  config.servers = {*adb::ServerAddress::parse(fake.address())};
  config.app_apk = dir + "/app.apk";
  config.test_apk = dir + "/test.apk";
  auto e = backend::adb::make_adb_executor(config);
  REQUIRE(e);
  return std::move(*e);
}

test::FakeReply reply_for(const std::string& command, const std::function<bool(const std::string&)>& fails) {
  std::vector<test::ScriptedTest> tests;
  for (const auto& id : test::instrumented_tests(command)) {
    auto hash = id.find('#');
    test::ScriptedTest t{id.substr(0, hash), id.substr(hash + 1)};
    if (fails(id)) t.code = -2, t.stack = test::assertion_stack(t.cls, t.method, 17);
    tests.push_back(t);
  }
  test::FakeReply r;
  r.out = test::transcript(tests);
  return r;
}

}  // namespace

TEST_CASE("rerun on three devices: a flaky test gets a flaky verdict with device runs as evidence", "[adb][techniques]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  for (auto s : {"emulator-5554", "emulator-5556", "emulator-5558"}) fake.add_device({s});
  std::atomic<int> flaky_runs{0};
  fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    // demo.AsyncTest#flaky fails on every third run of it, deterministically.
    return reply_for(cmd, [&](const std::string& id) { return id == "demo.AsyncTest#flaky" && ++flaky_runs % 3 == 0; });
  });
  auto exec = executor_for(fake, "rerun");
  MemoryRunLog log(*exec);
  core::TechniqueInput input;
  input.tests = {"demo.AsyncTest#flaky", "demo.AsyncTest#stable"};
  input.budget.runs_per_test = 6;
  auto verdicts = rerun::run_rerun(input, log);
  REQUIRE(verdicts);
  REQUIRE(verdicts->size() == 2);
  for (const auto& v : *verdicts) {
    INFO(v.test);
    if (v.test == "demo.AsyncTest#flaky") {
      CHECK(v.verdict == core::VerdictKind::flaky);
      CHECK(v.runs.failed == 2);
      CHECK(v.runs.passed == 4);
      CHECK(v.evidence.failing_run.has_value());
      CHECK(v.evidence.passing_run.has_value());
    } else {
      CHECK(v.verdict == core::VerdictKind::not_flaky);
      CHECK(v.runs.passed == 6);
    }
  }
  CHECK(fake.max_instrumentations_per_device() == 1);
}

#ifdef FLAKESCAN_HAVE_ORDER
TEST_CASE("NIO on a device: app data that survives the instrumentation makes the second run fail", "[adb][techniques]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  // Per device "app data": demo.PrefsTest#writesOnce fails when its marker is already there.
  std::mutex m;
  std::set<std::string> marked;
  fake.on_shell([&](const std::string& serial, const std::string& cmd) -> std::optional<test::FakeReply> {
    std::lock_guard lock(m);
    if (cmd.starts_with("pm clear")) marked.erase(serial);
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    return reply_for(cmd, [&](const std::string& id) {
      if (id != "demo.PrefsTest#writesOnce") return false;
      return !marked.insert(serial).second;
    });
  });
  auto exec = executor_for(fake, "nio");
  MemoryRunLog log(*exec);
  core::TechniqueInput input;
  input.tests = {"demo.PrefsTest#writesOnce", "demo.PrefsTest#pure"};
  auto verdicts = order::detect_nio(input, log, order::NioMode::isolated_method);
  REQUIRE(verdicts);
  bool found = false;
  for (const auto& v : *verdicts)
    if (v.test == "demo.PrefsTest#writesOnce") {
      found = true;
      CHECK(v.verdict == core::VerdictKind::flaky);
      CHECK(v.category == core::Category::nio);
    }
  CHECK(found);
}
#endif
