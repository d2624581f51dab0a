#include <catch2/catch.hpp>

#include <set>

#include "order/order_and_nio.hpp"
#include "support/order/fake_suite.hpp"
#include "unit/order/verdict_checks.hpp"

using namespace flakescan;
using namespace flakescan::test_support;
using core::Category;
using core::VerdictKind;

namespace {

FakeSuite example_suite() {
  FakeSuite s;
  s.victims["p.A#victim"] = {{"p.C#polluter"}, {"p.C#cleaner"}, false};
  s.brittles["p.B#brittle"] = {"p.D#setter"};
  s.nod.insert("p.E#nod");
  s.broken.insert("p.F#broken");
  return s;
}

std::vector<std::string> example_tests() {
  std::vector<std::string> t{"p.A#a1",     "p.A#victim",  "p.A#a3", "p.B#b1",   "p.B#brittle", "p.C#polluter",
                             "p.C#c2",     "p.C#cleaner", "p.D#setter", "p.D#d2", "p.E#nod",    "p.F#broken"};
  for (int i = 0; i < 8; ++i) t.push_back("p.G#g" + std::to_string(i));
  return t;
}

core::TechniqueInput input_for(std::vector<std::string> tests, int orders = 6) {
  core::TechniqueInput in;
  in.tests = std::move(tests);
  in.budget.max_orders = orders;
  in.seed = 11;
  return in;
}

}  // namespace

TEST_CASE("order finds the victim, its minimal polluter and its cleaner", "[order][od]") {
  FakeRunLog log(example_suite());
  auto verdicts = order::detect_order_dependent(input_for(example_tests()), log);
  REQUIRE(verdicts);
  CHECK(verdicts->size() == example_tests().size());
  check_evidence(log, *verdicts);

  const auto& v = verdict_of(*verdicts, "p.A#victim");
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::order_dependent);
  CHECK(v.evidence.role == "victim");
  CHECK(v.evidence.reproducer == std::vector<std::string>{"p.C#polluter", "p.A#victim"});
  CHECK(v.evidence.passing_order == std::vector<std::string>{"p.A#victim"});
  CHECK(v.evidence.details.at("polluters") == "p.C#polluter");
  CHECK(v.evidence.details.at("cleaners") == "p.C#cleaner");
  CHECK(v.evidence.related == std::vector<std::string>{"p.C#polluter", "p.C#cleaner"});
}

TEST_CASE("order finds the brittle and its state-setter", "[order][od]") {
  FakeRunLog log(example_suite());
  auto verdicts = order::detect_order_dependent(input_for(example_tests()), log);
  REQUIRE(verdicts);
  const auto& b = verdict_of(*verdicts, "p.B#brittle");
  CHECK(b.verdict == VerdictKind::flaky);
  CHECK(b.category == Category::order_dependent);
  CHECK(b.evidence.role == "brittle");
  CHECK(b.evidence.reproducer == std::vector<std::string>{"p.B#brittle"});
  CHECK(b.evidence.passing_order == std::vector<std::string>{"p.D#setter", "p.B#brittle"});
  CHECK(b.evidence.details.at("state_setters") == "p.D#setter");
}

TEST_CASE("order tells non-order-dependent flakiness apart and calls no stable test flaky", "[order][od]") {
  FakeRunLog log(example_suite());
  auto verdicts = order::detect_order_dependent(input_for(example_tests()), log);
  REQUIRE(verdicts);
  const auto& nod = verdict_of(*verdicts, "p.E#nod");
  CHECK(nod.category != Category::order_dependent);
  CHECK(nod.evidence.role.empty());
  CHECK(nod.verdict == VerdictKind::flaky);  // both outcomes were observed in the same order
  CHECK(nod.category == Category::unknown);

  const auto& broken = verdict_of(*verdicts, "p.F#broken");
  CHECK(broken.verdict == VerdictKind::not_flaky);
  CHECK(broken.runs.failed == broken.runs.total);
  for (const char* stable : {"p.A#a1", "p.C#polluter", "p.C#cleaner", "p.D#setter", "p.G#g3"}) {
    INFO(stable);
    CHECK(verdict_of(*verdicts, stable).verdict == VerdictKind::not_flaky);
  }
}

