// Technique `suite` against the scripted suite model (tests/support/order/fake_suite.hpp):
// rounds in shared JVMs find every kind of planted test, only suspects get isolated runs,
// and stable tests cost nothing beyond the rounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "support/order/fake_suite.hpp"
#include "suite/suite_isolation.hpp"
#include "suite/suite_rounds.hpp"

using namespace flakescan;
using namespace flakescan::test_support;
using core::Category;
using core::VerdictKind;

namespace {

FakeSuite planted() {
  FakeSuite s;
  s.victims["p.A#victim"] = {{"p.C#polluter"}, {}, false};
  s.brittles["p.B#brittle"] = {"p.D#setter"};
  s.nio.insert("p.H#nio");
  s.nod.insert("p.E#nod");
  s.broken.insert("p.F#broken");
  return s;
}

std::vector<std::string> tests() {
  std::vector<std::string> t{"p.A#a1", "p.A#victim", "p.B#b1", "p.B#brittle", "p.C#polluter", "p.C#c2",
                             "p.D#setter", "p.E#nod", "p.F#broken", "p.H#nio"};
  for (int i = 0; i < 30; ++i) t.push_back("p.G" + std::to_string(i % 6) + "#g" + std::to_string(i));
  return t;
}

std::map<std::string, core::Verdict> by_test(const std::vector<core::Verdict>& verdicts) {
  std::map<std::string, core::Verdict> out;
  for (const auto& v : verdicts) out[v.test] = core::honest_verdict(v);
  return out;
}

// The suite's verdicts over `log` for `tests`, by test.
std::map<std::string, core::Verdict> scan(FakeRunLog& log, std::vector<std::string> tests, std::uint64_t seed,
                                          int runs_per_test) {
  core::TechniqueInput in{.tests = std::move(tests), .seed = seed};
  in.budget.runs_per_test = runs_per_test;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  return by_test(*verdicts);
}

// `named`, then `count` stable tests spread over `classes` classes p.G0 ... (p.G<i % classes>#g<i>).
std::vector<std::string> with_stable(std::vector<std::string> named, int count, int classes) {
  for (int i = 0; i < count; ++i) named.push_back("p.G" + std::to_string(i % classes) + "#g" + std::to_string(i));
  return named;
}

bool has_category(const core::Verdict& v, Category c) {
  for (auto x : core::categories_of(v))
    if (x == c) return true;
  return false;
}

}  // namespace

TEST_CASE("suite: rounds find every planted kind, with the right category", "[suite][rounds]") {
  FakeRunLog log(planted());
  log.set_parallelism(1);  // the NOD test's outcomes count across runs: one suspect at a time
  core::TechniqueInput in{.tests = tests(), .seed = 5};
  in.budget.runs_per_test = 6;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  REQUIRE(verdicts->size() == tests().size());
  auto v = by_test(*verdicts);

  CHECK(v["p.A#victim"].verdict == VerdictKind::flaky);
  CHECK(has_category(v["p.A#victim"], Category::order_dependent));
  CHECK(v["p.A#victim"].evidence.role == "victim");
  CHECK(v["p.A#victim"].evidence.related.at(0) == "p.C#polluter");
  CHECK(has_category(v["p.B#brittle"], Category::order_dependent));
  CHECK(v["p.B#brittle"].evidence.role == "brittle");
  CHECK(has_category(v["p.H#nio"], Category::nio));
  CHECK(v["p.E#nod"].verdict == VerdictKind::flaky);
  CHECK(v["p.E#nod"].category == Category::unknown);
  CHECK(v["p.F#broken"].verdict == VerdictKind::failing);
  for (const auto& [test, verdict] : v) {
    if (test.starts_with("p.G") || test == "p.A#a1" || test == "p.B#b1" || test == "p.C#c2") {
      INFO(test);
      CHECK(verdict.verdict == VerdictKind::not_flaky);
      CHECK(verdict.evidence.details.at("rounds") == "6");
      CHECK(verdict.runs.total >= 6);
    }
  }
  // Only suspects got runs of their own (reruns alone, NIO checks); stable tests ran alone
  // never (they appear in the order technique's runs only as the tests before a suspect).
  int alone = 0;
  for (const auto& run : log.made()) {
    if (run.spec.technique != "rerun" && run.spec.technique != "nio") continue;
    ++alone;
    for (const auto& t : run.spec.tests) CHECK_FALSE(t.starts_with("p.G"));
  }
  CHECK(alone > 0);
  // Each run alone ran the suspect kExecutionsAlone times in a row in its fresh JVM (a quick
  // test). The NIO test's three passed then failed: technique nio took them as its first pass
  // and confirmations and made no run of its own. The victim's passed twice: they answered the
  // question (no).
  auto runs_of = [&](const std::string& technique, const std::string& test) {
    int n = 0;
    for (const auto& run : log.made())
      if (run.spec.technique == technique && run.spec.tests.front() == test) {
        ++n;
        if (technique == "rerun") CHECK(run.spec.tests == std::vector<std::string>(suite::kExecutionsAlone, test));
      }
    return n;
  };
  CHECK(runs_of("rerun", "p.H#nio") == 3);
  CHECK(runs_of("nio", "p.H#nio") == 0);
  CHECK(runs_of("nio", "p.A#victim") == 0);
  CHECK(v["p.H#nio"].evidence.reproducer == std::vector<std::string>{"p.H#nio", "p.H#nio"});
  CHECK(v["p.A#victim"].evidence.details.at("nio").starts_with("not NIO: in none of its runs alone"));
}

