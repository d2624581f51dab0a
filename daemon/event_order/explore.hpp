#pragma once
// Technique `explore` (FlakeScanner, ALGORITHMS.md section 1) and its replay, and the
// baseline `noise` (Shaker-style reruns under stress-ng CPU and memory load).
//
// Per test: one traced run (Algorithm 1); for each async event of the trace, one what-if
// run (Algorithm 2: the upper bound, and at the same time the "end of test" position when
// there is none), then scheduling runs from the upper bound down (schedule_space.hpp). A
// test is flaky (category concurrency) when a realised schedule failed and a run of it
// passed; the verdict carries both run ids and, in evidence.details, the schedule:
//   event              identity of the async event ("line 32 background 9f3a0c1d #0")
//   event_key          its cross-run key (what replay matches)
//   event_thread       the posting thread's name on the trace
//   delayed_to_statement  line of the statement before whose anchor it was released, or "end"
//   racing_line        the statement the event races with
//   lower_bound_line / upper_bound_line ("end" when none)
// Every run is a debugged run recorded through RunLog::run_debugged.
#include <map>
#include <string>

#include "core/technique.hpp"
#include "event_order/scheduler.hpp"
#include "looper_trace/tracer.hpp"

namespace flakescan::event_order {

struct ExploreOptions {
  looper_trace::TraceOptions trace;
  ScheduleOptions schedule;
  int max_async_events = 4;  // per test, in posting order
};

core::TechniqueFn explore_technique(ExploreOptions options = {});

// Re-executes the schedule of an `explore` verdict (its evidence.details) once.
util::Result<core::RecordedRun> replay_schedule(const std::string& test, const std::map<std::string, std::string>& details,
                                                core::RunLog& runs, const ExploreOptions& options = {});

// Technique `noise`: budget.runs_per_test runs per test while stress-ng loads every CPU and
// memory; decided like rerun.
util::Result<std::vector<core::Verdict>> run_noise(const core::TechniqueInput& input, core::RunLog& runs);

}  // namespace flakescan::event_order