TEST_CASE("order keeps both polluters when the victim needs them together", "[order][od]") {
  FakeSuite s;
  s.victims["p.Z#victim"] = {{"p.A#first", "p.M#second"}, {}, true};
  std::vector<std::string> tests{"p.Z#victim"};
  for (int i = 0; i < 12; ++i) tests.push_back("p.K" + std::to_string(i) + "#k");
  tests.insert(tests.begin() + 4, "p.A#first");
  tests.insert(tests.begin() + 9, "p.M#second");
  FakeRunLog log(s);
  auto verdicts = order::detect_order_dependent(input_for(tests), log);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  const auto& v = verdict_of(*verdicts, "p.Z#victim");
  REQUIRE(v.category == Category::order_dependent);
  CHECK(v.evidence.reproducer.size() == 3);
  CHECK(v.evidence.related.size() == 2);
}

TEST_CASE("order survives a test that ends the JVM", "[order][od]") {
  auto s = example_suite();
  s.exiting.insert("p.X#exits");
  auto tests = example_tests();
  tests.insert(tests.begin(), "p.X#exits");  // first: the original order continues after it
  FakeRunLog log(s);
  auto verdicts = order::detect_order_dependent(input_for(tests), log);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  CHECK(verdict_of(*verdicts, "p.X#exits").verdict == VerdictKind::could_not_run);
  // Runs reached it: the verdict says how they ended, not that none did.
  CHECK(verdict_of(*verdicts, "p.X#exits").evidence.reason == "no run gave it an outcome: System.exit(3) in p.X#exits");
  CHECK(verdict_of(*verdicts, "p.A#victim").evidence.role == "victim");
  CHECK(verdict_of(*verdicts, "p.B#brittle").evidence.role == "brittle");
  CHECK(verdict_of(*verdicts, "p.G#g7").verdict == VerdictKind::not_flaky);
}

TEST_CASE("order respects the run budget and still gives honest verdicts", "[order][od]") {
  for (int budget : {1, 2, 4, 7, 9, 12}) {
    INFO("max_runs " << budget);
    FakeRunLog log(example_suite());
    auto in = input_for(example_tests());
    in.budget.max_runs = budget;
    auto verdicts = order::detect_order_dependent(in, log);
    REQUIRE(verdicts);
    CHECK(log.runs() <= budget);
    check_evidence(log, *verdicts);
  }
}

TEST_CASE("order reuses runs: the whole example takes few runs", "[order][od]") {
  FakeRunLog log(example_suite());
  auto verdicts = order::detect_order_dependent(input_for(example_tests()), log);
  REQUIRE(verdicts);
  // 6 orders + confirmations + alone runs + minimisation + cleaner search.
  CHECK(log.runs() < 45);
  CHECK(log.planned() == log.runs());
}

TEST_CASE("order passes cancellation on", "[order][od]") {
  FakeRunLog log(example_suite());
  log.cancel_after(8);
  auto verdicts = order::detect_order_dependent(input_for(example_tests()), log);
  REQUIRE_FALSE(verdicts);
  CHECK(verdicts.error().code == util::Errc::cancelled);
}

TEST_CASE("order stops cleanly when the scan's time budget hands back unrun runs", "[order][od]") {
  for (int after : {0, 3, 8, 14}) {
    INFO("unrun after " << after);
    FakeRunLog log(example_suite());
    log.unrun_after(after);
    auto verdicts = order::detect_order_dependent(input_for(example_tests()), log);
    REQUIRE(verdicts);
    CHECK(verdicts->size() == example_tests().size());
    check_evidence(log, *verdicts);
  }
}

