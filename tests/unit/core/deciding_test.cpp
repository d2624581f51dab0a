// check_deciding: an order finding keeps its category only when no run of the scan that
// began with its failing order passed, and none that began with its passing order failed.
#include <catch2/catch.hpp>

#include "core/deciding.hpp"
#include "support/recorded_run.hpp"

using namespace flakescan;
using core::Outcome;
using test_support::recorded_run;

namespace {

core::Verdict nio_finding() {
  core::Verdict v{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::nio, .technique = "nio"};
  v.evidence.role = "nio";
  v.evidence.reproducer = {"p.T#m", "p.T#m"};
  v.evidence.passing_order = {"p.T#m"};
  return v;
}

}  // namespace

TEST_CASE("deciding: NIO stands when repeated runs fail and single runs pass", "[scan][deciding]") {
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail}),
                                      recorded_run(2, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail}),
                                      recorded_run(3, {"p.T#m"}, {Outcome::pass}), recorded_run(4, {"p.T#m"}, {Outcome::pass}),
                                      recorded_run(5, {"p.U#x"}, {Outcome::fail})};
  auto v = core::honest_verdict(core::check_deciding(nio_finding(), runs));
  CHECK(v.category == core::Category::nio);
  CHECK(v.evidence.role == "nio");
}

TEST_CASE("deciding: a timing failure alone voids NIO (its passing order failed)", "[scan][deciding]") {
  // The real-project case: a thread-timing test failing 3 of 16 plain runs, one failure of
  // which fell on a second run in one JVM.
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail}),
                                      recorded_run(2, {"p.T#m"}, {Outcome::pass}), recorded_run(3, {"p.T#m"}, {Outcome::fail})};
  auto checked = core::check_deciding(nio_finding(), runs);
  REQUIRE(checked.findings.size() == 1);
  CHECK_THAT(checked.findings[0].not_deciding, Catch::Contains("passing order (alone) also failed, in run 3"));
  auto v = core::honest_verdict(checked);
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::unknown);
}

TEST_CASE("deciding: 'fails alone' is void when the test also passed alone", "[scan][deciding]") {
  core::Verdict v{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::order_dependent, .technique = "order"};
  v.evidence.role = "brittle";
  v.evidence.reproducer = {"p.T#m"};
  v.evidence.passing_order = {"p.S#setUp", "p.T#m"};
  // Run 2 began with the failing order (the test alone, then others) and the test passed.
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::fail}),
                                      recorded_run(2, {"p.T#m", "p.U#x"}, {Outcome::pass, Outcome::pass}),
                                      recorded_run(3, {"p.S#setUp", "p.T#m"}, {Outcome::pass, Outcome::pass})};
  auto checked = core::check_deciding(v, runs);
  CHECK_THAT(checked.findings.at(0).not_deciding, Catch::Contains("failing order (alone) also passed, in run 2"));
  CHECK(core::honest_verdict(checked).category == core::Category::unknown);
  // Runs that cut short before the test (infra) say nothing.
  std::vector<core::RecordedRun> cut{recorded_run(1, {"p.T#m"}, {Outcome::fail}), recorded_run(2, {"p.T#m"}, {Outcome::infra})};
  CHECK(core::check_deciding(v, cut).findings.empty());
}

namespace {

core::RecordedRun shuffled_run(std::int64_t id, std::uint64_t seed, Outcome outcome) {
  auto r = recorded_run(id, {"p.T#m"}, {outcome});
  r.spec.shuffle = core::ShuffleSpec{.seed = seed, .mode = "full"};
  return r;
}

core::Verdict id_finding() {
  core::Verdict v{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::implementation_dependent,
                  .technique = "shuffle"};
  v.evidence.reproducer = {"p.T#m"};
  v.evidence.details = {{"seed", "77"}, {"mode", "full"}};
  return v;
}

}  // namespace

TEST_CASE("deciding: an implementation-dependent finding stands when clean runs pass and its seed fails", "[scan][deciding][shuffle]") {
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::pass}), shuffled_run(2, 77, Outcome::fail),
                                      shuffled_run(3, 77, Outcome::fail), shuffled_run(4, 78, Outcome::pass),
                                      recorded_run(5, {"p.T#m"}, {Outcome::pass})};
  auto v = core::honest_verdict(core::check_deciding(id_finding(), runs));
  CHECK(v.category == core::Category::implementation_dependent);
  CHECK(core::findings_of(v).front().not_deciding.empty());
}

