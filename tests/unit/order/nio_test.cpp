#include <catch2/catch.hpp>

#include "order/order_and_nio.hpp"
#include "support/order/fake_suite.hpp"
#include "unit/order/verdict_checks.hpp"

using namespace flakescan;
using namespace flakescan::test_support;
using core::Category;
using core::VerdictKind;

namespace {

// p.N#nio: plain NIO. p.V#nio_victim: NIO, but also a victim of p.P#polluter that runs
// before it in the original order, so the entire-suite mode cannot see it (both of its
// executions fail there). p.W#needs_both fails only when p.P#polluter and itself ran
// before: a hit in entire-suite mode that isolated-method does not confirm.
FakeSuite nio_suite() {
  FakeSuite s;
  s.nio.insert("p.N#nio");
  s.nio.insert("p.V#nio_victim");
  s.victims["p.V#nio_victim"] = {{"p.P#polluter"}, {}, false};
  s.victims["p.W#needs_both"] = {{"p.P#polluter", "p.W#needs_both"}, {}, true};
  s.broken.insert("p.F#broken");
  return s;
}

core::TechniqueInput nio_input() {
  core::TechniqueInput in;
  in.tests = {"p.A#a", "p.N#nio", "p.N#other", "p.P#polluter", "p.V#nio_victim", "p.W#needs_both", "p.F#broken", "p.Z#z"};
  return in;
}

}  // namespace

TEST_CASE("nio entire-suite finds the NIO test and confirms it alone", "[order][nio]") {
  FakeRunLog log(nio_suite());
  auto verdicts = order::detect_nio(nio_input(), log, order::NioMode::entire_suite);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  const auto& v = verdict_of(*verdicts, "p.N#nio");
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::nio);
  CHECK(v.evidence.role == "nio");
  CHECK(v.evidence.reproducer == std::vector<std::string>{"p.N#nio", "p.N#nio"});
  CHECK(v.evidence.passing_order == std::vector<std::string>{"p.N#nio"});
  // One suite run, two confirmations per hit (p.N#nio and p.W#needs_both).
  CHECK(log.runs() == 5);
  CHECK(log.made()[0].spec.tests.size() == 16);

  const auto& w = verdict_of(*verdicts, "p.W#needs_both");
  CHECK(w.category == Category::unknown);
  CHECK(w.evidence.role.empty());

  CHECK(verdict_of(*verdicts, "p.N#other").verdict == VerdictKind::not_flaky);
  CHECK(verdict_of(*verdicts, "p.F#broken").verdict == VerdictKind::not_flaky);
  CHECK(verdict_of(*verdicts, "p.V#nio_victim").category != Category::nio);
}

TEST_CASE("nio: a NIO test before a test that ends the JVM is confirmed once, not once per run of it",
          "[order][nio]") {
  // The entire-suite run is cut at p.X#exits and runs again without it, p.N#nio included:
  // two hits of one test, which must still get exactly two confirmations.
  FakeSuite s;
  s.nio.insert("p.N#nio");
  s.exiting.insert("p.X#exits");
  FakeRunLog log(s);
  core::TechniqueInput in;
  in.tests = {"p.N#nio", "p.X#exits", "p.Z#z"};
  auto verdicts = order::detect_nio(in, log, order::NioMode::entire_suite);
  REQUIRE(verdicts);
  const auto& v = verdict_of(*verdicts, "p.N#nio");
  INFO(v.evidence.reason);
  CHECK(v.category == Category::nio);
  CHECK(v.evidence.details.at("nio_confirmations") == "2/2");
  // The suite run (p.X#exits twice), again without its first and then its second p.X#exits.
  // Both of those begin with p.N#nio twice in a fresh JVM, as a confirmation would: they are
  // its two confirmations, and none is made on top.
  CHECK(log.runs() == 3);
  for (const auto& run : log.made()) CHECK_FALSE(run.spec.purpose.starts_with("nio confirm"));
}