TEST_CASE("order: a timing test that fails alone and passes after another is not brittle", "[order][od]") {
  // Its failures fall where they fall: passes in the original order, then fails four times
  // in a row (reverse order, both confirmations, its first run after p.A#a), then passes.
  // Before the passing order was confirmed this was "fails alone and passes after p.A#a".
  using core::Outcome;
  FakeSuite suite;
  suite.timed["p.T#timing"] = {Outcome::pass, Outcome::fail, Outcome::fail, Outcome::fail, Outcome::fail};
  FakeRunLog log(suite);
  auto verdicts = order::detect_order_dependent(input_for({"p.A#a", "p.T#timing"}, 2), log, order::OrderOptions{});
  REQUIRE(verdicts);
  REQUIRE(log.made().size() >= 2);
  REQUIRE(log.made()[0].spec.tests == std::vector<std::string>{"p.A#a", "p.T#timing"});
  REQUIRE(log.made()[1].spec.tests == std::vector<std::string>{"p.T#timing", "p.A#a"});
  check_evidence(log, *verdicts);
  const auto& v = verdict_of(*verdicts, "p.T#timing");
  INFO(v.evidence.reason);
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::unknown);
  CHECK(v.evidence.role.empty());
  CHECK(v.evidence.reason.find("not decided by the tests before it") != std::string::npos);
  CHECK(verdict_of(*verdicts, "p.A#a").verdict == VerdictKind::not_flaky);
}

TEST_CASE("order: a test that fails in an order and both passes and fails alone is not a victim", "[order][od]") {
  // Fails after p.A#a three times (the order and its two confirmations), passes alone in the
  // reverse order, then fails alone: the tests before it do not decide its outcome.
  using core::Outcome;
  FakeSuite suite;
  suite.timed["p.T#timing"] = {Outcome::fail, Outcome::pass, Outcome::fail, Outcome::fail, Outcome::fail};
  FakeRunLog log(suite);
  auto verdicts = order::detect_order_dependent(input_for({"p.A#a", "p.T#timing"}, 2), log, order::OrderOptions{});
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  const auto& v = verdict_of(*verdicts, "p.T#timing");
  INFO(v.evidence.reason);
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::unknown);
  CHECK(v.evidence.reason.find("failed and passed when run alone") != std::string::npos);
  CHECK(v.evidence.reproducer == std::vector<std::string>{"p.T#timing"});
}

// What technique suite hands over for p.A#victim: its run alone (passing) and an order it
// failed in; `order` then runs with only the victim in question. The runs made before it
// started are counted in `before`.
struct HandedOver {
  core::RecordedRun failing;
  int before = 0;
  std::vector<core::Verdict> verdicts;
};
HandedOver hand_over(FakeRunLog& log, std::vector<std::string> failing_order) {
  auto alone = log.run({.tests = {"p.A#victim"}, .technique = "rerun"});
  auto failing = log.run({.tests = std::move(failing_order), .technique = "suite"});
  REQUIRE(alone);
  REQUIRE(failing);
  HandedOver out{*failing, log.runs(), {}};
  order::OrderOptions options;
  options.only = {"p.A#victim"};
  options.observed = {*alone, *failing};
  auto verdicts = order::detect_order_dependent(input_for(failing->spec.tests), log, options);
  REQUIRE(verdicts);
  out.verdicts = std::move(*verdicts);
  return out;
}

TEST_CASE("order: runs handed over take the place of the detection orders and are not counted again", "[order][od]") {
  FakeRunLog log(example_suite());
  auto [failing, before, verdicts] = hand_over(log, {"p.G#g1", "p.C#polluter", "p.G#g2", "p.A#victim"});
  core::Verdict v;
  for (const auto& x : verdicts)
    if (x.test == "p.A#victim") v = x;
  INFO(v.evidence.reason);
  CHECK(v.category == Category::order_dependent);
  CHECK(v.evidence.role == "victim");
  CHECK(v.evidence.related.at(0) == "p.C#polluter");
  // No detection order ran: every run made afterwards confirms, runs it alone (one run alone
  // was handed over, three are wanted), minimises or looks for a cleaner.
  for (size_t i = size_t(before); i < log.made().size(); ++i) {
    const auto& purpose = log.made()[i].spec.purpose;
    INFO(purpose);
    CHECK((purpose.starts_with("confirm") || purpose.starts_with("alone") || purpose.starts_with("minimise") ||
           purpose.starts_with("reproduce") || purpose.starts_with("cleaner")));
  }
  // The runs handed over were counted by whoever made them.
  CHECK(v.runs.total == log.runs() - before);
}

