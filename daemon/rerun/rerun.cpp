#include "rerun/rerun.hpp"

#include <algorithm>

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
  for (const auto& run : *done) tally.add(run);
  std::vector<core::Verdict> verdicts;
  for (const auto& test : input.tests) verdicts.push_back(verdict_from_tally(test, tally.find(test), "rerun"));
  return verdicts;
}

}  // namespace flakescan::rerun