TEST_CASE("deciding: a plain failure alone, or a pass under the failing seed, voids implementation-dependence", "[scan][deciding][shuffle]") {
  SECTION("the test also failed on the plain JDK") {
    std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::pass}), shuffled_run(2, 77, Outcome::fail),
                                        recorded_run(3, {"p.T#m"}, {Outcome::fail})};
    auto v = core::honest_verdict(core::check_deciding(id_finding(), runs));
    CHECK(v.category == core::Category::unknown);
    CHECK_THAT(core::findings_of(v).front().not_deciding, Catch::Contains("plain JDK, in run 3"));
  }
  SECTION("the failing seed also passed") {
    std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::pass}), shuffled_run(2, 77, Outcome::fail),
                                        shuffled_run(3, 77, Outcome::pass)};
    auto v = core::honest_verdict(core::check_deciding(id_finding(), runs));
    CHECK(v.category == core::Category::unknown);
    CHECK_THAT(core::findings_of(v).front().not_deciding, Catch::Contains("seed 77) also passed, in run 3"));
  }
}

TEST_CASE("deciding: a shuffled run is no run of an order (NIO stays when the test fails alone under a seed)", "[scan][deciding][shuffle]") {
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail}), recorded_run(2, {"p.T#m"}, {Outcome::pass}),
                                      shuffled_run(3, 5, Outcome::fail)};
  auto v = core::honest_verdict(core::check_deciding(nio_finding(), runs));
  CHECK(v.category == core::Category::nio);
}

TEST_CASE("deciding: a run that starts the class again is another order (a same-class victim's control run)", "[scan][deciding]") {
  // The polluter and the victim are of one class. order's cleaner control runs the victim in a
  // new run of its class after the polluter (class_run_starts {1}); the class's setup resets the
  // state, so it passes. That is not the failing order P, V passing.
  core::Verdict v{.test = "p.C#victim", .verdict = core::VerdictKind::flaky, .category = core::Category::order_dependent, .technique = "order"};
  v.evidence.role = "victim";
  v.evidence.reproducer = {"p.C#polluter", "p.C#victim"};
  v.evidence.passing_order = {"p.C#victim"};
  auto control = recorded_run(3, {"p.C#polluter", "p.C#victim"}, {Outcome::pass, Outcome::pass});
  control.spec.class_run_starts = {1};
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.C#polluter", "p.C#victim"}, {Outcome::pass, Outcome::fail}),
                                      recorded_run(2, {"p.C#victim"}, {Outcome::pass}), control};
  auto kept = core::honest_verdict(core::check_deciding(v, runs));
  CHECK(kept.category == core::Category::order_dependent);
  CHECK(kept.evidence.role == "victim");
  // The same run without the class boundary is the failing order passing: that voids it.
  runs[2].spec.class_run_starts.clear();
  auto checked = core::check_deciding(v, runs);
  REQUIRE(checked.findings.size() == 1);
  CHECK_THAT(checked.findings[0].not_deciding, Catch::Contains("also passed, in run 3"));
  // A class-level NIO finding (t | t) is matched by runs with the boundary, not by t, t.
  core::Verdict nio{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::nio, .technique = "nio"};
  nio.evidence.role = "nio";
  nio.evidence.reproducer = {"p.T#m", "p.T#m"};
  nio.evidence.passing_order = {"p.T#m"};
  nio.evidence.details["class_run_starts"] = "1";
  auto class_twice = recorded_run(5, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::fail});
  class_twice.spec.class_run_starts = {1};
  std::vector<core::RecordedRun> nio_runs{class_twice, recorded_run(6, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::pass}),
                                          recorded_run(7, {"p.T#m"}, {Outcome::pass})};
  CHECK(core::honest_verdict(core::check_deciding(nio, nio_runs)).category == core::Category::nio);
}

TEST_CASE("deciding: scheduled runs (technique threads) neither void an order nor a shuffle", "[scan][deciding][threads]") {
  auto scheduled = [](std::int64_t id, Outcome outcome) {
    auto r = recorded_run(id, {"p.T#m"}, {outcome});
    r.spec.technique = "threads";
    r.spec.schedule = core::ScheduleSpec{.strategy = "pct", .seed = 5};
    return r;
  };
  // A failure under a thread schedule is not a failure "alone on the plain JDK".
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::pass}), shuffled_run(2, 77, Outcome::fail), scheduled(3, Outcome::fail)};
  auto v = core::honest_verdict(core::check_deciding(id_finding(), runs));
  CHECK(v.category == core::Category::implementation_dependent);
  CHECK(core::findings_of(v).front().not_deciding.empty());
  // A pass of a brittle test alone under a thread schedule does not void "fails alone".
  core::Verdict brittle{.test = "p.T#m", .verdict = core::VerdictKind::flaky, .category = core::Category::order_dependent,
                        .technique = "order"};
  brittle.evidence.role = "brittle";
  brittle.evidence.reproducer = {"p.T#m"};
  brittle.evidence.passing_order = {"p.S#setUp", "p.T#m"};
  std::vector<core::RecordedRun> order_runs{recorded_run(1, {"p.T#m"}, {Outcome::fail}), scheduled(2, Outcome::pass),
                                            recorded_run(3, {"p.S#setUp", "p.T#m"}, {Outcome::pass, Outcome::pass})};
  CHECK(core::check_deciding(brittle, order_runs).findings.empty());
}

