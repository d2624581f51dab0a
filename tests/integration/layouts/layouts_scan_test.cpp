// Every technique on examples/jvm-layouts through the scan layer (issue 12, real layouts):
// rerun, order and nio together, suite over the whole example, and explore on the Android-style
// example unpacked into a class directory; all on class directories. Verdicts are asserted per test as the example's README lists them.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "layouts_fixture.hpp"
#include "scan/scan_manager.hpp"
#include "scan/technique_table.hpp"
#include "store/store.hpp"

using namespace flakescan;
using namespace flakescan::test_support::layouts;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Runs one scan of `body` (classpath added) to its end in a ScanManager of its own.
json run_scan(const std::string& name, json body, std::vector<std::string> cp = classpath()) {
  WorkDir dir(name);
  auto store = store::Store::open(dir.path() / "flakescan.db");
  REQUIRE(store);
  scan::ScanManagerConfig config;
  config.data_dir = dir.path() / "data";
  config.backends["local"] = [](const scan::ScanRequest& request, const fs::path& work_dir)
      -> util::Result<std::unique_ptr<core::TestExecutor>> {
    auto c = test_support::layouts::config(work_dir);
    c.classpath = request.classpath;
    return std::make_unique<backend::LocalJvmExecutor>(std::move(c));
  };
  scan::ScanManager scans(**store, std::move(config));
  body["classpath"] = cp;
  auto request = scan::parse_scan_request(body, scan::technique_names());
  INFO((request ? std::string() : util::describe(request.error())));
  REQUIRE(request);
  auto submitted = scans.submit(*request);
  REQUIRE(submitted);
  std::string state;
  for (int i = 0; i < 1500; ++i) {  // a safety net against a hung scan, not a timing assertion
    auto record = scans.get(submitted->id);
    REQUIRE(record);
    state = record->state;
    if (state != "queued" && state != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  REQUIRE(state == "completed");
  auto file = scans.verdict_file(submitted->id);
  REQUIRE(file);
  scans.shutdown();
  return *file;
}

const json& verdict_for(const json& file, const std::string& test) {
  for (const auto& v : file["verdicts"])
    if (v["test"] == test) return v;
  FAIL("no verdict for " << test);
  static json none;
  return none;
}

bool has_category(const json& v, const std::string& category) {
  for (const auto& c : v.value("categories", json::array()))
    if (c == category) return true;
  return false;
}

void check_victim(const json& v) {
  INFO(v.dump(2));
  CHECK(v["verdict"] == "flaky");
  CHECK(has_category(v, "order_dependent"));
  CHECK(v["evidence"]["reproducer"] == json{polluter, victim});
  bool named_case = false;  // the failure names the parameter case that failed
  for (const auto& f : v["evidence"]["failures"])
    if (f["message"].get<std::string>().starts_with("[2] FR, 7: ")) named_case = true;
  CHECK(named_case);
}

void check_nio(const json& v) {
  INFO(v.dump(2));
  CHECK(v["verdict"] == "flaky");
  CHECK(has_category(v, "nio"));
}

void check_exits(const json& v) {
  INFO(v.dump(2));
  CHECK(v["verdict"] == "could_not_run");
  CHECK(v["evidence"]["reason"].get<std::string>().find(exit_message) != std::string::npos);
}

void check_failing_before_class(const json& v) {
  INFO(v.dump(2));
  CHECK(v["verdict"] == "failing");
  REQUIRE(v["evidence"]["failures"].size() == 1);
  CHECK(v["evidence"]["failures"][0]["exception"] == "java.lang.IllegalStateException");
}

}  // namespace

TEST_CASE("jvm-layouts: rerun, order and nio on class directories: the parameterised victim with its polluter, the @Nested "
          "NIO test, and clear verdicts for the rest",
          "[integration][layouts][scan]") {
  // The victim before its polluter, so the original order passes and the reverse fails.
  json file = run_scan("rerun-order-nio",
                   {{"tests", {victim, nested_nio, stable, resource, before_class_fails, exits, disabled, polluter}},
                    {"techniques", {"rerun", "order", "nio"}},
                    {"runs", 1},
                    {"seed", 3u},
                    {"parallelism", 2},
                    {"budget", {{"max_orders", 3}}}});
  const json& v = verdict_for(file, victim);
  check_victim(v);
  CHECK(v["category"] == "order_dependent");
  CHECK(v["evidence"]["role"] == "victim");
  CHECK(v["evidence"]["passing_order"] == json{victim});
  check_nio(verdict_for(file, nested_nio));
  for (const auto& t : {stable, resource, polluter}) {
    INFO(verdict_for(file, t).dump(2));
    CHECK(verdict_for(file, t)["verdict"] == "not_flaky");
  }
  check_failing_before_class(verdict_for(file, before_class_fails));
  check_exits(verdict_for(file, exits));
  const json& d = verdict_for(file, disabled);
  INFO(d.dump(2));
  // @Disabled: skipped (it ran and said it does not apply), not a scan that could not run it.
  CHECK(d["verdict"] == "skipped");
  CHECK(d["evidence"]["reason"].get<std::string>().find("@Disabled") != std::string::npos);
  CHECK(d["evidence"]["reason"].get<std::string>().find("waits for the tax service") != std::string::npos);
  // Every technique's finding says why, not only rerun's.
  for (const auto& [test, said] : {std::pair{exits, exit_message}, std::pair{disabled, std::string("waits for the tax service")}}) {
    const json& x = verdict_for(file, test);
    INFO(x.dump(2));
    REQUIRE(x["findings"].size() == 3);
    for (const auto& f : x["findings"]) CHECK(f["reason"].get<std::string>().find(said) != std::string::npos);
  }
}

TEST_CASE("jvm-layouts: suite over the whole example: rounds continue after System.exit, the victim and the NIO test are found",
          "[integration][layouts][scan]") {
  // Every test class, as scripts/scan-examples lists them (sorted): HolidaySurchargeTest runs
  // before ShippingCostTest in the original order, so round 1 fails the victim, round 2 passes it.
  std::vector<std::string> classes;
  for (const char* c : {"BackgroundWorkerTest", "CartTest", "CatalogueResourceTest", "ChattyReportTest",
                        "DiscountRuleTest", "ExitingTest", "HolidaySurchargeTest", "LegacyDatabaseTest", "MoneyTest",
                        "ReceiptTest", "ShippingCostTest"})
    classes.push_back(pkg + c);
  json file = run_scan("suite", {{"tests", classes}, {"techniques", {"suite"}}, {"runs", 3}, {"seed", 3u}, {"parallelism", 2}});
  check_victim(verdict_for(file, victim));
  check_nio(verdict_for(file, nested_nio));
  check_exits(verdict_for(file, exits));
  check_failing_before_class(verdict_for(file, before_class_fails));
  for (const auto& t : {stable, resource, polluter, nested_stable, dynamic, repeated, junit4_parameterized, chatty,
                        leaks_thread}) {
    INFO(verdict_for(file, t).dump(2));
    CHECK(verdict_for(file, t)["verdict"] == "not_flaky");
  }
  CHECK(verdict_for(file, disabled)["verdict"] == "skipped");
}

TEST_CASE("jvm-layouts: explore on class directories: the async-wait race of an Android-style test is found",
          "[integration][layouts][scan]") {
  // examples/jvm-layouts is plain JVM code, which posts nothing to a main looper: explore has
  // nothing to reorder there. So the Android-style example is laid out as Gradle lays out
  // unit tests, its classes unpacked into build/classes/java/test, next to the fixture's jar.
  WorkDir project("android-project");
  fs::path classes = project.path() / "build/classes/java/test";
  fs::create_directories(classes);
  fs::path jar = fs::path(FLAKESCAN_BINARY_DIR) / "examples/android-style.jar";
  std::string unpack = "cd '" + classes.string() + "' && jar xf '" + jar.string() + "' && rm -rf META-INF";
  REQUIRE(std::system(unpack.c_str()) == 0);
  REQUIRE(fs::exists(classes / "demo/android/AsyncWaitTest.class"));
  std::vector<std::string> cp{classes.string()};
  std::ifstream in(fs::path(FLAKESCAN_BINARY_DIR) / "examples/android-style.classpath");
  std::string line;
  std::getline(in, line);
  std::stringstream parts(line);
  for (std::string p; std::getline(parts, p, ':');)
    if (!p.empty() && !p.ends_with("/android-style.jar")) cp.push_back(p);

  const std::string test = "demo.android.AsyncWaitTest#forecastShownAfterRefresh";
  json file = run_scan("explore", {{"tests", {test}}, {"techniques", {"explore"}}, {"parallelism", 1}}, cp);
  const json& v = verdict_for(file, test);
  INFO(v.dump(2));
  CHECK(v["verdict"] == "flaky");
  CHECK(v["category"] == "concurrency");
  // The default strategy, maxdiff: the order it ran is in the verdict for replay.
  CHECK(v["evidence"]["details"]["strategy"] == "maxdiff");
  CHECK_FALSE(v["evidence"]["details"]["placements"].get<std::string>().empty());
}