TEST_CASE("suite: a budget that allows four rounds says what it left undone", "[suite][rounds]") {
  FakeRunLog log(planted());
  log.set_parallelism(1);
  core::TechniqueInput in{.tests = tests(), .seed = 5};
  in.budget.runs_per_test = 20;
  in.budget.max_runs = 6;  // one JVM a round: 70% of 6 runs is 4 rounds
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  auto v = by_test(*verdicts);
  CHECK(v["p.G0#g0"].evidence.details.at("rounds") == "4");
  CHECK(v["p.G0#g0"].evidence.details.at("rounds_wanted") == "20");
  CHECK(v["p.G0#g0"].evidence.details.at("unscanned") == "16 rounds (budget)");
  // The victim differed between original and reverse; its isolation fit or is said not to.
  const auto& victim = v["p.A#victim"];
  CHECK(victim.verdict == VerdictKind::flaky);
  if (!has_category(victim, Category::order_dependent)) CHECK(victim.evidence.details.count("unscanned"));
}

TEST_CASE("suite: a test that takes its JVM down hides none of the others", "[suite][rounds]") {
  FakeSuite s;
  s.exiting.insert("p.A#exits");
  FakeRunLog log(s);
  core::TechniqueInput in{.tests = {"p.A#exits", "p.A#after", "p.B#b1", "p.B#b2"}, .seed = 1};
  in.budget.runs_per_test = 3;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  auto v = by_test(*verdicts);
  CHECK(v["p.A#after"].verdict == VerdictKind::not_flaky);
  CHECK(v["p.A#after"].runs.passed >= 3);
  CHECK(v["p.A#exits"].verdict == VerdictKind::could_not_run);
}

TEST_CASE("suite: a victim after a test that takes its JVM down still runs after its polluter", "[suite][rounds]") {
  // The polluter's class comes before the exiting test, the victim's after it (as in
  // examples/jvm-layouts): the round continues with the polluter, not in a JVM that lost it.
  FakeSuite s;
  s.exiting.insert("p.E#exits");
  s.victims["p.V#victim"] = {{"p.C#polluter"}, {}, false};
  FakeRunLog log(s);
  core::TechniqueInput in{.tests = {"p.C#polluter", "p.E#exits", "p.V#victim"}, .seed = 1};
  in.budget.runs_per_test = 3;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  auto v = by_test(*verdicts);
  CHECK(v["p.V#victim"].verdict == VerdictKind::flaky);
  CHECK(has_category(v["p.V#victim"], Category::order_dependent));
  CHECK(v["p.V#victim"].evidence.reproducer == std::vector<std::string>{"p.C#polluter", "p.V#victim"});
  CHECK(v["p.E#exits"].verdict == VerdictKind::could_not_run);
}

