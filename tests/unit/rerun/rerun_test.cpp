#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "rerun/outcome_tally.hpp"
#include "rerun/rerun.hpp"

using namespace flakescan;

namespace {

// A RunLog whose outcomes come from a per-test script: outcome of the k-th run of a test.
class ScriptedRunLog final : public core::RunLog {
 public:
  std::map<std::string, std::vector<core::Outcome>> script;
  std::map<std::string, int> seen;
  int planned = 0;
  std::int64_t next_id = 1;
  int time_for_runs = -1;  // >= 0: later runs come back unmade, as when the scan's time runs out
  std::set<std::string> hangs;  // tests whose every run is killed at the run deadline
  std::vector<std::size_t> batches;

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    if (time_for_runs >= 0 && next_id > time_for_runs) {
      core::RecordedRun unmade{.id = 0, .spec = spec};
      unmade.report.infra_reason = "not run: the scan's time budget ran out";
      return unmade;
    }
    core::RecordedRun r{.id = next_id++, .spec = spec};
    r.report.timed_out = std::any_of(spec.tests.begin(), spec.tests.end(), [&](const auto& t) { return hangs.count(t) > 0; });
    for (const auto& t : spec.tests) {
      if (hangs.count(t)) {  // killed at the run deadline while it ran: no outcome
        r.report.infra_reason = "the JVM was killed at the 60 s deadline";
        r.report.results.push_back({.test = t, .outcome = core::Outcome::infra, .message = r.report.infra_reason});
        continue;
      }
      auto& outcomes = script[t];
      int k = seen[t]++;
      core::Outcome o = outcomes.empty() ? core::Outcome::pass : outcomes[size_t(k) % outcomes.size()];
      core::TestResult res{.test = t, .outcome = o};
      if (core::is_failure(o)) res.signature = k % 2 ? "E at a" : "E at b";
      r.report.results.push_back(res);
    }
    return r;
  }
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override {
    batches.push_back(specs.size());
    std::vector<core::RecordedRun> out;
    for (const auto& s : specs) out.push_back(run(s).value());
    return out;
  }
  int parallelism() const override { return 1; }
  bool cancelled() const override { return false; }
  void plan(int n) override { planned += n; }
};

using core::Outcome;

}  // namespace

TEST_CASE("rerun calls a test flaky only with a pass and a failure", "[rerun]") {
  ScriptedRunLog log;
  log.script["p.T#flaky"] = {Outcome::pass, Outcome::fail, Outcome::pass};
  log.script["p.T#broken"] = {Outcome::fail};
  log.script["p.T#stable"] = {Outcome::pass};
  log.script["p.T#crashy"] = {Outcome::infra, Outcome::pass};
  core::TechniqueInput input{.tests = {"p.T#flaky", "p.T#broken", "p.T#stable", "p.T#crashy"}};
  input.budget.runs_per_test = 6;
  auto verdicts = rerun::run_rerun(input, log);
  REQUIRE(verdicts);
  REQUIRE(verdicts->size() == 4);
  CHECK(log.planned == 24);

  const auto& flaky = (*verdicts)[0];
  CHECK(flaky.verdict == core::VerdictKind::flaky);
  CHECK(flaky.category == core::Category::unknown);
  CHECK(flaky.runs.passed == 4);
  CHECK(flaky.runs.failed == 2);
  CHECK(flaky.evidence.passing_run.has_value());
  CHECK(flaky.evidence.failing_run.has_value());
  CHECK(flaky.evidence.reason == "2 out of 6 runs failed");

  CHECK((*verdicts)[1].verdict == core::VerdictKind::failing);
  CHECK((*verdicts)[1].evidence.reason.find("a broken test, not a flaky one") != std::string::npos);
  REQUIRE((*verdicts)[1].evidence.failures.size() == 2);  // two signatures, alternating
  CHECK((*verdicts)[1].evidence.failures[0].count == 3);
  CHECK((*verdicts)[2].verdict == core::VerdictKind::not_flaky);
  // Infra outcomes never make a test flaky.
  CHECK((*verdicts)[3].verdict == core::VerdictKind::not_flaky);
  CHECK((*verdicts)[3].runs.infra == 3);
}

TEST_CASE("a test that never ran could not run, with the reason", "[rerun]") {
  core::RecordedRun run{.id = 1};
  run.report.results.push_back({.test = "p.T#gone", .outcome = Outcome::not_found, .message = "class not found"});
  rerun::OutcomeTally tally;
  tally.add(run);
  auto v = rerun::verdict_from_tally("p.T#gone", tally.find("p.T#gone"), "rerun");
  CHECK(v.verdict == core::VerdictKind::could_not_run);
  CHECK(v.evidence.reason == "class not found");
  CHECK(v.runs.total == 0);
  CHECK(rerun::verdict_from_tally("p.T#x", nullptr, "rerun").verdict == core::VerdictKind::could_not_run);
}

