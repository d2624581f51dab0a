// `order` and `nio` through the scan layer: technique table, store, merged verdicts with
// `rerun` in the same scan, and replays of the reproducers.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "jvm_order_fixture.hpp"
#include "scan/scan_manager.hpp"
#include "scan/technique_table.hpp"
#include "support/scan/finished_scan.hpp"
#include "store/store.hpp"

using namespace flakescan;
using namespace flakescan::test_support;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const json& verdict_for(const json& file, const std::string& test) {
  for (const auto& v : file["verdicts"])
    if (v["test"] == test) return v;
  FAIL("no verdict for " << test);
  static json none;
  return none;
}

// The state a scan ends in, once its event log closed (no bound that a slow machine could
// reach: an hour is a safety net against a hung scan).
std::string final_state_of(scan::ScanManager& scans, const std::string& id) {
  auto record = testing::finished_scan(scans, id, std::chrono::hours(1));
  REQUIRE(record);
  return record->state;
}

}  // namespace

TEST_CASE("a scan with rerun, order and nio finds the victim and the NIO test, and both replay",
          "[integration][order][scan]") {
  StateDir state_dir("scan");
  const auto& state = state_dir.path();
  auto store = store::Store::open(state / "flakescan.db");
  REQUIRE(store);
  scan::ScanManagerConfig config;
  config.data_dir = state / "data";
  config.backends["local"] = [state](const scan::ScanRequest& request, const fs::path& work_dir)
      -> util::Result<std::unique_ptr<core::TestExecutor>> {
    auto c = jvm_order_config(work_dir, state);
    c.jvm_args = request.jvm_args;
    return std::make_unique<backend::LocalJvmExecutor>(std::move(c));
  };
  scan::ScanManager scans(**store, std::move(config));

  const std::string stable = "example.order.StableTextTest#trims";
  json body{{"tests", {cleaner, victim, polluter, nio_tests[0], stable}},
            {"classpath", {jvm_order_jar().string()}},
            {"techniques", {"rerun", "order", "nio"}},
            {"runs", 1},
            {"seed", 5u},
            {"parallelism", 2},
            {"budget", {{"max_orders", 3}}},
            {"jvm_args", {"-Dflakescan.example.state=" + state.string()}}};
  auto request = scan::parse_scan_request(body, scan::technique_names());
  INFO((request ? std::string() : util::describe(request.error())));
  REQUIRE(request);
  auto submitted = scans.submit(*request);
  REQUIRE(submitted);
  std::string id = submitted->id;
  REQUIRE(final_state_of(scans, id) == "completed");
  auto file = scans.verdict_file(id);
  REQUIRE(file);

  const json& v = verdict_for(*file, victim);
  INFO(v.dump(2));
  CHECK(v["verdict"] == "flaky");
  CHECK(v["category"] == "order_dependent");
  CHECK(v["evidence"]["role"] == "victim");
  CHECK(v["evidence"]["reproducer"] == json{polluter, victim});
  CHECK(v["evidence"]["passing_order"] == json{victim});

  const json& n = verdict_for(*file, nio_tests[0]);
  INFO(n.dump(2));
  CHECK(n["verdict"] == "flaky");
  CHECK(n["category"] == "nio");
  CHECK(n["evidence"]["reproducer"] == json{nio_tests[0], nio_tests[0]});

  for (const auto& t : {cleaner, polluter, stable}) {
    INFO(t);
    CHECK(verdict_for(*file, t)["verdict"] == "not_flaky");
  }

  for (const auto& t : {victim, nio_tests[0]}) {
    auto replayed = scans.replay(id, json{{"test", t}, {"runs", 2}});
    REQUIRE(replayed);
    INFO(replayed->dump(2));
    CHECK((*replayed)["reproduced"] == true);
    CHECK((*replayed)["failed"] == 2);
  }
  scans.shutdown();
}

TEST_CASE("nio-isolated-class runs a JUnit 4 class twice in one JVM: the class-level NIO test is found and replays",
          "[integration][nio][scan]") {
  // MockRegistryClassNioTest's @BeforeClass refuses to run twice in one JVM. Run twice within
  // one run of the class (isolated-method: t, t) each test passes; only the class run twice
  // shows it (examples/jvm-order/README.md).
  StateDir state_dir("scan-class-nio");
  const auto& state = state_dir.path();
  auto store = store::Store::open(state / "flakescan.db");
  REQUIRE(store);
  scan::ScanManagerConfig config;
  config.data_dir = state / "data";
  config.backends["local"] = [state](const scan::ScanRequest&, const fs::path& work_dir)
      -> util::Result<std::unique_ptr<core::TestExecutor>> {
    return std::make_unique<backend::LocalJvmExecutor>(jvm_order_config(work_dir, state));
  };
  scan::ScanManager scans(**store, std::move(config));
  const std::string reads = "example.order.MockRegistryClassNioTest#readsBalance";
  const std::string writes = "example.order.MockRegistryClassNioTest#writesEntry";
  const std::string stable = "example.order.StableTextTest#trims";

  auto scan_with = [&](const char* technique) {
    json body{{"tests", {reads, writes, stable}}, {"classpath", {jvm_order_jar().string()}}, {"techniques", {technique}},
              {"seed", 5u}, {"parallelism", 2}};
    auto request = scan::parse_scan_request(body, scan::technique_names());
    REQUIRE(request);
    auto submitted = scans.submit(*request);
    REQUIRE(submitted);
    REQUIRE(final_state_of(scans, submitted->id) == "completed");
    return submitted->id;
  };

  // Within one run of the class the tests pass every time: isolated-method cannot see it.
  std::string method_scan = scan_with("nio-isolated-method");
  auto method_file = scans.verdict_file(method_scan);
  REQUIRE(method_file);
  for (const auto& t : {reads, writes}) {
    INFO(verdict_for(*method_file, t).dump(2));
    CHECK(verdict_for(*method_file, t)["verdict"] == "not_flaky");
  }

  std::string class_scan = scan_with("nio-isolated-class");
  auto file = scans.verdict_file(class_scan);
  REQUIRE(file);
  for (const auto& t : {reads, writes}) {
    const json& v = verdict_for(*file, t);
    INFO(v.dump(2));
    CHECK(v["verdict"] == "flaky");
    CHECK(v["category"] == "nio");
    CHECK(v["evidence"]["reproducer"] == json{t, t});
    CHECK(v["evidence"]["details"]["mode"] == "isolated-class");
    CHECK(v["evidence"]["details"]["class_run_starts"] == "1");
    CHECK_THAT(v["evidence"]["reason"].get<std::string>(), Catch::Contains("the class runs a second time"));
    CHECK_THAT(v["evidence"]["failing_run"]["message"].get<std::string>(), Catch::Contains("a mock with name ledger already exists"));
  }
  CHECK(verdict_for(*file, stable)["verdict"] == "not_flaky");

  // The replay runs t, then t in a new run of its class, and the failure comes back each time.
  auto replayed = scans.replay(class_scan, json{{"test", reads}, {"runs", 2}});
  REQUIRE(replayed);
  INFO(replayed->dump(2));
  CHECK((*replayed)["reproduced"] == true);
  CHECK((*replayed)["failed"] == 2);
  scans.shutdown();
}