TEST_CASE("suite: the rounds narrow a victim's order before delta debugging, and a victim with two polluters falls back to the whole order",
          "[suite][rounds]") {
  FakeSuite s;
  s.victims["p.A#victim"] = {{"p.C#polluter"}, {}, false};
  s.victims["p.A#either"] = {{"p.D#first", "p.G3#g3"}, {}, false};  // each polluter suffices
  FakeRunLog log(s);
  auto v = scan(log, with_stable({"p.A#victim", "p.A#either", "p.C#polluter", "p.D#first"}, 60, 12), 3, 20);

  const auto& victim = v["p.A#victim"];
  INFO(victim.evidence.reason);
  CHECK(has_category(victim, Category::order_dependent));
  CHECK(victim.evidence.related.at(0) == "p.C#polluter");
  REQUIRE(victim.evidence.details.count("order_narrowed_to") == 1);
  CHECK(victim.evidence.details.at("order_narrowed_to").find("tests before it: those before it in all") != std::string::npos);
  // Every order the isolation ran for the victim is the narrowed one or shorter: no run of
  // the isolation held most of the 64 tests.
  for (const auto& run : log.made())
    if (run.spec.purpose.find("narrowed by the rounds") != std::string::npos) CHECK(run.spec.tests.size() < 20);
  // The rounds it passed in take out bystanders, never its polluter (when they took any out).
  for (const auto& run : log.made())
    if (run.spec.purpose == "the order p.A#victim failed in, narrowed by the rounds of both outcomes") {
      CHECK(run.spec.tests.back() == "p.A#victim");
      CHECK(std::find(run.spec.tests.begin(), run.spec.tests.end(), "p.C#polluter") != run.spec.tests.end());
    }

  // Either polluter fails it: the rounds where it failed share no polluter, so the narrowed
  // order (if any) passes and its isolation starts from the whole order it failed in.
  const auto& either = v["p.A#either"];
  INFO(either.evidence.reason);
  CHECK(either.verdict == VerdictKind::flaky);
  CHECK(has_category(either, Category::order_dependent));
  CHECK(either.evidence.details.count("order_narrowed_to") == 0);
}

TEST_CASE("suite: suspects are isolated side by side, never more runs at once than the parallelism", "[suite][rounds]") {
  // Outcomes that depend only on each run's order, so that they do not depend on how the
  // suspects' runs interleave.
  FakeSuite s;
  s.victims["p.A#victim"] = {{"p.C#polluter"}, {}, false};
  s.victims["p.I#victim"] = {{"p.J#polluter"}, {}, false};
  s.brittles["p.B#brittle"] = {"p.D#setter"};
  s.nio.insert("p.H#nio");
  std::vector<std::string> t{"p.A#victim", "p.B#brittle", "p.C#polluter", "p.D#setter", "p.H#nio", "p.I#victim", "p.J#polluter"};
  for (int i = 0; i < 24; ++i) t.push_back("p.G" + std::to_string(i % 6) + "#g" + std::to_string(i));
  for (int parallelism : {2, 3}) {
    FakeRunLog log(s);
    log.set_parallelism(parallelism);
    core::TechniqueInput in{.tests = t, .seed = 7};
    in.budget.runs_per_test = 8;
    auto verdicts = suite::run_suite(in, log);
    REQUIRE(verdicts);
    auto v = by_test(*verdicts);
    INFO("parallelism " << parallelism);
    for (const char* victim : {"p.A#victim", "p.I#victim"}) {
      INFO(victim << ": " << v[victim].evidence.reason);
      CHECK(has_category(v[victim], Category::order_dependent));
      CHECK(v[victim].evidence.role == "victim");
    }
    CHECK(v["p.A#victim"].evidence.related.at(0) == "p.C#polluter");
    CHECK(v["p.I#victim"].evidence.related.at(0) == "p.J#polluter");
    CHECK(v["p.B#brittle"].evidence.role == "brittle");
    CHECK(v["p.B#brittle"].evidence.related.at(0) == "p.D#setter");
    CHECK(has_category(v["p.H#nio"], Category::nio));
    for (int i = 0; i < 24; ++i) CHECK(v["p.G" + std::to_string(i % 6) + "#g" + std::to_string(i)].verdict == VerdictKind::not_flaky);
    CHECK(log.most_at_once() <= parallelism);
  }
}

