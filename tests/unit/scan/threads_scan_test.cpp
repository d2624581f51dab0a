// Technique `threads` through the scan layer, without JVMs: the scan manager runs it from the
// technique table against an executor that answers each scheduled run with a recorded runner
// line (tests/fixtures/threads/), stores the runs with their schedules, writes the verdict, and
// replays the failing schedule from the stored verdict, saying it was followed exactly.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/signature.hpp"
#include "scan/scan_manager.hpp"
#include "support/scan/finished_scan.hpp"
#include "scan/technique_table.hpp"
#include "threads/schedule_record.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace threads_scan_test {

const std::string counter_test = "example.threads.CounterTest#counts";

// The finished line of a recorded stream, as the local backend would read it.
core::TestResult recorded_result(const std::string& name) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/threads/" + name);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j["event"] != "finished") continue;
    core::TestResult r{.test = j["test"], .outcome = *core::parse_outcome(j["outcome"].get<std::string>()),
                       .message = j.value("message", ""), .exception_type = j.value("exception", ""), .stack = j.value("stack", "")};
    if (core::is_failure(r.outcome)) r.signature = core::failure_signature(r.exception_type, r.stack, r.test);
    r.threads = threads::schedule_record_or_error(j["threads"].dump());
    return r;
  }
  FAIL("no finished line in " << name);
  return {};
}

// Scheduled runs: the second schedule loses the update, the others pass, a replay fails again.
class RecordedExecutor final : public core::TestExecutor {
 public:
  std::atomic<int> schedules{0};
  std::atomic<int> unscheduled{0};

  util::Result<Discovery> discover(const std::vector<core::TestId>& ids, const core::CancelFlag&) override {
    Discovery d;
    for (const auto& id : ids) d.tests.push_back(id.str());
    return d;
  }
  util::Result<core::RunReport> run(const core::RunSpec& spec, const core::CancelFlag&) override {
    if (!spec.schedule) {
      ++unscheduled;
      return util::fail(util::Errc::unsupported, "this executor makes scheduled runs only");
    }
    core::RunReport report;
    const bool replay = spec.schedule->strategy == "replay";
    const int n = replay ? -1 : ++schedules;
    report.results.push_back(recorded_result(replay ? "counter-replay-fail.results" : n == 2 ? "counter-fail.results" : "counter-pass.results"));
    return report;
  }
  int parallelism() const override { return 2; }
};

struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("flakescan-threads-scan-test-" + std::to_string(getpid()));
  std::unique_ptr<store::Store> store;
  std::unique_ptr<scan::ScanManager> manager;

  Fixture() {
    fs::remove_all(dir);
    store = store::Store::open(dir / "store.db").value();
    scan::ScanManagerConfig config;
    config.data_dir = dir;
    config.backends["local"] = [](const scan::ScanRequest&, const fs::path&) -> util::Result<std::unique_ptr<core::TestExecutor>> {
      return std::make_unique<RecordedExecutor>();
    };
    manager = std::make_unique<scan::ScanManager>(*store, config);
  }
  ~Fixture() {
    manager->shutdown();
    fs::remove_all(dir);
  }

  store::ScanRecord wait(const std::string& id) {
    auto record = testing::finished_scan(*manager, id);
    if (!record) FAIL(record.error().message);
    return *record;
  }
};

}  // namespace threads_scan_test



TEST_CASE("a threads scan stores its schedules, decides concurrency, and replays the failing schedule exactly", "[scan][threads]") {
  threads_scan_test::Fixture f;
  json body{{"classpath", "/tmp"}, {"tests", json::array({threads_scan_test::counter_test})}, {"techniques", "threads"}, {"seed", 9u},
            {"threads", {{"strategy", "pos"}, {"schedules", 10}}}};
  auto submitted = f.manager->submit(scan::parse_scan_request(body, scan::technique_names()).value());
  REQUIRE(submitted);
  auto done = f.wait(submitted->id);
  REQUIRE(done.state == "completed");

  auto runs = f.store->runs_of_scan(submitted->id).value();
  REQUIRE(runs.size() == 3);  // two schedules, then the replay
  for (const auto& r : runs) {
    REQUIRE(r.spec.schedule);
    REQUIRE(r.report.results.size() == 1);
    REQUIRE(r.report.results[0].threads);
    CHECK(r.report.results[0].threads->record_error.empty());
  }
  CHECK(runs[0].spec.schedule->strategy == "pos");
  CHECK(runs[2].spec.schedule->strategy == "replay");
  CHECK(runs[2].spec.schedule->replay_decisions == runs[1].report.results[0].threads->decisions);

  auto file = f.manager->verdict_file(submitted->id).value();
  REQUIRE(file["verdicts"].size() == 1);
  const auto& v = file["verdicts"][0];
  INFO(v.dump(2));
  CHECK(v["verdict"] == "flaky");
  CHECK(v["category"] == "concurrency");
  CHECK(v["technique"] == "threads");
  CHECK(v["evidence"]["failing_run"]["id"] == runs[1].id);
  CHECK(v["evidence"]["passing_run"]["id"] == runs[0].id);
  const auto& d = v["evidence"]["details"];
  CHECK(d["strategy"] == "pos");
  CHECK(d["replayed"] == "true");
  CHECK(json::parse(d["conflict"].get<std::string>())["second"]["op"] == "field_write");

  auto replay = f.manager->replay(submitted->id, {{"test", threads_scan_test::counter_test}, {"runs", 2}});
  REQUIRE(replay);
  INFO(replay->dump(2));
  CHECK((*replay)["reproduced"] == true);
  CHECK((*replay)["schedule_followed"] == true);
  REQUIRE((*replay)["runs"].size() == 2);
  for (const auto& r : (*replay)["runs"]) {
    CHECK(r["outcome"] == "fail");
    CHECK(r["same_failure"] == true);
    CHECK(r["schedule"]["followed"] == 11);
    CHECK(r["schedule"]["diverged_at"].is_null());
  }
  auto after = f.store->runs_of_scan(submitted->id).value();
  REQUIRE(after.size() == 5);
  CHECK(after[3].spec.technique == "replay");
  CHECK(after[3].spec.schedule->replay_decisions == runs[1].report.results[0].threads->decisions);
}
