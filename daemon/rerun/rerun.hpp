#pragma once
// Technique `rerun`: the baseline. Every test is run N times (budget.runs_per_test); with
// fresh_jvm_per_run each run is its own process holding just that test, otherwise each round
// runs the whole list once in one process, in the original order. A test is flaky when both
// a pass and a failure were observed, with those two runs as evidence. With a JVM per run, a
// test whose first 3 runs were each killed at the run deadline with no outcome gets no more
// runs: it hangs, and each further run would cost a whole deadline.
#include <functional>
#include <string>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::rerun {

struct RerunOptions {
  // With a JVM per run: how many times in a row each run runs its test. Technique `suite`
  // asks for 2 or more, so that a suspect's runs alone also answer the NIO question
  // (technique nio takes their first two executions as its runs) and whether the same order
  // gives both outcomes (suite_isolation.hpp). Only each run's first execution, the one that
  // ran alone, is counted and decides the verdict (first_execution); the others are left to
  // the caller.
  int executions_per_jvm = 1;
  // With a JVM per run and one test: once `enough_after` of its runs are made, `enough` is asked
  // with them whole (every execution, not only the first). A non-empty answer says why the
  // others are not needed: they are not made, and the verdict says so with that answer.
  int enough_after = 0;
  std::function<std::string(const std::vector<core::RecordedRun>&)> enough;
};

util::Result<std::vector<core::Verdict>> run_rerun(const core::TechniqueInput& input, core::RunLog& runs,
                                                   const RerunOptions& options = {});

// The run specs rerun makes for the input, capped by the run budget (pure, for tests).
std::vector<core::RunSpec> rerun_specs(const core::TechniqueInput& input, const RerunOptions& options = {});

// A run cut after its first entry: what a run of that test alone in a fresh JVM observed when
// the run ran it first (whatever ran after it cannot have changed that outcome).
core::RecordedRun first_execution(const core::RecordedRun& run);

// A run cut after its first `n` entries (its class runs that start later dropped with them).
core::RecordedRun first_executions(const core::RecordedRun& run, size_t n);

}  // namespace flakescan::rerun
