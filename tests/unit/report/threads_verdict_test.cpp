// A concurrency verdict of technique `threads` (tests/fixtures/report/verdicts_threads.json,
// in the shape threads/threads_technique.hpp writes) gets through every output like any flaky
// verdict: SARIF, annotations, the job summary, the quarantine lists (the Gradle plugin's
// excludes among them), with its schedule details kept.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report_fixture.hpp"

using namespace flakescan;
using namespace flakescan::report;

namespace {
const std::string flaky_test = "com.example.CounterTest#asyncIncrementIsVisible";
}

TEST_CASE("a threads verdict keeps its schedule details through the verdict file", "[report][threads]") {
  auto file = load_verdict_file((testing::fixture_dir() / "verdicts_threads.json").string());
  REQUIRE(file);
  REQUIRE(file->entries.size() == 2);
  const auto& v = file->entries[0].verdict;
  CHECK(v.technique == "threads");
  CHECK(v.category == core::Category::concurrency);
  for (const char* key : {"strategy", "seed", "virtual_time", "exact", "schedule_failing", "schedule_passing", "conflict", "replayed"})
    CHECK(v.evidence.details.contains(key));
  CHECK(nlohmann::json::parse(v.evidence.details.at("conflict"))["first"]["op"] == "field_read");
}

TEST_CASE("a threads verdict is a located concurrency result in SARIF", "[report][threads][sarif]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_threads.json", locator);
  auto log = nlohmann::json::parse(render_sarif(r));
  const auto& results = log["runs"][0]["results"];
  REQUIRE(results.size() == 1);  // the not-flaky test is no finding
  const auto& res = results[0];
  CHECK(res["ruleId"] == "flakescan/flaky/concurrency");
  CHECK(res["partialFingerprints"]["flakescanTest/v1"] == flaky_test);
  CHECK(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/test/java/com/example/CounterTest.java");
  CHECK(res["locations"][0]["physicalLocation"]["region"]["startLine"] == 17);
  CHECK(res["message"]["text"].get<std::string>().find("field_read com.example.Counter.count@o1") != std::string::npos);
}

TEST_CASE("a threads verdict is annotated, summarised and quarantined", "[report][threads][quarantine]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_threads.json", locator);
  auto annotations = render_annotations(r);
  CHECK(annotations.find("Flaky test " + flaky_test) != std::string::npos);
  CHECK(annotations.find("file=src/test/java/com/example/CounterTest.java,line=17") != std::string::npos);
  CHECK(render_summary(r).find(flaky_test) != std::string::npos);
  CHECK(render_quarantine_txt(r) == flaky_test + "\n");
  auto gradle = render_quarantine_gradle(r);
  CHECK(gradle.find("'com.example.CounterTest.asyncIncrementIsVisible',") != std::string::npos);
  CHECK(gradle.find("incrementsOnce") == std::string::npos);
}
