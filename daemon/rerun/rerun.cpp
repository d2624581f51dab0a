#include "rerun/rerun.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "rerun/outcome_tally.hpp"

namespace flakescan::rerun {

std::vector<core::RunSpec> rerun_specs(const core::TechniqueInput& input, const RerunOptions& options) {
  std::vector<core::RunSpec> specs;
  const int n = std::max(1, input.budget.runs_per_test);
  const int cap = std::max(1, input.budget.max_runs);
  if (input.fresh_jvm_per_run) {
    const int times = std::max(1, options.executions_per_jvm);
    // Round-robin over tests so a capped budget still covers every test evenly.
    for (int round = 0; round < n; ++round) {
      for (const auto& test : input.tests) {
        if (int(specs.size()) >= cap) return specs;
        core::RunSpec s;
        s.tests.assign(size_t(times), test);
        s.technique = "rerun";
        s.purpose = "rerun " + std::to_string(round + 1) + "/" + std::to_string(n) + " of " + test +
                    (times > 1 ? ", " + std::to_string(times) + " times in a row in its JVM" : "");
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

core::RecordedRun first_executions(const core::RecordedRun& run, size_t n) {
  core::RecordedRun out = run;
  if (out.spec.tests.size() > n) out.spec.tests.resize(n);
  std::erase_if(out.spec.class_run_starts, [n](size_t start) { return start >= n; });
  if (out.report.results.size() > n) out.report.results.resize(n);
  return out;
}

core::RecordedRun first_execution(const core::RecordedRun& run) { return first_executions(run, 1); }

namespace {

// A test whose first runs were each killed at the run deadline with no outcome hangs: more runs
// of it would hang too, each costing a whole deadline (J18; technique `threads` stops the same way).
constexpr int hang_runs = 3;

bool killed_without_outcome(const core::RecordedRun& run, const std::string& test) {
  if (!run.report.timed_out) return false;
  for (const auto& r : run.report.results)
    if (r.test == test && core::is_observation(r.outcome)) return false;
  return true;
}

// Runs `specs`: with a JVM per run, the first hang_runs rounds first; a test whose every run
// of them was killed at the deadline gets no more. `hung`: those tests, with the runs not made.
// With options.enough, the first options.enough_after runs come first, and none after them
// when it answers (`enough`: its answer).
util::Result<std::vector<core::RecordedRun>> run_until_hung(const core::TechniqueInput& input, std::vector<core::RunSpec> specs,
                                                              core::RunLog& runs, const RerunOptions& options,
                                                              std::map<std::string, int>& hung, std::string& enough) {
  std::size_t first = input.fresh_jvm_per_run ? std::min(specs.size(), input.tests.size() * hang_runs) : specs.size();
  const bool ask = input.fresh_jvm_per_run && options.enough && options.enough_after > 0 && input.tests.size() == 1;
  if (ask) first = std::min(first, std::size_t(options.enough_after));
  std::vector<core::RunSpec> rest(specs.begin() + long(first), specs.end());
  specs.resize(first);
  // With a JVM per run a run is about its test alone: it comes back as its first execution.
  auto alone = [&](util::Result<std::vector<core::RecordedRun>> made) {
    if (made && input.fresh_jvm_per_run)
      for (auto& run : *made) run = first_execution(run);
    return made;
  };
  runs.plan(int(specs.size()));
  auto whole = runs.run_all(specs);
  if (whole && ask && !rest.empty()) {
    enough = options.enough(*whole);
    if (!enough.empty()) return alone(std::move(whole));
  }
  auto done = alone(std::move(whole));
  if (!done || rest.empty()) return done;
  std::map<std::string, int> killed, made;
  for (const auto& run : *done)
    for (const auto& t : run.spec.tests) {
      ++made[t];
      if (killed_without_outcome(run, t)) ++killed[t];
    }
  std::vector<core::RunSpec> more;
  for (auto& spec : rest) {
    const auto& t = spec.tests.front();
    if (made[t] >= hang_runs && killed[t] == made[t]) ++hung[t];
    else more.push_back(std::move(spec));
  }
  runs.plan(int(more.size()));
  auto later = alone(runs.run_all(more));
  if (!later) return std::unexpected(later.error());
  for (auto& r : *later) done->push_back(std::move(r));
  return done;
}

}  // namespace

util::Result<std::vector<core::Verdict>> run_rerun(const core::TechniqueInput& input, core::RunLog& runs, const RerunOptions& options) {
  std::map<std::string, int> hung;
  std::string enough;
  auto done = run_until_hung(input, rerun_specs(input, options), runs, options, hung, enough);
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
    if (auto h = hung.find(test); h != hung.end()) {
      v.evidence.details["runs_wanted"] = std::to_string(wanted);
      v.evidence.details["runs_made"] = std::to_string(made[test]);
      v.evidence.reason += "; its first " + std::to_string(made[test]) + " runs were each killed at the run deadline, so the other " +
                           std::to_string(h->second) + " asked for were not made: they would hang too (--timeout-seconds gives each run more)";
    } else if (made[test] < wanted && !enough.empty()) {
      v.evidence.details["runs_wanted"] = std::to_string(wanted);
      v.evidence.details["runs_made"] = std::to_string(made[test]);
      v.evidence.reason += "; the other " + std::to_string(wanted - made[test]) + " asked for were not made: " + enough;
    } else if (made[test] < wanted) {
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
