#pragma once
// Technique `rerun`: the baseline. Every test is run N times (budget.runs_per_test); with
// fresh_jvm_per_run each run is its own process holding just that test, otherwise each round
// runs the whole list once in one process, in the original order. A test is flaky when both
// a pass and a failure were observed, with those two runs as evidence. With a JVM per run, a
// test whose first 3 runs were each killed at the run deadline with no outcome gets no more
// runs: it hangs, and each further run would cost a whole deadline.
#include <vector>

#include "core/technique.hpp"

namespace flakescan::rerun {

util::Result<std::vector<core::Verdict>> run_rerun(const core::TechniqueInput& input, core::RunLog& runs);

// The run specs rerun makes for the input, capped by the run budget (pure, for tests).
std::vector<core::RunSpec> rerun_specs(const core::TechniqueInput& input);

}  // namespace flakescan::rerun
