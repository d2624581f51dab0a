// Techniques over the device executor: rerun (and order/NIO when that layer is built) on
// three fake devices, with a RunLog that keeps runs in memory. Device side: the fake adb
// server; nothing here ran on a real device.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "backend/adb/adb_executor.hpp"
#include "rerun/rerun.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"
#ifdef FLAKESCAN_HAVE_ORDER
#include "order/order_and_nio.hpp"
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

std::unique_ptr<backend::adb::AdbExecutor> executor_for(test::FakeAdbServer& fake, const std::string& name,
                                                        bool clear_state = false) {
  std::string dir = std::string(FLAKESCAN_BINARY_DIR) + "/adb_it/" + name;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/app.apk", std::ios::binary) << test::build_apk("com.example.app");
  std::ofstream(dir + "/test.apk", std::ios::binary) << test::build_apk("com.example.app.test");
  backend::adb::AdbBackendConfig config;
  config.servers = {*adb_protocol::ServerAddress::parse(fake.address())};
  config.app_apk = dir + "/app.apk";
  config.test_apk = dir + "/test.apk";
  config.clear_state = clear_state;
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
  // Every run starts from cleared app data (`--clear-state`), as a fresh JVM does locally: the
  // NIO check's confirmation runs need the first execution of each to start clean.
  auto exec = executor_for(fake, "nio", true);
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

namespace {

// A stand-in for AndroidJUnitRunner's ordering: classes in the order first listed, each
// class's methods together in a fixed order of their own (names descending), whatever
// order the `-e class` list gives. One instrumentation is one process: `static` state
// (here: a set of flags) lives exactly as long as it.
std::vector<std::string> runner_order(std::vector<std::string> ids) {
  std::vector<std::string> classes;
  for (const auto& id : ids)
    if (std::find(classes.begin(), classes.end(), id.substr(0, id.find('#'))) == classes.end())
      classes.push_back(id.substr(0, id.find('#')));
  std::vector<std::string> out;
  for (const auto& cls : classes) {
    std::vector<std::string> methods;
    for (const auto& id : ids)
      if (id.substr(0, id.find('#')) == cls) methods.push_back(id);
    std::sort(methods.rbegin(), methods.rend());
    out.insert(out.end(), methods.begin(), methods.end());
  }
  return out;
}

}  // namespace

TEST_CASE("order on a device: runs keep the requested order although the runner picks its own", "[adb][techniques]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  // demo.CacheTest#zetaFills fills a static cache; demo.CacheTest#alphaExpectsEmpty and
  // demo.ViewTest#expectsEmpty fail when it is filled in their process.
  std::mutex m;
  std::vector<std::vector<std::string>> executed;
  fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    auto order = runner_order(test::instrumented_tests(cmd));
    bool listing = cmd.find("-e 'log' 'true'") != std::string::npos;
    std::vector<test::ScriptedTest> tests;
    bool filled = false;
    for (const auto& id : order) {
      test::ScriptedTest t{id.substr(0, id.find('#')), id.substr(id.find('#') + 1)};
      if (!listing && filled && (id == "demo.CacheTest#alphaExpectsEmpty" || id == "demo.ViewTest#expectsEmpty"))
        t.code = -2, t.stack = test::assertion_stack(t.cls, t.method, 31);
      filled = filled || id == "demo.CacheTest#zetaFills";
      tests.push_back(t);
    }
    std::lock_guard lock(m);
    if (!listing) executed.push_back(order);
    test::FakeReply r;
    r.out = test::transcript(tests);
    return r;
  });
  auto exec = executor_for(fake, "order");
  core::CancelFlag cancel{false};

  SECTION("a run asked against the runner's method order becomes two processes, in the asked order") {
    core::RunSpec spec;
    spec.tests = {"demo.CacheTest#alphaExpectsEmpty", "demo.CacheTest#zetaFills"};
    auto report = exec->run(spec, cancel);
    REQUIRE(report);
    REQUIRE(report->results.size() == 2);
    CHECK(report->results[0].outcome == core::Outcome::pass);  // zetaFills did not run before it
    CHECK(report->results[1].outcome == core::Outcome::pass);
    // The first pass let the runner reorder (the order was not known yet); it was not
    // reported, and the run was made again as two instrumentations in the asked order.
    REQUIRE(executed.size() == 3);
    CHECK(executed[1] == std::vector<std::string>{"demo.CacheTest#alphaExpectsEmpty"});
    CHECK(executed[2] == std::vector<std::string>{"demo.CacheTest#zetaFills"});
    executed.clear();
    // Now the order is known: no wasted pass.
    auto again = exec->run(spec, cancel);
    REQUIRE(again);
    CHECK(executed.size() == 2);
    executed.clear();
    spec.tests = {"demo.CacheTest#zetaFills", "demo.CacheTest#alphaExpectsEmpty"};
    auto polluted = exec->run(spec, cancel);
    REQUIRE(polluted);
    CHECK(polluted->results[1].outcome == core::Outcome::fail);
    CHECK(executed.size() == 1);  // one process: the runner's own order
  }

  SECTION("the order technique finds both victims with the right polluter") {
    MemoryRunLog log(*exec);
    core::TechniqueInput input;
    input.tests = {"demo.ViewTest#expectsEmpty", "demo.CacheTest#alphaExpectsEmpty", "demo.CacheTest#zetaFills",
                   "demo.CacheTest#middlePure"};
    input.seed = 7;
    auto verdicts = order::detect_order_dependent(input, log);
    REQUIRE(verdicts);
    std::map<std::string, core::Verdict> by_test;
    for (const auto& v : *verdicts) by_test[v.test] = v;
    for (auto victim : {"demo.ViewTest#expectsEmpty", "demo.CacheTest#alphaExpectsEmpty"}) {
      INFO(victim);
      REQUIRE(by_test.count(victim));
      CHECK(by_test[victim].verdict == core::VerdictKind::flaky);
      CHECK(by_test[victim].category == core::Category::order_dependent);
      CHECK(by_test[victim].evidence.details["polluters"] == "demo.CacheTest#zetaFills");
    }
    CHECK(by_test["demo.CacheTest#middlePure"].verdict == core::VerdictKind::not_flaky);
    CHECK(by_test["demo.CacheTest#zetaFills"].verdict == core::VerdictKind::not_flaky);
  }
}
#endif
