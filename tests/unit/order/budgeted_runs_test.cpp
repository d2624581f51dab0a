#include <catch2/catch.hpp>

#include "order/budgeted_runs.hpp"
#include "support/order/fake_suite.hpp"

using namespace flakescan;
using flakescan::order::BudgetedRuns;
using flakescan::test_support::FakeRunLog;
using flakescan::test_support::FakeSuite;

TEST_CASE("outcome_after answers from an earlier run with the same prefix", "[order][runner]") {
  FakeSuite s;
  s.victims["p.V#v"] = {{"p.P#p"}, {}, false};
  FakeRunLog log(s);
  core::Budget budget;
  BudgetedRuns r(log, budget, "order");
  REQUIRE(r.run({"p.P#p", "p.V#v", "p.X#x"}, "first"));
  CHECK(log.runs() == 1);
  auto o = r.outcome_after({"p.P#p", "p.V#v"}, "probe");
  REQUIRE(o);
  CHECK(o->outcome == core::Outcome::fail);
  CHECK(log.runs() == 1);  // cached
  auto alone = r.outcome_after({"p.V#v"}, "probe");
  REQUIRE(alone);
  CHECK(alone->outcome == core::Outcome::pass);
  CHECK(log.runs() == 2);  // new prefix: a real run
}

TEST_CASE("the run budget stops the runner", "[order][runner]") {
  FakeRunLog log(FakeSuite{});
  core::Budget budget;
  budget.max_runs = 2;
  BudgetedRuns r(log, budget, "order");
  REQUIRE(r.run({"p.A#a"}, "1"));
  std::vector<core::RunSpec> specs(3);
  for (auto& sp : specs) sp.tests = {"p.A#a"};
  auto made = r.run_all(specs);
  REQUIRE(made);
  CHECK(made->size() == 1);
  CHECK(log.runs() == 2);
  auto more = r.run({"p.A#a"}, "3");
  REQUIRE_FALSE(more);
  CHECK(more.error().code == util::Errc::too_large);
}

TEST_CASE("a run cut short by an exiting test runs again without it", "[order][runner]") {
  FakeSuite s;
  s.exiting.insert("p.E#exit");
  FakeRunLog log(s);
  BudgetedRuns r(log, core::Budget{}, "order");
  auto made = r.run({"p.A#a", "p.E#exit", "p.B#b", "p.C#c"}, "order");
  REQUIRE(made);
  REQUIRE(made->size() == 2);
  CHECK(r.at((*made)[1]).spec.tests == std::vector<std::string>{"p.A#a", "p.B#b", "p.C#c"});
  CHECK(r.at((*made)[1]).spec.purpose == "order (again without p.E#exit, which ended the JVM)");
  CHECK(r.at((*made)[1]).report.outcome_at(2) == core::Outcome::pass);
  auto obs = r.observations();
  CHECK(obs["p.E#exit"].size() == 1);
  CHECK(obs["p.E#exit"][0].outcome == core::Outcome::infra);
}

TEST_CASE("a victim after an exiting test still runs after its polluter", "[order][runner]") {
  // The polluter comes before the test that ends the JVM, the victim after it (as in
  // examples/jvm-layouts' reverse order): a JVM that started after the exit lost the pollution.
  FakeSuite s;
  s.exiting.insert("p.E#exit");
  s.victims["p.V#v"] = {{"p.P#p"}, {}, false};
  FakeRunLog log(s);
  BudgetedRuns r(log, core::Budget{}, "order");
  std::vector<core::RunSpec> specs(1);
  specs[0].tests = {"p.P#p", "p.E#exit", "p.V#v"};
  auto made = r.run_all(specs);
  REQUIRE(made);
  REQUIRE(made->size() == 2);
  CHECK(r.at((*made)[1]).spec.tests == std::vector<std::string>{"p.P#p", "p.V#v"});
  CHECK(r.at((*made)[1]).report.outcome_at(1) == core::Outcome::fail);
}

TEST_CASE("cancellation is reported as cancelled", "[order][runner]") {
  FakeRunLog log(FakeSuite{});
  log.cancel_after(0);
  BudgetedRuns r(log, core::Budget{}, "order");
  auto made = r.run({"p.A#a"}, "x");
  REQUIRE_FALSE(made);
  CHECK(made.error().code == util::Errc::cancelled);
}

TEST_CASE("runs handed back unrun end the budget and are not kept", "[order][runner]") {
  FakeRunLog log(FakeSuite{});
  log.unrun_after(1);
  BudgetedRuns r(log, core::Budget{}, "order");
  REQUIRE(r.run({"p.A#a"}, "1"));
  std::vector<core::RunSpec> specs(2);
  for (auto& sp : specs) sp.tests = {"p.A#a"};
  auto made = r.run_all(specs);
  REQUIRE_FALSE(made);
  CHECK(made.error().code == util::Errc::timeout);
  CHECK(r.runs() == 1);
  REQUIRE(r.exhausted());
}