TEST_CASE("order: a failing order that is minimal already is not confirmed twice", "[order][od]") {
  // What suite hands over after another suspect's isolation found the polluter: the victim
  // alone and (polluter, victim). Phase 2 reruns that order twice; minimising keeps it whole,
  // and those two reruns are its confirmation: no further run of it.
  FakeRunLog log(example_suite());
  auto [failing, before, verdicts] = hand_over(log, {"p.C#polluter", "p.A#victim"});
  const auto& v = verdict_of(verdicts, "p.A#victim");
  INFO(v.evidence.reason);
  CHECK(v.category == Category::order_dependent);
  CHECK(v.evidence.reproducer == std::vector<std::string>{"p.C#polluter", "p.A#victim"});
  int runs_of_the_order = 0;
  for (size_t i = size_t(before); i < log.made().size(); ++i) {
    const auto& run = log.made()[i];
    INFO(run.spec.purpose);
    CHECK_FALSE(run.spec.purpose.find("reproduce") != std::string::npos);
    if (run.spec.tests == failing.spec.tests) {
      ++runs_of_the_order;
      CHECK(core::is_failure(run.report.outcome_at(1)));
    }
  }
  CHECK(runs_of_the_order == 2);  // phase 2's reruns, and no more
}

TEST_CASE("order: runs alone handed over that failed each time are a brittle test's confirmation", "[order][od]") {
  // What suite hands over for a brittle suspect: its three runs alone (each failing) and the
  // order it passed in. Phase 2 confirms the failing order, which is the test alone: the
  // other two runs alone are reruns of exactly that order, so no run of it is made again.
  FakeRunLog log(example_suite());
  std::vector<core::RecordedRun> observed;
  for (int k = 0; k < 3; ++k) {
    auto alone = log.run({.tests = {"p.B#brittle"}, .technique = "rerun"});
    REQUIRE(alone);
    REQUIRE(core::is_failure(alone->report.outcome_at(0)));
    observed.push_back(*alone);
  }
  auto passing = log.run({.tests = {"p.G#g1", "p.D#setter", "p.G#g2", "p.B#brittle"}, .technique = "suite"});
  REQUIRE(passing);
  REQUIRE(passing->report.outcome_at(3) == core::Outcome::pass);
  observed.push_back(*passing);
  const int before = log.runs();
  order::OrderOptions options;
  options.only = {"p.B#brittle"};
  options.observed = observed;
  auto verdicts = order::detect_order_dependent(input_for(passing->spec.tests), log, options);
  REQUIRE(verdicts);
  const auto& b = verdict_of(*verdicts, "p.B#brittle");
  INFO(b.evidence.reason);
  CHECK(b.category == Category::order_dependent);
  CHECK(b.evidence.role == "brittle");
  CHECK(b.evidence.passing_order == std::vector<std::string>{"p.D#setter", "p.B#brittle"});
  for (size_t i = size_t(before); i < log.made().size(); ++i) {
    const auto& run = log.made()[i];
    INFO(run.spec.purpose);
    CHECK(run.spec.tests != std::vector<std::string>{"p.B#brittle"});  // not alone again
    CHECK_FALSE(run.spec.purpose.starts_with("confirm 1: rerun of"));
  }
  // Minimising (one probe or more) and the minimal order's two confirmations.
  CHECK(log.runs() - before >= 3);
}

TEST_CASE("a victim seen failing only in the technique's own later runs is followed up", "[order][od]") {
  // Original and reverse orders only. p.V2#v fails after p.P2#p unless p.C#c runs between them,
  // as it does in the original order, so neither detection order shows it. p.V1#v needs both
  // polluters; minimising them runs p.P2#p, p.V2#v, p.P1#p, p.V1#v: p.V2#v fails there.
  FakeSuite s;
  s.victims["p.V1#v"] = {{"p.P2#p", "p.P1#p"}, {}, true};
  s.victims["p.V2#v"] = {{"p.P2#p"}, {"p.C#c"}, false};
  FakeRunLog log(s);
  auto verdicts = order::detect_order_dependent(input_for({"p.P2#p", "p.C#c", "p.V2#v", "p.P1#p", "p.V1#v"}, 2), log);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  const auto& v1 = verdict_of(*verdicts, "p.V1#v");
  CHECK(v1.category == Category::order_dependent);
  const auto& v2 = verdict_of(*verdicts, "p.V2#v");
  INFO(v2.evidence.reason);
  CHECK(v2.verdict == VerdictKind::flaky);
  CHECK(v2.category == Category::order_dependent);
  CHECK(v2.evidence.role == "victim");
  CHECK(v2.evidence.reproducer == std::vector<std::string>{"p.P2#p", "p.V2#v"});
  CHECK(v2.evidence.details.at("cleaners") == "p.C#c");
  CHECK_THAT(v2.evidence.details.at("detected_in"), Catch::Contains("minimise polluters of p.V1#v"));
}