TEST_CASE("nio isolated-method sees the NIO test that a polluter hides", "[order][nio]") {
  FakeRunLog log(nio_suite());
  auto verdicts = order::detect_nio(nio_input(), log, order::NioMode::isolated_method);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  // One run per test, then two confirmations each for p.N#nio and p.V#nio_victim.
  CHECK(log.runs() == 12);
  CHECK(verdict_of(*verdicts, "p.N#nio").category == Category::nio);
  CHECK(verdict_of(*verdicts, "p.V#nio_victim").category == Category::nio);
  CHECK(verdict_of(*verdicts, "p.W#needs_both").verdict == VerdictKind::not_flaky);
}

TEST_CASE("nio isolated-class runs one JVM per class", "[order][nio]") {
  FakeRunLog log(nio_suite());
  auto verdicts = order::detect_nio(nio_input(), log, order::NioMode::isolated_class);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  // 7 classes, then two confirmations each for p.N#nio and p.V#nio_victim.
  CHECK(log.runs() == 11);
  CHECK(verdict_of(*verdicts, "p.N#nio").category == Category::nio);
  CHECK(verdict_of(*verdicts, "p.V#nio_victim").category == Category::nio);
}

TEST_CASE("nio: a timing failure that falls on a second execution is not NIO", "[order][nio]") {
  // Fails in about one run of twenty, wherever it runs; here its one failure falls on the
  // second execution of the first run. Before the repeated run was confirmed, this was `nio`.
  using core::Outcome;
  for (auto mode : {order::NioMode::isolated_method, order::NioMode::entire_suite}) {
    FakeSuite suite;
    suite.timed["p.T#timing"] = {Outcome::pass, Outcome::fail};
    FakeRunLog log(suite);
    core::TechniqueInput in;
    in.tests = {"p.A#a", "p.T#timing"};
    auto verdicts = order::detect_nio(in, log, mode);
    REQUIRE(verdicts);
    check_evidence(log, *verdicts);
    const auto& v = verdict_of(*verdicts, "p.T#timing");
    CHECK(v.verdict == VerdictKind::flaky);  // it did fail: never not_flaky
    CHECK(v.category == Category::unknown);
    CHECK(v.evidence.details.at("nio_confirmations") == "0/2");
    CHECK(v.evidence.reason.find("0 of 2 reruns") != std::string::npos);
  }
  // A repeated run that decides it once more, but not twice, is not enough either.
  FakeSuite suite;
  suite.timed["p.T#timing"] = {Outcome::pass, Outcome::fail, Outcome::pass, Outcome::fail};
  FakeRunLog log(suite);
  core::TechniqueInput in;
  in.tests = {"p.T#timing"};
  auto verdicts = order::detect_nio(in, log, order::NioMode::isolated_method);
  REQUIRE(verdicts);
  CHECK(verdict_of(*verdicts, "p.T#timing").category == Category::unknown);
  CHECK(verdict_of(*verdicts, "p.T#timing").evidence.details.at("nio_confirmations") == "1/2");
  CHECK(verdict_of(*verdicts, "p.T#timing").evidence.reason.find("does not decide its outcome") != std::string::npos);
}

TEST_CASE("nio: a hit after other tests that repeats alone only sometimes is not blamed on those tests",
          "[order][nio]") {
  // Seen on elastic-job (docs/real-projects.md): an asynchronous test failed its second
  // execution in the entire-suite run and then once in two runs twice alone; the reason said
  // "it depends on the tests before it", which its own confirmations contradict.
  using core::Outcome;
  FakeSuite suite;
  suite.timed["p.T#timing"] = {Outcome::pass, Outcome::fail, Outcome::pass, Outcome::fail, Outcome::pass, Outcome::pass};
  FakeRunLog log(suite);
  core::TechniqueInput in;
  in.tests = {"p.A#a", "p.T#timing"};
  auto verdicts = order::detect_nio(in, log, order::NioMode::entire_suite);
  REQUIRE(verdicts);
  check_evidence(log, *verdicts);
  const auto& v = verdict_of(*verdicts, "p.T#timing");
  CHECK(v.category == Category::unknown);
  CHECK(v.evidence.details.at("nio_confirmations") == "1/2");
  CHECK(v.evidence.reason.find("does not decide its outcome") != std::string::npos);
  CHECK(v.evidence.reason.find("tests before it") == std::string::npos);
}

