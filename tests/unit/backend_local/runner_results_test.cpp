#include <catch2/catch.hpp>

#include "backend/local_jvm/runner_results.hpp"

using namespace flakescan;
using backend::assemble_report;
using backend::parse_discover_stream;
using backend::parse_run_stream;

namespace {
const std::vector<std::string> tests{"p.A#one", "p.A#two", "p.B#three"};
}

TEST_CASE("a complete results stream gives one result per test", "[backend][runner]") {
  std::string text =
      "{\"event\":\"started\",\"index\":0,\"test\":\"p.A#one\"}\n"
      "{\"event\":\"finished\",\"index\":0,\"test\":\"p.A#one\",\"outcome\":\"pass\",\"duration_ms\":3.5,"
      "\"threads_created\":2}\n"
      "{\"event\":\"started\",\"index\":1,\"test\":\"p.A#two\"}\n"
      "{\"event\":\"finished\",\"index\":1,\"test\":\"p.A#two\",\"outcome\":\"fail\",\"message\":\"boom\","
      "\"exception\":\"java.lang.AssertionError\",\"stack\":\"java.lang.AssertionError: boom\\n\\tat p.A.two(A.java:7)\\n\"}\n"
      "{\"event\":\"finished\",\"index\":2,\"test\":\"p.B#three\",\"outcome\":\"not_found\",\"message\":\"no test\"}\n"
      "{\"event\":\"done\"}\n";
  auto stream = parse_run_stream(text, tests.size());
  REQUIRE(stream);
  CHECK(stream->done);
  core::RunReport report;
  assemble_report(*stream, tests, "exited with status 0", report);
  REQUIRE(report.results.size() == 3);
  CHECK(report.results[0].outcome == core::Outcome::pass);
  CHECK(report.results[0].duration_ms == Approx(3.5));
  CHECK(report.results[0].threads_created == 2);
  CHECK(report.results[1].threads_created == 0);
  CHECK(report.results[1].outcome == core::Outcome::fail);
  CHECK(report.results[1].signature == "java.lang.AssertionError at p.A.two:7");
  CHECK(report.results[2].outcome == core::Outcome::not_found);
  CHECK(report.infra_reason.empty());
}

TEST_CASE("a JVM that died mid-test leaves infra outcomes, not failures", "[backend][runner]") {
  // The last line is torn: the JVM died while writing it.
  std::string text =
      "{\"event\":\"started\",\"index\":0,\"test\":\"p.A#one\"}\n"
      "{\"event\":\"finished\",\"index\":0,\"test\":\"p.A#one\",\"outcome\":\"pass\"}\n"
      "{\"event\":\"started\",\"index\":1,\"test\":\"p.A#two\"}\n"
      "{\"event\":\"finis";
  auto stream = parse_run_stream(text, tests.size());
  REQUIRE(stream);
  CHECK_FALSE(stream->done);
  REQUIRE(stream->started_unfinished == 1u);
  core::RunReport report;
  assemble_report(*stream, tests, "exited with status 3", report);
  CHECK(report.results[0].outcome == core::Outcome::pass);
  CHECK(report.results[1].outcome == core::Outcome::infra);
  CHECK(report.results[1].message == "test did not finish: the JVM exited with status 3 while it ran");
  CHECK(report.results[2].outcome == core::Outcome::infra);
  CHECK(report.results[2].message.find("never started") != std::string::npos);
  CHECK_FALSE(report.infra_reason.empty());
}

TEST_CASE("a test that called System.exit is named with the call, and the tests after it never started",
          "[backend][runner]") {
  // The runner's shutdown hook writes the "exit" line while the JVM ends.
  std::string text =
      "{\"event\":\"started\",\"index\":0,\"test\":\"p.A#one\"}\n"
      "{\"event\":\"exit\",\"index\":0,\"test\":\"p.A#one\",\"thread\":\"main\",\"at\":\"p.A.one(A.java:10)\","
      "\"stack\":\"\\tat p.A.one(A.java:10)\\n\"}\n";
  auto stream = parse_run_stream(text, tests.size());
  REQUIRE(stream);
  REQUIRE(stream->exit_call);
  CHECK(stream->exit_call->at == "p.A.one(A.java:10)");
  core::RunReport report;
  assemble_report(*stream, tests, "exited with status 3", report);
  CHECK(report.results[0].outcome == core::Outcome::infra);  // its JVM ended: crash continuation applies
  CHECK(report.results[0].message ==
        "test did not finish: it called System.exit at p.A.one(A.java:10) and the JVM exited with status 3");
  CHECK(report.results[0].stack == "\tat p.A.one(A.java:10)\n");
  CHECK(report.results[1].message == "test never started: the JVM exited with status 3 before it");
  CHECK_FALSE(report.infra_reason.empty());
}

TEST_CASE("an exit line for another index than the test cut short does not name it", "[backend][runner]") {
  std::string text =
      "{\"event\":\"started\",\"index\":0,\"test\":\"p.A#one\"}\n"
      "{\"event\":\"finished\",\"index\":0,\"test\":\"p.A#one\",\"outcome\":\"pass\"}\n"
      "{\"event\":\"exit\",\"index\":0,\"at\":\"p.A.one(A.java:10)\"}\n"
      "{\"event\":\"started\",\"index\":1,\"test\":\"p.A#two\"}\n";
  auto stream = parse_run_stream(text, tests.size());
  REQUIRE(stream);
  core::RunReport report;
  assemble_report(*stream, tests, "was killed by signal 9", report);
  CHECK(report.results[1].message == "test did not finish: the JVM was killed by signal 9 while it ran");
  CHECK_FALSE(parse_run_stream("{\"event\":\"exit\",\"index\":7}\n", 1));
}

