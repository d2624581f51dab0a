#pragma once
// Technique `explore` and its replay, and the baseline `noise` (Shaker-style reruns under
// stress-ng CPU and memory load). Two strategies (TechniqueInput::strategy):
//
// maxdiff (docs/explore.md, "Strategy maxdiff"): one run with every message's send and dispatch
// recorded (looper_trace/message_tracer.hpp), happens-before and executable intervals
// (happens_before.hpp), then rounds of maximum-differentiation orders (max_diff.hpp), each
// realised in one run by holding the posters of the moved messages
// (message_scheduler.hpp). A realised order that fails is run once more to confirm it.
// Details: strategy=maxdiff, placements ("<key> after <key>" per line: what replay
// re-creates), moved (each moved message: identity, thread, old -> new position),
// realised_order (the async messages of the failing run in dispatch order), order_round.
//
// flakescanner (docs/explore.md, "Strategy flakescanner"): one traced run (Algorithm 1); for each async
// event of the trace, in posting order, one what-if run (Algorithm 2: the upper bound, and
// the "end of test" position when there is none), then scheduling runs from the upper
// bound down (schedule_space.hpp). Details: strategy=flakescanner and
//   event              identity of the async event ("line 32 background 9f3a0c1d #0")
//   event_key          its cross-run key (what replay matches)
//   event_thread       the posting thread's name on the trace
//   delayed_to_statement  line of the statement before whose anchor it was released, or "end"
//   racing_line        the statement the event races with
//   lower_bound_line / upper_bound_line ("end" when none)
// both: maxdiff, then flakescanner with what is left of the budget when maxdiff found no
// failing order.
//
// A test is flaky (category concurrency) when a realised schedule failed and a run of it
// passed; the verdict carries both run ids. Every async message is a candidate; the
// budget (Budget::max_runs_per_test, max_seconds_per_test, and the scan's max_runs and
// max_seconds) bounds the work, and the verdict's reason says when the budget, not the
// search, ended it. Every run is a debugged run recorded through RunLog::run_debugged.
#include <map>
#include <string>

#include "core/technique.hpp"
#include "event_order/message_scheduler.hpp"
#include "event_order/scheduler.hpp"
#include "looper_trace/message_tracer.hpp"
#include "looper_trace/statement_tracer.hpp"

namespace flakescan::event_order {

struct ExploreOptions {
  looper_trace::StatementTraceOptions trace;
  ScheduleOptions schedule;
  looper_trace::MessageTraceOptions message_trace;
  MessageScheduleOptions message_schedule;
};

core::TechniqueFn explore_technique(ExploreOptions options = {});

// Re-executes the schedule of an `explore` verdict (its evidence.details) once: the
// placements of a maxdiff verdict, the delayed event of a flakescanner one.
util::Result<core::RecordedRun> replay_schedule(const std::string& test, const std::map<std::string, std::string>& details,
                                                core::RunLog& runs, const ExploreOptions& options = {});

// Technique `noise`: budget.runs_per_test runs per test while stress-ng loads every CPU and
// memory; decided like rerun.
util::Result<std::vector<core::Verdict>> run_noise(const core::TechniqueInput& input, core::RunLog& runs);

}  // namespace flakescan::event_order
