#pragma once
// Schedule space and ordering (docs/explore.md, strategy flakescanner), as pure functions over a trace.
//
// For an async event e posted during statement n (its lower bound) whose what-if run found
// the upper bound m (the statement at which the testing thread blocks while e is held;
// none: the end of the test), the candidate positions are "just before the anchor event of
// statement k" for the anchored statements k in (n, m], plus the end of the test when there
// is no upper bound, tried from the top down (the longest delay first).
//
// The search does not stop at the first pass (a failure may need e between two particular
// statements). It stops at a failing position p whose next lower position passes (the
// racing statement is that lower position's statement: e must come before its anchor), or
// at a failing lowest position (the racing statement is the first statement after n).
#include <optional>
#include <vector>

#include "looper_trace/statement_trace.hpp"

namespace flakescan::event_order {

inline constexpr int end_of_test = -1;  // the position "after the test method"

struct ScheduleSpace {
  int lower_line = -1;                // statement during which e was posted on the trace
  std::optional<int> upper_line;      // none: the end of the test
  std::vector<int> positions;         // lines (or end_of_test), top down
};

ScheduleSpace schedule_space(const looper_trace::StatementTrace& trace, size_t event, std::optional<int> upper_line);

enum class PositionOutcome { untried, pass, fail, unrealised };

// Which position to try next given the outcomes so far (index into positions), or nullopt
// when the search is over.
std::optional<size_t> next_position(const std::vector<PositionOutcome>& outcomes);

struct RaceFinding {
  size_t failing = 0;  // index of the failing position
  int racing_line = -1;
};
// The racing statement, once the outcomes decide it.
std::optional<RaceFinding> racing_statement(const looper_trace::StatementTrace& trace, const ScheduleSpace& space,
                                            const std::vector<PositionOutcome>& outcomes);

}  // namespace flakescan::event_order
