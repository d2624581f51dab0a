#include "event_order/schedule_space.hpp"

#include <algorithm>

namespace flakescan::event_order {

ScheduleSpace schedule_space(const looper_trace::StatementTrace& trace, size_t event, std::optional<int> upper_line) {
  ScheduleSpace space;
  space.lower_line = trace.events.at(event).identity.statement_line;
  space.upper_line = upper_line;
  if (!upper_line) space.positions.push_back(end_of_test);
  auto anchored = trace.anchored_lines();
  for (auto it = anchored.rbegin(); it != anchored.rend(); ++it) {
    if (*it <= space.lower_line) continue;
    if (upper_line && *it > *upper_line) continue;
    space.positions.push_back(*it);
  }
  return space;
}

namespace {

// The failing position whose next lower realised position passes or that has no lower
// realised one left to try; -1 when none is decided yet.
int decided(const std::vector<PositionOutcome>& outcomes, int* lower) {
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i] != PositionOutcome::fail) continue;
    size_t j = i + 1;
    while (j < outcomes.size() && outcomes[j] == PositionOutcome::unrealised) ++j;
    if (j == outcomes.size()) {
      *lower = -1;
      return int(i);
    }
    if (outcomes[j] == PositionOutcome::pass) {
      *lower = int(j);
      return int(i);
    }
  }
  return -1;
}

}  // namespace

std::optional<size_t> next_position(const std::vector<PositionOutcome>& outcomes) {
  int lower = -1;
  if (decided(outcomes, &lower) >= 0) return std::nullopt;
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (outcomes[i] == PositionOutcome::untried) return i;
  return std::nullopt;
}

std::optional<RaceFinding> racing_statement(const looper_trace::StatementTrace& trace, const ScheduleSpace& space,
                                            const std::vector<PositionOutcome>& outcomes) {
  int lower = -1;
  int failing = decided(outcomes, &lower);
  if (failing < 0) return std::nullopt;
  RaceFinding found;
  found.failing = size_t(failing);
  if (lower >= 0) {
    found.racing_line = space.positions[size_t(lower)];
  } else {
    // No realised position below the failure: e must come before the first statement after
    // the one that started its work.
    auto it = std::upper_bound(trace.lines.begin(), trace.lines.end(), space.lower_line);
    found.racing_line = it == trace.lines.end() ? space.lower_line : *it;
  }
  return found;
}

}  // namespace flakescan::event_order