TEST_CASE("suite: suspects of one polluter are isolated together, one run each after the first", "[suite][rounds]") {
  // Issue 29 item 9: six victims of one polluter. The first isolation finds the polluter; the
  // others try it first (polluter, suspect) and are done with that order.
  FakeSuite s;
  std::vector<std::string> t{"p.C#polluter"};
  for (int i = 0; i < 6; ++i) {
    const std::string victim = "p.V" + std::to_string(i) + "#v";
    s.victims[victim] = {{"p.C#polluter"}, {}, false};
    t.push_back(victim);
  }
  for (int i = 0; i < 30; ++i) t.push_back("p.G" + std::to_string(i % 6) + "#g" + std::to_string(i));
  FakeRunLog log(s);
  log.set_parallelism(1);  // one lane: the suspects are isolated one after another
  core::TechniqueInput in{.tests = t, .seed = 4};
  in.budget.runs_per_test = 12;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  auto v = by_test(*verdicts);
  int victims = 0, shared = 0;
  for (int i = 0; i < 6; ++i) {
    const auto& victim = v["p.V" + std::to_string(i) + "#v"];
    INFO(victim.test << ": " << victim.evidence.reason);
    if (!has_category(victim, Category::order_dependent)) continue;  // not failed in any round: not a suspect
    ++victims;
    CHECK(victim.evidence.reproducer == std::vector<std::string>{"p.C#polluter", victim.test});
    auto narrowed = victim.evidence.details.find("order_narrowed_to");
    if (narrowed != victim.evidence.details.end() && narrowed->second.starts_with("the polluters another suspect's isolation found"))
      ++shared;
  }
  REQUIRE(victims >= 2);
  CHECK(shared == victims - 1);  // every one but the first
  int shortcut_runs = 0;
  for (const auto& run : log.made())
    if (run.spec.purpose.starts_with("the order ") &&  // not order's confirmations of it
        run.spec.purpose.ends_with("after the polluters found for another suspect")) {
      ++shortcut_runs;
      CHECK(run.spec.tests.size() == 2);
    }
  CHECK(shortcut_runs == shared);
}

TEST_CASE("suite: a test that differed only in another suspect's isolation is isolated too", "[suite][rounds]") {
  // Two victims of one polluter. In the original order both run before it, except the
  // victim's; in the reverse order the cleaner runs between the polluter and v2. So v2 passes
  // both rounds and is no suspect; it fails when `order`, isolating the victim, tries it as a
  // cleaner right after the polluter. That failure makes it a suspect of its own.
  FakeSuite s;
  s.victims["p.A#victim"] = {{"p.C#polluter"}, {}, false};
  s.victims["p.V#v2"] = {{"p.C#polluter"}, {"p.K#k"}, false};
  FakeRunLog log(s);
  log.set_parallelism(1);
  core::TechniqueInput in{.tests = {"p.V#v2", "p.K#k", "p.C#polluter", "p.A#victim"}, .seed = 2};
  in.budget.runs_per_test = 2;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  auto v = by_test(*verdicts);
  // The premise: v2 passed both rounds and failed in a run made for the victim.
  int round_runs = 0, failed_for_victim = 0;
  for (const auto& run : log.made()) {
    for (size_t i = 0; i < run.spec.tests.size(); ++i) {
      if (run.spec.tests[i] != "p.V#v2") continue;
      if (run.spec.purpose.starts_with("suite round")) {
        ++round_runs;
        CHECK(run.report.outcome_at(i) == core::Outcome::pass);
      } else if (run.spec.tests.back() == "p.A#victim" && core::is_failure(run.report.outcome_at(i))) {
        ++failed_for_victim;
      }
    }
  }
  REQUIRE(round_runs == 2);
  REQUIRE(failed_for_victim > 0);

  CHECK(has_category(v["p.A#victim"], Category::order_dependent));
  const auto& v2 = v["p.V#v2"];
  INFO(v2.evidence.reason);
  CHECK(v2.verdict == VerdictKind::flaky);
  CHECK(has_category(v2, Category::order_dependent));
  CHECK(v2.evidence.role == "victim");
  CHECK(v2.evidence.reproducer == std::vector<std::string>{"p.C#polluter", "p.V#v2"});
  // It got isolated runs of its own: alone, and an order that ends with it.
  int alone = 0;
  for (const auto& run : log.made())
    if (run.spec.technique == "rerun" && run.spec.tests == std::vector<std::string>(suite::kExecutionsAlone, "p.V#v2")) ++alone;
  CHECK(alone == 3);
  CHECK(v["p.K#k"].verdict == VerdictKind::not_flaky);
}