TEST_CASE("bad results lines are errors, not guesses", "[backend][runner]") {
  CHECK_FALSE(parse_run_stream("not json\n", 1));
  CHECK_FALSE(parse_run_stream("{\"event\":\"finished\",\"index\":5,\"outcome\":\"pass\"}\n", 1));
  CHECK_FALSE(parse_run_stream("{\"event\":\"finished\",\"index\":0,\"outcome\":\"weird\"}\n", 1));
  CHECK_FALSE(parse_run_stream("{\"event\":\"finished\",\"index\":0,\"outcome\":\"infra\"}\n", 1));
  auto empty = parse_run_stream("", 2);
  REQUIRE(empty);
  CHECK_FALSE(empty->done);
}

TEST_CASE("discovery streams list tests and missing ids", "[backend][runner]") {
  auto d = parse_discover_stream(
      "{\"event\":\"test\",\"test\":\"p.A#one\"}\n{\"event\":\"missing\",\"test\":\"p.Nope\",\"reason\":\"class not found\"}\n"
      "{\"event\":\"done\"}\n");
  REQUIRE(d);
  CHECK(d->done);
  CHECK(d->discovery.tests == std::vector<std::string>{"p.A#one"});
  REQUIRE(d->discovery.missing.size() == 1);
  CHECK(d->discovery.missing[0].second == "class not found");
}

TEST_CASE("discovery says whether the runs go to JUnit 4 without the Platform; anything but true is no", "[backend][runner]") {
  auto yes = parse_discover_stream("{\"event\":\"test\",\"test\":\"p.A#one\"}\n{\"event\":\"direct\",\"junit4\":true}\n{\"event\":\"done\"}\n");
  REQUIRE(yes);
  CHECK(yes->junit4_direct);
  for (const char* line : {"{\"event\":\"direct\",\"junit4\":false}\n", "{\"event\":\"direct\",\"junit4\":\"true\"}\n",
                           "{\"event\":\"direct\"}\n", ""}) {
    INFO(line);
    auto no = parse_discover_stream(std::string(line) + "{\"event\":\"done\"}\n");
    REQUIRE(no);
    CHECK_FALSE(no->junit4_direct);
  }
}

TEST_CASE("a run says whether its tests went to JUnit 4 without the Platform; none from an older runner", "[backend][runner]") {
  const std::string finished = "{\"event\":\"started\",\"index\":0,\"test\":\"p.A#one\"}\n"
                               "{\"event\":\"finished\",\"index\":0,\"test\":\"p.A#one\",\"outcome\":\"pass\"}\n"
                               "{\"event\":\"done\"}\n";
  auto yes = parse_run_stream("{\"event\":\"direct\",\"junit4\":true}\n" + finished, 1);
  REQUIRE(yes);
  CHECK(yes->junit4_direct == std::optional<bool>(true));
  REQUIRE(yes->finished[0]);
  CHECK(yes->finished[0]->outcome == flakescan::core::Outcome::pass);
  auto no = parse_run_stream("{\"event\":\"direct\",\"junit4\":false}\n" + finished, 1);
  REQUIRE(no);
  CHECK(no->junit4_direct == std::optional<bool>(false));
  auto odd = parse_run_stream("{\"event\":\"direct\",\"junit4\":\"true\"}\n" + finished, 1);
  REQUIRE(odd);
  CHECK(odd->junit4_direct == std::optional<bool>(false));
  auto older = parse_run_stream(finished, 1);
  REQUIRE(older);
  CHECK_FALSE(older->junit4_direct.has_value());
}

TEST_CASE("a shuffled run's finished line carries the sites whose order was permuted", "[backend][runner][shuffle]") {
  std::string text =
      "{\"event\":\"started\",\"index\":0,\"test\":\"p.A#one\"}\n"
      "{\"event\":\"finished\",\"index\":0,\"test\":\"p.A#one\",\"outcome\":\"fail\",\"message\":\"x\",\"exception\":\"java.lang.AssertionError\","
      "\"stack\":\"\",\"shuffled\":[{\"key\":\"HashMap.entrySet iteration at p.R.render(R.java:41)\",\"api\":\"HashMap.entrySet iteration\","
      "\"via\":[\"java.util.AbstractMap.toString\"],\"frames\":[\"p.R.render(R.java:41)\",\"p.A.one(A.java:9)\"],\"seen\":2,\"shuffled\":2,\"size\":3},"
      "{\"api\":\"no key: skipped\"}]}\n"
      "{\"event\":\"done\"}\n";
  auto stream = parse_run_stream(text, 1);
  REQUIRE(stream);
  REQUIRE(stream->finished[0]);
  const auto& sites = stream->finished[0]->shuffled;
  REQUIRE(sites.size() == 1);
  CHECK(sites[0].key == "HashMap.entrySet iteration at p.R.render(R.java:41)");
  CHECK(sites[0].api == "HashMap.entrySet iteration");
  CHECK(sites[0].via == std::vector<std::string>{"java.util.AbstractMap.toString"});
  CHECK(sites[0].frames.size() == 2);
  CHECK(sites[0].seen == 2);
  CHECK(sites[0].shuffled == 2);
  CHECK(sites[0].size == 3);
}
