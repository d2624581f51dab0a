#include <catch2/catch.hpp>

#include "support/text.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "report/text.hpp"
#include "report_fixture.hpp"

using namespace flakescan;
using namespace flakescan::report;
namespace fs = std::filesystem;

namespace {

using flakescan::text_checks::count_of;
Report one_flaky(const std::string& test, const std::string& stack) {
  Report r;
  r.scan.id = "s";
  r.scan.state = "completed";
  LocatedEntry le;
  le.entry.verdict.test = test;
  le.entry.verdict.verdict = core::VerdictKind::flaky;
  le.entry.verdict.runs = {4, 3, 1, 0, 0};
  le.entry.class_name = test.substr(0, test.find('#'));
  le.entry.method = test.substr(test.find('#') + 1);
  RunDetail fail;
  fail.id = 2;
  fail.outcome = "fail";
  fail.stack = stack;
  le.entry.failing_run = fail;
  r.entries.push_back(le);
  return r;
}

}  // namespace

TEST_CASE("annotations sit on the test's file and line with the run counts", "[report][github]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  auto text = render_annotations(r);
  CHECK(text.find("::warning file=src/test/java/com/example/CounterTest.java,line=17,title=Flaky test "
                  "com.example.CounterTest#asyncIncrementIsVisible%3A 3 out of 10 runs failed::") != std::string::npos);
  CHECK(text.find("::notice file=src/test/java/com/example/CounterTest.java,line=24,title=flakescan could not run") !=
        std::string::npos);
  // Not-flaky tests get no annotation; a class without sources gets one without a file.
  CHECK(text.find("incrementsOnce") == std::string::npos);
  CHECK(text.find("::warning title=Flaky test com.example.Missing#gone") != std::string::npos);
  // One command per line: multi-line messages are escaped.
  CHECK(count_of(text, "\n") == count_of(text, "::warning") + count_of(text, "::notice"));
}

TEST_CASE("annotation titles are cut at 255 bytes and messages at 65535", "[report][github]") {
  const std::string long_test = "a.B#" + std::string(400, 'm');
  auto text = render_annotations(one_flaky(long_test, std::string(100000, 's')));
  // std::regex recurses per character: split by hand.
  const auto title_at = text.find("title=");
  REQUIRE(title_at != std::string::npos);
  const auto sep = text.find("::", title_at);
  REQUIRE(sep != std::string::npos);
  const std::string title = text.substr(title_at + 6, sep - title_at - 6);
  const std::string message = text.substr(sep + 2, text.find('\n', sep) - sep - 2);
  CHECK(title.size() <= 255);
  CHECK(title.ends_with("..."));
  CHECK(message.size() <= 65535);
  CHECK(message.size() > 60000);
}