TEST_CASE("order: victims of one polluter share their polluter and cleaners, searched once", "[order][od]") {
  // Issue 29 item 9: five victims of one polluter, one cleaner. The first victim's delta
  // debugging and cleaner search find them; the others probe that polluter and try that
  // cleaner first, one run each, and need no search of their own.
  FakeSuite s;
  std::vector<std::string> tests{"p.P#polluter"};
  for (int i = 0; i < 5; ++i) {
    const std::string victim = "p.V" + std::to_string(i) + "#v";
    s.victims[victim] = {{"p.P#polluter"}, {"p.K#cleaner"}, false};
    tests.push_back(victim);
  }
  tests.push_back("p.K#cleaner");
  for (int i = 0; i < 16; ++i) tests.push_back("p.G" + std::to_string(i % 4) + "#g" + std::to_string(i));
  FakeRunLog log(s);
  auto verdicts = order::detect_order_dependent(input_for(tests, 8), log);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  int victims = 0, reused = 0;
  for (int i = 0; i < 5; ++i) {
    const auto& v = verdict_of(*verdicts, "p.V" + std::to_string(i) + "#v");
    INFO(v.test << ": " << v.evidence.reason);
    if (v.evidence.role != "victim") continue;
    ++victims;
    CHECK(v.evidence.details.at("cleaners") == "p.K#cleaner");
    if (v.evidence.details.contains("cleaners_from")) {
      ++reused;
      CHECK(v.evidence.details.at("minimisation_runs") == "1");  // the polluter the first victim got, probed once
      CHECK(v.evidence.details.at("minimal") == "true");
      CHECK_THAT(v.evidence.reason, Catch::Contains("which has the same polluters"));
    }
  }
  REQUIRE(victims >= 2);
  CHECK(reused == victims - 1);
  std::set<std::string> searched;  // victims whose cleaners were searched by group testing
  for (const auto& run : log.made())
    if (run.spec.purpose.starts_with("cleaner search for ")) searched.insert(run.spec.purpose.substr(19));
  CHECK(searched.size() == 1);
}

TEST_CASE("order: a budget that ends before the cleaner search says so in the verdict", "[order][od]") {
  // The run budget holds detection, confirmation and classification but not the search.
  FakeSuite s;
  s.victims["p.V#v"] = {{"p.P#polluter"}, {"p.K#cleaner"}, false};
  std::vector<std::string> tests{"p.P#polluter", "p.V#v", "p.K#cleaner"};
  for (int i = 0; i < 8; ++i) tests.push_back("p.G" + std::to_string(i % 2) + "#g" + std::to_string(i));
  // First, how many runs the whole technique takes and how many of them search cleaners.
  int total = 0, cleaner_runs = 0;
  {
    FakeRunLog log(s);
    auto verdicts = order::detect_order_dependent(input_for(tests, 4), log);
    REQUIRE(verdicts);
    REQUIRE(verdict_of(*verdicts, "p.V#v").evidence.role == "victim");
    total = log.runs();
    for (const auto& run : log.made()) cleaner_runs += run.spec.purpose.starts_with("cleaner");
  }
  REQUIRE(cleaner_runs > 0);
  FakeRunLog log(s);
  auto in = input_for(tests, 4);
  in.budget.max_runs = total - cleaner_runs;
  auto verdicts = order::detect_order_dependent(in, log);
  REQUIRE(verdicts);
  const auto& v = verdict_of(*verdicts, "p.V#v");
  INFO(v.evidence.reason);
  CHECK(v.evidence.role == "victim");
  CHECK(v.evidence.details.at("cleaners").empty());
  REQUIRE(v.evidence.details.contains("cleaners_unsearched"));
  CHECK(v.evidence.details.at("cleaners_unsearched").starts_with("cut short: "));
  CHECK_THAT(v.evidence.reason, Catch::Contains("cleaner search cut short"));
}

