#include "rerun/rerun.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "rerun/outcome_tally.hpp"

namespace flakescan::rerun {

std::vector<core::RunSpec> rerun_specs(const core::TechniqueInput& input) {
  std::vector<core::RunSpec> specs;
  const int n = std::max(1, input.budget.runs_per_test);
  const int cap = std::max(1, input.budget.max_runs);
  if (input.fresh_jvm_per_run) {
    // Round-robin over tests so a capped budget still covers every test evenly.
    for (int round = 0; round < n; ++round) {
      for (const auto& test : input.tests) {
        if (int(specs.size()) >= cap) return specs;
        core::RunSpec s;
        s.tests = {test};
        s.technique = "rerun";
        s.purpose = "rerun " + std::to_string(round + 1) + "/" + std::to_string(n) + " of " + test;
        s.seed = input.seed;
        specs.push_back(std::move(s));
      }
    }
  } else {
    for (int round = 0; round < n && int(specs.size()) < cap; ++round) {
      core::RunSpec s;
      s.tests = input.tests;
      s.technique = "rerun";
      s.purpose = "rerun round " + std::to_string(round + 1) + "/" + std::to_string(n) + " in one JVM";
      s.seed = input.seed;
      specs.push_back(std::move(s));
    }
  }
  return specs;
}

util::Result<std::vector<core::Verdict>> run_rerun(const core::TechniqueInput& input, core::RunLog& runs) {
  auto specs = rerun_specs(input);
  runs.plan(int(specs.size()));
  auto done = runs.run_all(specs);
  if (!done) return std::unexpected(done.error());
  OutcomeTally tally;
  // Runs the budget left unmade (id 0, no results: the scan's time ran out) or never planned
  // (max_runs) are said in the verdict: "passed all 3 runs" must not read as 10 asked for.
  std::map<std::string, int> made, unmade;
  std::string unmade_reason;
  for (const auto& run : *done) {
    tally.add(run);
    bool ran = run.id != 0 || !run.report.results.empty();
    for (const auto& t : run.spec.tests) ++(ran ? made : unmade)[t];
    if (!ran && unmade_reason.empty()) unmade_reason = run.report.infra_reason;
  }
  const std::string prefix = "not run: ";
  if (unmade_reason.starts_with(prefix)) unmade_reason.erase(0, prefix.size());
  const int wanted = std::max(1, input.budget.runs_per_test);
  std::vector<core::Verdict> verdicts;
  for (const auto& test : input.tests) {
    auto v = verdict_from_tally(test, tally.find(test), "rerun");
    if (made[test] < wanted) {
      v.evidence.details["runs_wanted"] = std::to_string(wanted);
      v.evidence.details["runs_made"] = std::to_string(made[test]);
      std::string why = unmade[test] > 0 ? (unmade_reason.empty() ? std::string("the scan's budget ran out") : unmade_reason)
                                         : std::string("the run budget (max_runs) was spent");
      v.evidence.reason += "; " + std::to_string(made[test]) + " of the " + std::to_string(wanted) +
                           " runs asked for were made (" + why + ")";
    }
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

}  // namespace flakescan::rerun