TEST_CASE("SARIF is a 2.1.0 log with one located result per finding", "[report][sarif]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  auto log = nlohmann::json::parse(render_sarif(r));
  CHECK(log["version"] == "2.1.0");
  const auto& run = log["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "flakescan");
  const auto& results = run["results"];
  // 7 flaky + 1 failing-every-run + 1 could-not-run; not-flaky tests are no findings.
  REQUIRE(results.size() == 9);
  const auto& rules = run["tool"]["driver"]["rules"];
  for (const auto& res : results) CHECK(rules[res["ruleIndex"].get<int>()]["id"] == res["ruleId"]);
  CHECK(results[0]["ruleId"] == "flakescan/flaky/concurrency");
  CHECK(results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "src/test/java/com/example/CounterTest.java");
  CHECK(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 17);
  CHECK(results[1]["ruleId"] == "flakescan/flaky/order-dependent");
  CHECK(results[1]["properties"]["reproducer"].size() == 2);
  CHECK(results[2]["ruleId"] == "flakescan/flaky/nio");
  // One category does not hide another: the order-dependent test is also NIO, and every
  // technique's finding is in the result's properties.
  CHECK(results[1]["properties"]["categories"] == nlohmann::json::array({"order_dependent", "nio"}));
  CHECK(results[1]["properties"]["findings"].size() == 3);
  auto broken = std::find_if(results.begin(), results.end(), [](const auto& x) {
    return x["partialFingerprints"]["flakescanTest/v1"] == "com.example.cache.CacheTest#storesValue";
  });
  REQUIRE(broken != results.end());
  CHECK((*broken)["ruleId"] == "flakescan/failing");
  auto missing = std::find_if(results.begin(), results.end(), [](const auto& x) {
    return x["partialFingerprints"]["flakescanTest/v1"] == "com.example.Missing#gone";
  });
  REQUIRE(missing != results.end());
  CHECK_FALSE((*missing)["locations"][0].contains("physicalLocation"));
}

TEST_CASE("JUnit XML marks flaky runs the way Surefire does", "[report][junit]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  auto files = render_junit(r);
  REQUIRE(files.count("TEST-com.example.CounterTest.xml"));
  REQUIRE(files.count("TEST-com.example.CounterTest$Nested.xml"));
  const auto& counter = files["TEST-com.example.CounterTest.xml"];
  // The flaky test passed in the end: three flakyFailure elements and no failure.
  CHECK(count_of(counter, "<flakyFailure ") == 3);
  CHECK(counter.find("<failure") == std::string::npos);
  CHECK(counter.find("<stackTrace>java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;0&gt;") != std::string::npos);
  CHECK(counter.find("<skipped message=\"Every run hit the 120 s deadline.\"/>") != std::string::npos);
  CHECK(counter.find("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"2\" flakes=\"1\"") != std::string::npos);
  const auto& cache = files["TEST-com.example.cache.CacheTest.xml"];
  // A run that ended in an exception other than an assertion is a flakyError.
  CHECK(count_of(cache, "<flakyError ") == 1);
  // storesValue failed every time: one failure, then rerunFailure for the other two runs.
  CHECK(count_of(cache, "<failure ") == 1);
  CHECK(count_of(cache, "<rerunFailure ") == 2);
  CHECK(cache.find("failures=\"1\"") != std::string::npos);
}

TEST_CASE("quarantine lists hold each flaky method once", "[report][quarantine]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  CHECK(render_quarantine_txt(r) ==
        "com.example.ClockTest#ticks within a second\n"
        "com.example.CounterTest#asyncIncrementIsVisible\n"
        "com.example.Missing#gone\n"
        "com.example.cache.CacheTest#acceptsSizes\n"
        "com.example.cache.CacheTest#startsEmpty\n"
        "com.example.cache.CacheTest#survivesTwoRuns\n");
  auto gradle = render_quarantine_gradle(r);
  CHECK(gradle.find("'com.example.cache.CacheTest.acceptsSizes[*',") != std::string::npos);
  CHECK(gradle.find("'com.example.CounterTest.asyncIncrementIsVisible',") != std::string::npos);
  CHECK(gradle.find("excludeTestsMatching") != std::string::npos);
  auto clean_locator = testing::fixture_locator();
  CHECK(render_quarantine_txt(testing::fixture_report("verdicts_clean.json", clean_locator)).empty());
}

TEST_CASE("the @FlakyTest patch applies to the sources with git apply", "[report][patch]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  const auto patch = render_flaky_patch(r, locator);
  // No classpath given: each test's imports decide (flaky_patch_test.cpp has the other
  // choices). Three files get annotations, the JUnit 4 package its FlakyTests interface; the
  // parameterised variants share one annotation.
  CHECK(count_of(patch, "+++ b/") == 4);
  CHECK(count_of(patch, "@Tag(\"flaky\")") == 3);
  CHECK(count_of(patch, "@Category(FlakyTests") == 2);
  CHECK(count_of(patch, "+import org.junit.jupiter.api.Tag;") == 1);
  CHECK(count_of(patch, "+import org.junit.experimental.categories.Category;") == 1);
  CHECK(count_of(patch, "+import org.junit.experimental.categories.Category\n") == 1);  // Kotlin: no semicolon
  CHECK(patch.find("androidx") == std::string::npos);
  CHECK(patch.find("// flakescan: 1 out of 6 runs failed (concurrency) under rerun. Failure: java.lang.AssertionError: took 1204 ms — cost $3 \"quoted\".") !=
        std::string::npos);

  // Apply it to a copy of the project and look at the result.
  const fs::path work = fs::temp_directory_path() / ("flakescan_patch_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(testing::project_dir(), work, fs::copy_options::recursive);
  {
    std::ofstream(work / "fix.patch") << patch;
  }
  REQUIRE(std::system(("cd '" + work.string() + "' && git apply fix.patch").c_str()) == 0);
  auto lines = split_lines(testing::read_text(work / "src/test/java/com/example/CounterTest.java"));
  REQUIRE(lines.size() > 19);
  CHECK(lines[5] == "import org.junit.experimental.categories.Category;");  // after the last import
  CHECK(lines[16].starts_with("    // flakescan: 3 out of 10 runs failed (concurrency) under rerun."));
  CHECK(lines[17] == "    @Category(FlakyTests.class)");
  CHECK(lines[18] == "    @Test(timeout = 2000)");
  CHECK(fs::exists(work / "src/test/java/com/example/FlakyTests.java"));
  auto cache = testing::read_text(work / "src/test/java/com/example/cache/CacheTest.java");
  CHECK(count_of(cache, "@Tag(\"flaky\")") == 3);
  fs::remove_all(work);

  // Tests that already carry @FlakyTest get nothing more.
  auto clean_locator = testing::fixture_locator();
  CHECK(render_flaky_patch(testing::fixture_report("verdicts_clean.json", clean_locator), clean_locator).empty());
}