TEST_CASE("order: cleaners that are every test of one class name the class (its setup may be what cleans)", "[order][od]") {
  // Every test of p.K cleans (as a @BeforeClass that resets the state would): the search stops
  // at three, and one more run shows the fourth cleans too. Of p.L only two of three clean.
  FakeSuite s;
  s.victims["p.V#v"] = {{"p.P#polluter"}, {"p.K#a", "p.K#b", "p.K#c", "p.K#d"}, false};
  s.victims["p.W#w"] = {{"p.Q#polluter"}, {"p.L#a", "p.L#b"}, false};
  const std::vector<std::string> tests{"p.P#polluter", "p.V#v", "p.K#a", "p.K#b", "p.K#c", "p.K#d",
                                       "p.Q#polluter", "p.W#w", "p.L#a", "p.L#b", "p.L#c"};
  FakeRunLog log(s);
  auto verdicts = order::detect_order_dependent(input_for(tests, 4), log);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  const auto& v = verdict_of(*verdicts, "p.V#v");
  INFO(v.evidence.reason);
  REQUIRE(v.evidence.role == "victim");
  CHECK(v.evidence.details.at("cleaning_class") == "p.K");
  CHECK_THAT(v.evidence.reason, Catch::Contains("every test of p.K tried (4) cleans"));
  const auto& w = verdict_of(*verdicts, "p.W#w");
  INFO(w.evidence.reason);
  REQUIRE(w.evidence.role == "victim");
  CHECK(w.evidence.details.at("cleaners") == "p.L#a, p.L#b");
  CHECK_FALSE(w.evidence.details.contains("cleaning_class"));
}

TEST_CASE("order: minimising tries the static-state writers among the tests before the victim first", "[order][od]") {
  std::vector<std::string> failing;
  for (int i = 0; i < 15; ++i) failing.push_back("p.G#g" + std::to_string(i));
  failing.insert(failing.begin() + 9, "p.C#polluter");
  failing.push_back("p.A#victim");
  auto minimise_runs = [&](const std::set<std::string>& writers) {
    FakeRunLog log(example_suite());
    auto alone = log.run({.tests = {"p.A#victim"}, .technique = "rerun"});
    auto failed = log.run({.tests = failing, .technique = "suite"});
    REQUIRE(alone);
    REQUIRE(failed);
    order::OrderOptions options;
    options.only = {"p.A#victim"};
    options.observed = {*alone, *failed};
    options.writers = writers;
    auto verdicts = order::detect_order_dependent(input_for(failing), log, options);
    REQUIRE(verdicts);
    const auto& v = verdict_of(*verdicts, "p.A#victim");
    CHECK(v.category == Category::order_dependent);
    CHECK(v.evidence.reproducer == std::vector<std::string>{"p.C#polluter", "p.A#victim"});
    int n = 0;
    for (const auto& run : log.made()) n += run.spec.purpose.starts_with("minimise") ? 1 : 0;
    return n;
  };
  const int plain = minimise_runs({});
  // The polluter among two writers: one run of the writers, then delta debugging over two.
  const int writers = minimise_runs({"p.C#polluter", "p.G#g3"});
  // Writers that are not the polluter: one run to see that, then the same search as without.
  const int wrong = minimise_runs({"p.G#g3", "p.G#g4"});
  CHECK(writers <= 3);
  CHECK(writers < plain);
  CHECK(wrong == plain + 1);
}