namespace {

// The scan of a suite where p.T#random follows `alone` in its runs alone, after failing once in
// the rounds (the 7 executions of 6 rounds: round 3 runs each test twice). One count of
// executions, in the order the runs are made (parallelism 1).
std::map<std::string, core::Verdict> scan_random(FakeRunLog& log) {
  return scan(log, with_stable({"p.A#a", "p.T#random", "p.B#b"}, 12, 4), 9, 6);
}

FakeSuite random_suite(const std::vector<core::Outcome>& alone) {
  using core::Outcome;
  FakeSuite s;
  s.timed["p.T#random"] = {Outcome::fail, Outcome::pass, Outcome::pass, Outcome::pass, Outcome::pass, Outcome::pass,
                           Outcome::pass};
  s.timed["p.T#random"].insert(s.timed["p.T#random"].end(), alone.begin(), alone.end());
  return s;
}

// What the finding of its runs alone says.
std::string alone_reason(const core::Verdict& v) {
  for (const auto& f : v.findings)
    if (f.technique == "suite (alone)") return f.evidence.reason;
  FAIL("no finding of its runs alone");
  return {};
}

// Its `runs` runs alone and nothing else: no order it failed in was run again, no NIO run.
void check_only_runs_alone(const FakeRunLog& log, size_t executions, int runs) {
  int alone = 0;
  for (const auto& run : log.made()) {
    if (run.spec.purpose.starts_with("suite round")) continue;
    INFO(run.spec.purpose);
    CHECK(run.spec.technique == "rerun");
    CHECK(run.spec.tests == std::vector<std::string>(executions, "p.T#random"));
    ++alone;
  }
  CHECK(alone == runs);
}

}  // namespace

namespace {

// The scan where p.T#random passes every execution of its runs alone but execution `at` (0 =
// the first) of run `run` (0 = the first), and what every such scan must show: flaky, not
// order-dependent, no order searched: its `runs_alone` runs alone and nothing else. Its verdict.
core::Verdict scan_one_failure_alone(size_t at, size_t run, int runs_alone) {
  using core::Outcome;
  std::vector<Outcome> alone(3 * suite::kExecutionsAlone, Outcome::pass);
  alone[run * suite::kExecutionsAlone + at] = Outcome::fail;
  FakeRunLog log(random_suite(alone));
  log.set_parallelism(1);
  auto v = scan_random(log);

  const auto random = v["p.T#random"];
  INFO(random.evidence.reason);
  CHECK(random.verdict == VerdictKind::flaky);
  CHECK_FALSE(has_category(random, Category::order_dependent));
  check_only_runs_alone(log, suite::kExecutionsAlone, runs_alone);
  return random;
}

// The same, when the failure is one of a later execution: `details.order` says why no order was searched.
core::Verdict scan_failing_once_alone(size_t at, size_t run, int runs_alone) {
  auto random = scan_one_failure_alone(at, run, runs_alone);
  REQUIRE(random.evidence.details.count("order") == 1);
  return random;
}

}  // namespace

TEST_CASE("suite: a suspect whose second execution alone failed once and passed once gets no order searched",
          "[suite][rounds]") {
  // Its three runs alone, each running it 6 times: all passed but the second execution of the second run.
  // Its second run alone passed, then failed: a NIO hit, so the third run is made too.
  const auto random = scan_failing_once_alone(1, 1, 3);
  CHECK_FALSE(has_category(random, Category::nio));
  CHECK(random.evidence.details.at("order").starts_with("not searched: it passed every run alone"));
  CHECK(random.evidence.details.at("order").find("failed the second time in run") != std::string::npos);
}