TEST_CASE("rerun specs: fresh JVM per run, or rounds in one JVM, within the budget", "[rerun]") {
  core::TechniqueInput input{.tests = {"a.B#c", "a.B#d"}};
  input.budget.runs_per_test = 3;
  auto fresh = rerun::rerun_specs(input);
  REQUIRE(fresh.size() == 6);
  CHECK(fresh[0].tests == std::vector<std::string>{"a.B#c"});
  CHECK(fresh[1].tests == std::vector<std::string>{"a.B#d"});
  input.fresh_jvm_per_run = false;
  auto shared = rerun::rerun_specs(input);
  REQUIRE(shared.size() == 3);
  CHECK(shared[2].tests == input.tests);
  input.fresh_jvm_per_run = true;
  input.budget.max_runs = 3;
  auto capped = rerun::rerun_specs(input);
  REQUIRE(capped.size() == 3);  // round-robin: both tests still get runs
  CHECK(capped[2].tests == std::vector<std::string>{"a.B#c"});
}

TEST_CASE("a test whose first 3 runs each hang until the deadline gets no more runs, and the reason says why", "[rerun]") {
  // Seen on sawmill (docs/real-projects.md, J18): 10 runs of 60 s each for a test that hangs.
  ScriptedRunLog log;
  log.hangs = {"p.T#hangs"};
  core::TechniqueInput input{.tests = {"p.T#hangs", "p.T#ok"}};
  input.budget.runs_per_test = 10;
  auto verdicts = rerun::run_rerun(input, log);
  REQUIRE(verdicts);
  CHECK(log.seen["p.T#hangs"] == 0);  // never asked for an outcome of it by the script
  CHECK(log.batches == std::vector<std::size_t>{6, 7});  // 3 rounds of both, then 7 more of the other alone
  CHECK(log.planned == 13);
  const auto& hung = (*verdicts)[0];
  CHECK(hung.verdict == core::VerdictKind::could_not_run);
  CHECK(hung.runs.infra == 3);
  CHECK(hung.evidence.details.at("runs_made") == "3");
  CHECK(hung.evidence.reason.find("its first 3 runs were each killed at the run deadline, so the other 7 asked for were not made") !=
        std::string::npos);
  CHECK((*verdicts)[1].verdict == core::VerdictKind::not_flaky);
  CHECK((*verdicts)[1].runs.passed == 10);

  // A test that does not hang is run as often as asked (the first 3 rounds, then the rest).
  ScriptedRunLog fine;
  input.tests = {"p.T#ok"};
  verdicts = rerun::run_rerun(input, fine);
  REQUIRE(verdicts);
  CHECK(fine.batches == std::vector<std::size_t>{3, 7});
  CHECK((*verdicts)[0].runs.passed == 10);
}

TEST_CASE("a rerun cut short by the budget says how many of the runs asked for were made", "[rerun]") {
  // Seen on elastic-job (docs/real-projects.md): 10 runs asked, the time budget allowed 3,
  // and the verdict said only "passed all 3 runs".
  ScriptedRunLog log;
  log.time_for_runs = 5;
  core::TechniqueInput input{.tests = {"p.T#a", "p.T#b"}};
  input.budget.runs_per_test = 10;
  auto verdicts = rerun::run_rerun(input, log);
  REQUIRE(verdicts);
  const auto& a = (*verdicts)[0];
  CHECK(a.verdict == core::VerdictKind::not_flaky);
  CHECK(a.runs.passed == 3);
  CHECK(a.evidence.reason == "passed all 3 runs; 3 of the 10 runs asked for were made (the scan's time budget ran out)");
  CHECK(a.evidence.details.at("runs_wanted") == "10");
  CHECK(a.evidence.details.at("runs_made") == "3");
  CHECK((*verdicts)[1].evidence.details.at("runs_made") == "2");

  // The run budget (max_runs) cuts the plan itself.
  ScriptedRunLog capped;
  input.budget.max_runs = 4;
  verdicts = rerun::run_rerun(input, capped);
  REQUIRE(verdicts);
  CHECK((*verdicts)[0].evidence.reason ==
        "passed all 2 runs; 2 of the 10 runs asked for were made (the run budget (max_runs) was spent)");

  // All runs made: nothing added.
  ScriptedRunLog full;
  input.budget.max_runs = 2000;
  verdicts = rerun::run_rerun(input, full);
  REQUIRE(verdicts);
  CHECK((*verdicts)[0].evidence.reason == "passed all 10 runs");
  CHECK_FALSE((*verdicts)[0].evidence.details.contains("runs_wanted"));
}

TEST_CASE("first_executions cuts a run after its first entries, with the class runs that start later", "[rerun]") {
  core::RecordedRun run;
  run.id = 7;
  run.spec.tests = {"p.A#t", "p.A#t", "p.A#t", "p.A#t"};
  run.spec.class_run_starts = {1, 3};
  for (auto o : {core::Outcome::pass, core::Outcome::fail, core::Outcome::pass, core::Outcome::fail})
    run.report.results.push_back(core::TestResult{.test = "p.A#t", .outcome = o});

  auto two = rerun::first_executions(run, 2);
  CHECK(two.id == 7);
  CHECK(two.spec.tests == std::vector<std::string>{"p.A#t", "p.A#t"});
  CHECK(two.spec.class_run_starts == std::vector<size_t>{1});
  REQUIRE(two.report.results.size() == 2);
  CHECK(two.report.outcome_at(1) == core::Outcome::fail);

  auto one = rerun::first_execution(run);
  CHECK(one.spec.tests == std::vector<std::string>{"p.A#t"});
  CHECK(one.spec.class_run_starts.empty());
  CHECK(one.report.results.size() == 1);
  // Asking for more than the run had leaves it whole.
  CHECK(rerun::first_executions(run, 9).spec.tests.size() == 4);
}
