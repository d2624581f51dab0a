#pragma once
// Realising one schedule in a debugged run (docs/explore.md, strategy flakescanner, Algorithm 2 and the
// scheduling runs). The target async event is found by its cross-run key (role, stack,
// occurrence; trace/identity.hpp). When its posting thread reaches the hook it is held
// there (it holds no lock at the method's first instruction) while every other thread runs.
//   * position = a line: when the testing thread reaches that line's breakpoint it is held,
//     the posting thread is released and the testing thread goes on once the hook method
//     has returned (the event is enqueued) and the posting thread is idle (waiting,
//     sleeping) or ended, so events it posts right after the held one come in too. If the testing thread gets there first, it
//     waits there for the event (up to event_wait; after that the position is unrealised).
//   * position = end_of_test: held until the test method has returned.
//   * what-if (no position): held until the testing thread blocks (waits without progress
//     for `grace` while the event is held: the upper bound) or the test ends.
// A testing thread that blocks while the event is held always gets it released (a
// transient wait ends by itself within the grace period; a wait on the held event never).
#include <chrono>
#include <optional>
#include <string>

#include "looper_trace/looper_session.hpp"

namespace flakescan::event_order {

struct ScheduleRequest {
  std::string event_key;             // looper_trace::EventIdentity::key()
  std::optional<int> position;       // line, end_of_test, or nullopt for the what-if run
};

struct ScheduleResult {
  bool event_seen = false;
  int posted_at_line = -1;           // statement executing when the event reached the hook
  std::optional<int> blocked_at;     // line at which the testing thread blocked on the event
  bool blocked_after_test = false;
  bool realised = false;             // the event went in exactly at the requested position
  std::string note;                  // why not realised
};

struct ScheduleOptions {
  looper_trace::HookConfig hook;
  std::chrono::milliseconds grace{1500};
  std::chrono::milliseconds event_wait{2000};
  std::chrono::milliseconds settle_cap{3000};   // longest wait for a released poster to go idle
  std::chrono::milliseconds deadline{90000};
};

util::Result<void> run_schedule(core::Vm& vm, const std::string& test, const ScheduleRequest& request,
                                const ScheduleOptions& options, ScheduleResult& out);

}  // namespace flakescan::event_order