TEST_CASE("suite: a suspect whose later execution alone failed once and passed twice gets no order searched",
          "[suite][rounds]") {
  // Its first two executions passed in all three runs alone (no NIO hit, and before, an order
  // search); its fifth failed in the second run and passed in the others: the same order,
  // itself four times, gave both outcomes.
  const auto random = scan_failing_once_alone(4, 1, 2);
  const auto& order = random.evidence.details.at("order");
  INFO(order);
  CHECK(order.starts_with("not searched: it passed every run alone, but run 6 times in a row in a fresh JVM it failed its execution 5"));
  CHECK(random.evidence.details.at("nio").starts_with("not NIO"));
}

TEST_CASE("suite: a suspect whose two runs alone answer gets no third", "[suite][rounds]") {
  // Its fourth execution failed in the first run alone and passed in the second: those two
  // show that no order decides its outcome, and no NIO hit wants a third.
  const auto random = scan_failing_once_alone(3, 0, 2);
  CHECK(alone_reason(random).find("the other 1 asked for were not made: its first 2 runs alone already showed that the same "
                                    "order (itself, 3 times before) gave both outcomes") != std::string::npos);
  CHECK(random.evidence.details.at("order").find("its execution 4 in run") != std::string::npos);
}

TEST_CASE("suite: a suspect that passed one run alone and failed the other gets no third", "[suite][rounds]") {
  // The first execution of the first run alone failed; every other passed.
  const auto random = scan_one_failure_alone(0, 0, 2);
  CHECK(alone_reason(random).find("its first 2 runs alone already showed that it passes and fails alone") != std::string::npos);
  CHECK(random.evidence.details.at("nio").starts_with("not NIO"));
}

TEST_CASE("suite: a suspect whose first two runs alone agree gets its third, which answers", "[suite][rounds]") {
  // Every execution of the first two runs passed; the third failed its fifth.
  const auto random = scan_failing_once_alone(4, 2, 3);
  CHECK(random.evidence.details.at("order").find("failed its execution 5 in run") != std::string::npos);
}

TEST_CASE("suite: a slow suspect runs twice in a row alone, and an order is searched when those agree", "[suite][rounds]") {
  // Each execution takes longer than kQuickExecutionMs: two executions a run alone. After its
  // one failure in the rounds it passes every execution, so its runs alone agree and the
  // order it failed in is run again.
  auto suite = random_suite({});
  suite.duration_ms["p.T#random"] = suite::kQuickExecutionMs + 1;
  FakeRunLog log(suite);
  log.set_parallelism(1);
  auto v = scan_random(log);

  const auto& random = v["p.T#random"];
  INFO(random.evidence.reason);
  CHECK(random.verdict == VerdictKind::flaky);
  int alone_runs = 0, reproduced = 0;
  for (const auto& run : log.made()) {
    if (run.spec.technique == "rerun") {
      CHECK(run.spec.tests == std::vector<std::string>{"p.T#random", "p.T#random"});
      ++alone_runs;
    }
    if (run.spec.purpose.starts_with("the order p.T#random failed in")) ++reproduced;
  }
  CHECK(alone_runs == 3);
  CHECK(reproduced > 0);  // its runs alone all passed twice: the order search was made
  CHECK(random.evidence.details.count("order") == 0);
}