namespace {

// What technique suite hands over for `test` with confirm_by_minimal_order: its three runs alone
// and an order it failed in; `order` then runs with only it in question. The runs made before
// it started are counted in `before`.
HandedOver hand_over_to_minimal(FakeRunLog& log, const std::string& test, std::vector<std::string> failing_order,
                                std::set<std::string> writers = {}) {
  std::vector<core::RecordedRun> observed;
  for (int k = 0; k < 3; ++k) {
    auto alone = log.run({.tests = {test}, .technique = "rerun"});
    REQUIRE(alone);
    REQUIRE(alone->report.outcome_at(0) == core::Outcome::pass);
    observed.push_back(*alone);
  }
  auto failing = log.run({.tests = std::move(failing_order), .technique = "suite"});
  REQUIRE(failing);
  REQUIRE(core::is_failure(failing->report.outcome_at(failing->spec.tests.size() - 1)));
  observed.push_back(*failing);
  HandedOver out{*failing, log.runs(), {}};
  order::OrderOptions options;
  options.only = {test};
  options.observed = observed;
  options.writers = std::move(writers);
  options.confirm_by_minimal_order = true;
  auto verdicts = order::detect_order_dependent(input_for(failing->spec.tests), log, options);
  REQUIRE(verdicts);
  out.verdicts = std::move(*verdicts);
  return out;
}

int runs_named(const FakeRunLog& log, int from, const std::string& start) {
  int n = 0;
  for (size_t i = size_t(from); i < log.made().size(); ++i) n += log.made()[i].spec.purpose.starts_with(start) ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("order: a victim that passed its runs alone is confirmed by its minimal order, not its failing order too",
          "[order][od]") {
  FakeRunLog log(example_suite());
  auto [failing, before, verdicts] = hand_over_to_minimal(log, "p.A#victim", {"p.G#g1", "p.C#polluter", "p.G#g2", "p.A#victim"});
  const auto& v = verdict_of(verdicts, "p.A#victim");
  INFO(v.evidence.reason);
  CHECK(v.category == Category::order_dependent);
  CHECK(v.evidence.role == "victim");
  CHECK(v.evidence.reproducer == std::vector<std::string>{"p.C#polluter", "p.A#victim"});
  CHECK(runs_named(log, before, "confirm 1: rerun of") == 0);  // the failing order is not rerun
  CHECK(runs_named(log, before, "confirm") == 2);              // the minimal order is, twice
  for (size_t i = size_t(before); i < log.made().size(); ++i)
    if (log.made()[i].spec.purpose.starts_with("confirm")) CHECK(log.made()[i].spec.tests == v.evidence.reproducer);
}

TEST_CASE("order: when the minimal order does not confirm, the failing order is rerun after all", "[order][od]") {
  using core::Outcome;
  // p.T#t: 3 passes alone, a failure after p.A#a (handed over), a failure after p.A#a alone
  // (the minimisation's probe of the one writer), then a pass in the minimal order's first
  // confirmation. Then the failing order's two reruns: fail, fail (order-dependent, no
  // polluter named) or pass (not order-dependent).
  for (bool fails_again : {true, false}) {
    FakeSuite suite;
    suite.timed["p.T#t"] = {Outcome::pass, Outcome::pass, Outcome::pass, Outcome::fail, Outcome::fail, Outcome::pass,
                            fails_again ? Outcome::fail : Outcome::pass, fails_again ? Outcome::fail : Outcome::pass};
    FakeRunLog log(suite);
    log.set_parallelism(1);
    auto [failing, before, verdicts] = hand_over_to_minimal(log, "p.T#t", {"p.G#g1", "p.A#a", "p.G#g2", "p.T#t"}, {"p.A#a"});
    const auto& v = verdict_of(verdicts, "p.T#t");
    INFO(fails_again << ": " << v.evidence.reason);
    CHECK(v.verdict == VerdictKind::flaky);
    CHECK(v.evidence.role.empty());
    CHECK(v.evidence.related.empty());
    CHECK(runs_named(log, before, "confirm 1: reproduce p.T#t") == 1);  // it passed: no second
    CHECK(runs_named(log, before, "confirm 1: rerun of") == 1);
    CHECK(runs_named(log, before, "confirm 2: rerun of") == 1);
    if (fails_again) {
      CHECK(v.category == Category::order_dependent);
      CHECK(v.evidence.reason.starts_with("failed again in 2 reruns of"));
      CHECK(v.evidence.reason.find("; the order p.A#a, p.T#t gave the same outcome in 0 of 2 reruns, so no polluter is named") !=
            std::string::npos);
    } else {
      CHECK(v.category == Category::unknown);
      CHECK(v.evidence.reason.find("passed when the same order was rerun: flaky, but not order-dependent") != std::string::npos);
    }
  }
}