namespace {
core::Verdict counted(core::VerdictKind kind, int passed, int failed) {
  core::Verdict v{.test = "p.T#m", .verdict = kind, .technique = "suite"};
  v.runs = {.total = passed + failed, .passed = passed, .failed = failed};
  v.evidence.reason = "what the technique said";
  if (passed) v.evidence.passing_run = 1;
  if (failed) v.evidence.failing_run = 1;
  return v;
}
}  // namespace

TEST_CASE("deciding: a failure in a run made for another test keeps a test from not_flaky", "[scan][deciding]") {
  // The suite benchmark's case: a randomly failing test passed all its rounds (run 1), then
  // failed in the prefix of another suspect's order (run 3), which no technique counted for it.
  auto r3 = recorded_run(3, {"p.T#m", "p.V#victim"}, {Outcome::fail, Outcome::fail});
  r3.spec.technique = "suite";
  r3.spec.purpose = "reproduce the order p.V#victim failed in";
  r3.report.results[0].message = "random failure";
  r3.report.results[0].signature = "sig";
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m", "p.V#victim"}, {Outcome::pass, Outcome::pass}), recorded_run(2, {"p.V#victim"}, {Outcome::pass}), r3};
  auto v = core::honest_verdict(core::check_other_runs(counted(core::VerdictKind::not_flaky, 1, 0), core::RunIndex(runs)));
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::unknown);
  CHECK(v.evidence.failing_run == 3);
  CHECK(v.evidence.passing_run == 1);
  CHECK(v.runs.failed == 1);
  CHECK(v.runs.total == 2);
  REQUIRE(v.evidence.failures.size() == 1);
  CHECK(v.evidence.failures[0].example_run == 3);
  CHECK(v.evidence.reason ==
        "passed every run counted for it, but failed once in runs made for other tests, first in run 3, which suite made for "
        "reproduce the order p.V#victim failed in: random failure");
  // The technique's own finding stays beside the new one.
  REQUIRE(v.findings.size() == 2);
  CHECK(v.findings[0].verdict == core::VerdictKind::not_flaky);
  CHECK(v.findings[0].evidence.reason == "what the technique said");
}

TEST_CASE("deciding: a pass in a run made for another test keeps a test from failing", "[scan][deciding]") {
  auto other = recorded_run(2, {"p.U#x", "p.T#m"}, {Outcome::pass, Outcome::pass});
  other.spec.technique = "order";
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::fail}), other};
  auto v = core::honest_verdict(core::check_other_runs(counted(core::VerdictKind::failing, 0, 1), core::RunIndex(runs)));
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.evidence.passing_run == 2);
  CHECK(v.evidence.failing_run == 1);
  CHECK(v.runs.passed == 1);
  CHECK(v.evidence.reason == "failed every run counted for it, but passed once in runs made for other tests, first in run 2, which order made for other tests");
}

TEST_CASE("deciding: other runs change nothing when they agree, or when they change the program, the JDK or the schedule",
          "[scan][deciding]") {
  auto repaired = recorded_run(2, {"p.T#m"}, {Outcome::fail});
  repaired.spec.technique = core::intervention_technique;
  auto shuffled = recorded_run(3, {"p.T#m"}, {Outcome::fail});
  shuffled.spec.shuffle = core::ShuffleSpec{.seed = 7};
  auto scheduled = recorded_run(4, {"p.T#m"}, {Outcome::error});
  scheduled.spec.schedule = core::ScheduleSpec{};
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m", "p.U#x"}, {Outcome::pass, Outcome::fail}), repaired, shuffled, scheduled,
                                      recorded_run(5, {"p.U#x", "p.T#m"}, {Outcome::fail, Outcome::skipped})};
  auto v = core::check_other_runs(counted(core::VerdictKind::not_flaky, 1, 0), core::RunIndex(runs));
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(v.runs.failed == 0);
  CHECK(v.findings.empty());
  // A flaky verdict is left to check_deciding and honest_verdict.
  auto flaky = counted(core::VerdictKind::flaky, 1, 1);
  const std::vector<core::RecordedRun> failed{recorded_run(9, {"p.T#m"}, {Outcome::fail})};
  CHECK(core::check_other_runs(flaky, core::RunIndex(failed)).runs.failed == 1);
}