TEST_CASE("suite: a test that created threads runs 5 times in a row in the later rounds, and a failure there makes it a suspect",
          "[suite][rounds]") {
  // p.T#timing fails only its 9th execution. Once in each of 6 rounds (twice in round 3) it
  // would run 7 times and pass them all. It creates a thread, so after round 1 showed that it
  // runs 5 times where it ran once: round 2 runs it 5 times, round 3 10 times.
  using core::Outcome;
  FakeSuite suite;
  suite.thread_creators.insert("p.T#timing");
  suite.timed["p.T#timing"] = std::vector<Outcome>(8, Outcome::pass);
  suite.timed["p.T#timing"].push_back(Outcome::fail);
  FakeRunLog log(suite);
  log.set_parallelism(1);
  auto v = scan(log, with_stable({"p.A#a", "p.T#timing", "p.B#b"}, 12, 4), 9, 6);

  const auto& timing = v["p.T#timing"];
  INFO(timing.evidence.reason);
  CHECK(timing.verdict == VerdictKind::flaky);
  CHECK(timing.evidence.reason.starts_with("its outcome differed between suite rounds"));
  std::vector<size_t> executions;  // of p.T#timing, in each round, in the order they were made
  for (const auto& run : log.made()) {
    if (!run.spec.purpose.starts_with("suite round")) continue;
    executions.push_back(size_t(std::count(run.spec.tests.begin(), run.spec.tests.end(), "p.T#timing")));
    // The repeats are in a row, where the test ran once.
    auto first = std::find(run.spec.tests.begin(), run.spec.tests.end(), "p.T#timing");
    REQUIRE(first != run.spec.tests.end());
    CHECK(size_t(std::count(first, first + long(executions.back()), "p.T#timing")) == executions.back());
    for (const auto& t : run.spec.tests) CHECK((t == "p.T#timing" || std::count(run.spec.tests.begin(), run.spec.tests.end(), t) <= 2));
  }
  REQUIRE(executions.size() == 6);
  CHECK(executions == std::vector<size_t>{1, 5, 10, 5, 5, 5});
  const auto& stable = v["p.A#a"];
  CHECK(stable.verdict == VerdictKind::not_flaky);
  CHECK(stable.evidence.reason.ends_with("; the 1 test that created threads ran up to 5 times in a row in the rounds after the one that showed it)"));
}

TEST_CASE("suite: a test whose bytecode draws a random number runs 5 times in a row in the later rounds", "[suite][rounds]") {
  // The classfile fixture's ChanceTest: one test calls new Random().nextInt, another nothing of
  // the kind. The first fails only its 9th execution, which 6 rounds of one execution each
  // (two in round 3) would never reach; repeated after round 1 ran it, it does.
  using core::Outcome;
  const std::string chance = "registry.ChanceTest#drawsARandomNumber", plain = "registry.ChanceTest#isDeterministic";
  FakeSuite suite;
  suite.timed[chance] = std::vector<Outcome>(8, Outcome::pass);
  suite.timed[chance].push_back(Outcome::fail);
  FakeRunLog log(suite);
  log.set_parallelism(1);
  core::TechniqueInput in{.tests = with_stable({chance, plain, "p.B#b"}, 12, 4), .seed = 9};
  in.classpath = {FLAKESCAN_CLASSFILE_FIXTURE_DIR};
  in.budget.runs_per_test = 6;
  auto verdicts = suite::run_suite(in, log);
  REQUIRE(verdicts);
  auto v = by_test(*verdicts);

  INFO(v[chance].evidence.reason);
  CHECK(v[chance].verdict == VerdictKind::flaky);
  std::vector<size_t> chance_runs, plain_runs;  // executions in each round, in the order made
  for (const auto& run : log.made()) {
    if (!run.spec.purpose.starts_with("suite round")) continue;
    chance_runs.push_back(size_t(std::count(run.spec.tests.begin(), run.spec.tests.end(), chance)));
    plain_runs.push_back(size_t(std::count(run.spec.tests.begin(), run.spec.tests.end(), plain)));
  }
  CHECK(chance_runs == std::vector<size_t>{1, 5, 10, 5, 5, 5});
  CHECK(plain_runs == std::vector<size_t>{1, 1, 2, 1, 1, 1});
  CHECK(v[plain].verdict == VerdictKind::not_flaky);
  CHECK(v[plain].evidence.reason.ends_with(
      "; the 1 test that draws a random number or reads the clock ran up to 5 times in a row in the rounds after the first that ran it)"));
}

TEST_CASE("suite: a suite where no test created threads repeats none", "[suite][rounds]") {
  FakeRunLog log(planted());
  log.set_parallelism(1);
  auto v = scan(log, tests(), 5, 6);
  for (const auto& run : log.made())
    if (run.spec.purpose.starts_with("suite round") && run.spec.purpose.find("each test twice") == std::string::npos) {
      INFO(run.spec.purpose);
      CHECK(std::set<std::string>(run.spec.tests.begin(), run.spec.tests.end()).size() == run.spec.tests.size());
    }
  CHECK(v["p.A#a1"].evidence.reason.find("created threads") == std::string::npos);
}
