#pragma once
// Technique `threads` (docs/threads.md): plain JVM tests whose outcome depends on how their
// threads interleave. Each run is a fresh JVM under the threads agent, which runs one thread
// at a time and lets a seeded strategy (PCT with bug depth d, POS, random) choose the next
// one at every scheduling point, and records every choice.
//
// Per test, several tests' runs in parallel (RunLog::run_all), one schedule per test a round:
//   1. first schedule. A test that ran one controlled thread, fully under control, has
//      nothing to schedule and is not explored further.
//   2. explore: schedules with seeds threads_seeds(scan seed), PCT's k set to the number of
//      scheduling points the first schedule passed while more than one controlled thread
//      lived (steps_together), until a failure and a pass
//      have both been seen, or TechniqueInput::threads.schedules were made, or the scan's
//      budget (max_runs, max_seconds) is spent.
//   3. confirm: the first failing schedule's decisions are replayed (strategy `replay`); the
//      failure must come back with the same signature.
// Verdicts: flaky/concurrency when a confirmed failing schedule and a passing one exist
// (a deadlock in the failing one says so); flaky/unknown when the replay did not bring the
// failure back (a failure and a pass were seen all the same; core::honest_verdict);
// failing when every schedule failed; not_flaky when every schedule passed.
// Evidence details: strategy, seed, virtual_time, exact, schedule_failing, schedule_passing,
// conflict, deadlock, replayed (docs/threads.md, "What a threads verdict carries").
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::threads {

// The seeds of a test's schedules 1..n under scan seed `scan_seed`: the same for the same
// scan seed, never 0, short enough to read and type.
std::vector<std::uint64_t> threads_seeds(std::uint64_t scan_seed, int n);

util::Result<std::vector<core::Verdict>> detect_concurrency(const core::TechniqueInput& input, core::RunLog& log);

core::TechniqueFn threads_technique();

// Runs the test once under the verdict's failing decisions (details "schedule_failing",
// "seed", "virtual_time"), with strategy `replay`.
util::Result<core::RecordedRun> replay_threads(const std::string& test, const std::map<std::string, std::string>& details,
                                               core::RunLog& runs);

}  // namespace flakescan::threads