TEST_CASE("nio: a rerun that ended without an outcome neither confirms nor refutes", "[order][nio]") {
  // Seen on elastic-job (docs/real-projects.md): the two confirmations ran at once, both
  // started an embedded ZooKeeper on port 3181, and one JVM exited; the reason said "running
  // it again does not decide its outcome", which no run showed.
  using core::Outcome;
  FakeSuite suite;
  suite.timed["p.Z#zk"] = {Outcome::pass, Outcome::fail, Outcome::pass, Outcome::fail, Outcome::infra, Outcome::infra};
  FakeRunLog log(suite);
  core::TechniqueInput in;
  in.tests = {"p.Z#zk"};
  auto verdicts = order::detect_nio(in, log, order::NioMode::isolated_method);
  REQUIRE(verdicts);
  const auto& v = verdict_of(*verdicts, "p.Z#zk");
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::unknown);
  CHECK(v.evidence.reason.find("not confirmed: 1 of the reruns ended without an outcome") != std::string::npos);
  CHECK(v.evidence.reason.find("does not decide") == std::string::npos);
}

TEST_CASE("nio mode names parse", "[order][nio]") {
  for (auto m : {order::NioMode::isolated_method, order::NioMode::isolated_class, order::NioMode::entire_suite})
    CHECK(order::parse_nio_mode(order::nio_mode_name(m)) == m);
  CHECK_FALSE(order::parse_nio_mode("suite"));
}

// What technique suite hands over for a suspect: its three runs alone, each running it twice
// in a row in a fresh JVM.
std::vector<core::RecordedRun> three_runs_twice_alone(FakeRunLog& log, const std::string& test) {
  std::vector<core::RecordedRun> runs;
  for (int k = 0; k < 3; ++k) {
    auto run = log.run({.tests = {test, test}, .technique = "rerun"});
    REQUIRE(run);
    runs.push_back(*run);
  }
  return runs;
}

TEST_CASE("nio: runs of a test twice alone handed over are its first pass and confirmations", "[order][nio]") {
  // What technique suite hands over: a suspect's three runs alone, each running it twice in a
  // row in a fresh JVM. A NIO test passed then failed in each: no run is made for it, and the
  // runs handed over are not counted in its verdict (suite counted them).
  FakeSuite s;
  s.nio.insert("p.N#nio");
  FakeRunLog log(s);
  const auto observed = three_runs_twice_alone(log, "p.N#nio");
  const int before = log.runs();
  core::TechniqueInput in;
  in.tests = {"p.N#nio"};
  auto verdicts = order::detect_nio(in, log, order::NioMode::isolated_method, observed);
  REQUIRE(verdicts);
  const auto& v = verdict_of(*verdicts, "p.N#nio");
  INFO(v.evidence.reason);
  CHECK(v.category == Category::nio);
  CHECK(v.evidence.details.at("nio_confirmations") == "2/2");
  CHECK(v.evidence.failing_run == observed.front().id);
  CHECK(v.runs.total == 0);
  CHECK(log.runs() == before);
}

TEST_CASE("nio: a hit handed over that its other runs alone do not repeat is not confirmed", "[order][nio]") {
  // A timing test whose second execution failed once, in the first of its runs alone: the
  // other two passed twice, so it is not NIO, and nothing is run for it again.
  FakeSuite s;
  s.timed["p.T#timing"] = {core::Outcome::pass, core::Outcome::fail};
  FakeRunLog log(s);
  const auto observed = three_runs_twice_alone(log, "p.T#timing");
  REQUIRE(core::is_failure(observed.front().report.outcome_at(1)));
  const int before = log.runs();
  core::TechniqueInput in;
  in.tests = {"p.T#timing"};
  auto verdicts = order::detect_nio(in, log, order::NioMode::isolated_method, observed);
  REQUIRE(verdicts);
  const auto& v = verdict_of(*verdicts, "p.T#timing");
  INFO(v.evidence.reason);
  CHECK(v.category != Category::nio);
  CHECK(v.evidence.details.at("nio_confirmations") == "0/2");
  CHECK(log.runs() == before);
}