TEST_CASE("deciding: the failure rate n passing executions rule out, rounded up", "[scan][deciding]") {
  // 1 - 0.05^(1/n): the rate at which a test passes all n executions in 5 % of scans.
  CHECK(core::ruled_out_rate(0).empty());
  CHECK(core::ruled_out_rate(1) == "95 %");
  CHECK(core::ruled_out_rate(3) == "64 %");    // 63.2 %
  CHECK(core::ruled_out_rate(21) == "14 %");   // 13.3 %: the nightly suite scan's 20 rounds
  CHECK(core::ruled_out_rate(28) == "11 %");   // 10.1 %
  CHECK(core::ruled_out_rate(29) == "9.9 %");  // 9.81 %
  CHECK(core::ruled_out_rate(59) == "5.0 %");  // 4.95 %
  CHECK(core::ruled_out_rate(300) == "1.0 %"); // 0.994 %
}

TEST_CASE("deciding: a not_flaky verdict says how many executions it passed and what they rule out", "[scan][deciding]") {
  // Passes in any technique's runs count, each execution of a run (a test run twice in one
  // JVM counts twice); skips, runs that change the JDK on purpose and other tests do not.
  auto shuffled = recorded_run(3, {"p.T#m"}, {Outcome::pass});
  shuffled.spec.shuffle = core::ShuffleSpec{.seed = 7};
  auto other = recorded_run(5, {"p.U#x", "p.T#m"}, {Outcome::pass, Outcome::pass});
  other.spec.technique = "order";
  std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m", "p.T#m"}, {Outcome::pass, Outcome::pass}), recorded_run(2, {"p.T#m"}, {Outcome::skipped}),
                                      shuffled, recorded_run(4, {"p.U#x"}, {Outcome::pass}), other};
  const core::RunIndex index(runs);
  auto v = core::with_detection_bound(counted(core::VerdictKind::not_flaky, 3, 0), index);
  CHECK(v.evidence.details.at("passed_executions") == "3");
  CHECK(v.evidence.details.at("rules_out") ==
        "failing 64 % of executions or more, at 95 % confidence: a test that fails that often at random passes all 3 in at most 5 % of scans");
  CHECK(v.evidence.reason == "what the technique said");
  // Only not_flaky verdicts say it, and only after a pass.
  for (auto kind : {core::VerdictKind::flaky, core::VerdictKind::failing, core::VerdictKind::skipped})
    CHECK(core::with_detection_bound(counted(kind, 1, 1), index).evidence.details.empty());
  const std::vector<core::RecordedRun> skipped{recorded_run(1, {"p.T#m"}, {Outcome::skipped})};
  CHECK(core::with_detection_bound(counted(core::VerdictKind::not_flaky, 0, 0), core::RunIndex(skipped)).evidence.details.empty());
}

TEST_CASE("deciding: the summary's line for not_flaky verdicts says 'each' only when each has a count", "[scan][deciding]") {
  CHECK(core::rules_out_summary(21, 96, 96) ==
        "not flaky: each passed at least 21 executions, which rules out failing 14 % of executions or more at 95 % confidence "
        "(more --runs lower it)");
  // A scan with technique threads: its tests' own runs are scheduled, and count for nothing here.
  CHECK(core::rules_out_summary(1, 10, 12) ==
        "not flaky: 10 of the 12 passed at least 1 execution each, which rules out failing 95 % of executions or more at 95 % "
        "confidence (more --runs lower it); the others ran only in runs that change the schedule, the JDK or the program on "
        "purpose, which rule out no rate");
  CHECK(core::rules_out_summary(0, 0, 12).empty());
}

TEST_CASE("deciding: one passing execution is said as one", "[scan][deciding]") {
  const std::vector<core::RecordedRun> runs{recorded_run(1, {"p.T#m"}, {Outcome::pass})};
  auto v = core::with_detection_bound(counted(core::VerdictKind::not_flaky, 1, 0), core::RunIndex(runs));
  CHECK(v.evidence.details.at("rules_out") ==
        "failing 95 % of executions or more, at 95 % confidence: a test that fails that often at random passes one execution in "
        "at most 5 % of scans");
}
