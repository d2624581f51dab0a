#pragma once
// The two operations a `threads` verdict blames (docs/threads.md, "What a threads verdict
// carries"): two steps of different threads on one target, at least one of them a write,
// whose order in the failing schedule differs from their order in the passing one. Pure:
// two schedule records in, two steps out.
//
// A step is matched across the two schedules by what it is (thread, op, target, site) and
// how many such steps came before it in its own schedule's listed steps. With steps omitted
// from a long record the count is over the listed ones only, so a match may be missed; the
// fallback then still names a pair.
#include <optional>
#include <string_view>

#include "core/thread_schedule.hpp"

namespace flakescan::threads {

// What counts as a write: it changes the target for the other threads (field_write, call_write,
// atomic, monitor_enter, lock, try_lock, notify, notify_all).
bool is_write(std::string_view op);

struct Conflict {
  core::ScheduleStep first;   // in the failing schedule's order
  core::ScheduleStep second;
  bool order_differs = false;  // false: the fallback (the last such pair of the failing schedule)
  bool from_deadlock = false;  // the failing schedule's deadlock: `first` took what `second` waits for
  bool second_absent = false;  // `second` is the passing schedule's: the failing one's listed steps lack it
  bool split = false;          // `first` (a read) and its thread's next write on the target were split by `second`
};

// When the failing schedule deadlocked: the first blocked thread that waits for a monitor or
// lock another blocked thread holds (`second`, its attempt, which never passed), and where that
// one took it (`first`). Otherwise, best first, each time the candidate closest to the end of
// the failing schedule:
//  1. a split: a thread's read of a target and its next step on it, a write, with another
//     thread's write in between (a lost update, a check-then-act), which the passing schedule
//     did not split the same way: the read and the other thread's write;
//  2. a pair whose relative order differs between `failing` and `passing`, or whose first step
//     (in the passing order) the failing schedule lacks altogether (`second_absent`: a worker's
//     write that came after the test's read, or never);
//  3. the failing schedule's last cross-thread pair on one target with a write, else without one.
// Within 2 and 3 a pair of data operations (field, call and atomic steps) or of a notify and a
// wait comes before a pair with a monitor or lock step: the data the threads share says what
// the race is about, while the order in which they entered a critical section mostly follows
// from it. nullopt when no two threads met on one target in either schedule.
std::optional<Conflict> find_conflict(const core::ThreadSchedule& failing, const core::ThreadSchedule& passing);

}  // namespace flakescan::threads
