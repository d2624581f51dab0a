#pragma once
// Realising a maximum-differentiation order in one debugged run (docs/explore.md, strategy maxdiff):
// several messages are reordered at once by holding their posting threads. A placement
// says "message M is dispatched after message A" (both by cross-run key,
// looper_trace::EventIdentity::key()); when M's poster reaches the enqueue hook before A
// has been handled, the poster is held there (it holds no lock at the method's first
// instruction) and released once A was handled. Every message of the run is recorded
// (MessageRecorder), so the result says which placements the run realised: both
// dispatched, A first.
//
// "Handled", not "dispatch began": an anchor that looks at the queue while it runs (an
// Espresso idle check, which posts itself again when the queue is busy) would otherwise see
// the released M, so the order would count as realised while the app never ran it. The end
// of a main-thread message's handling is the main thread's next entry into
// MessageQueue.next() (LooperSession::watch_main_next: a thread-suspending breakpoint for the
// main thread only): at that stop the posters whose anchors are now all handled are resumed
// first, then the main thread. Messages of other loopers count as handled when their
// dispatch begins (placements order the main thread's messages; other loopers' next() calls
// are not watched). When the VM has no such next() method, main's messages count so too and
// the run's note says so.
//
// When the test ends (its first end marker), held posters are let go and the testing thread
// waits there until every placed message that was sent has been dispatched and the threads
// the test started are idle (MessageRecorder::started_threads_busy; bounded like a hold): a
// message let go once the idle check the test ended on was handled is dispatched only after
// the test's last statement, and the trace would otherwise end without it (placement
// unrealised).
//
// The main thread is never held (it is the one that has to dispatch A): such a placement
// is left unrealised. A held poster is released without A when the run has been quiet for
// `wait` (no event from the VM: nothing sent, dispatched, started or stepped; A is never
// sent, or only after M, or its handling waits for M's poster) or after `longest_hold` in
// any case; the note says so, and the placement is unrealised when A was not dispatched
// before M. Quiet, not a fixed time: on a loaded machine A may take long to come while
// the run keeps moving towards it.
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "looper_trace/looper_session.hpp"
#include "looper_trace/message_trace.hpp"

namespace flakescan::event_order {

struct Placement {
  std::string message;  // key of the message to place
  std::string after;    // key of the message it must follow
  friend bool operator==(const Placement&, const Placement&) = default;
};

struct MessageScheduleResult {
  looper_trace::MessageTrace trace;  // the run as it happened: the realised order
  std::vector<bool> realised;        // per placement
  std::string note;                  // why placements were not realised
  bool all_realised() const;
};

struct MessageScheduleOptions {
  looper_trace::HookConfig hook;
  std::chrono::milliseconds wait{1000};           // quiet time that releases a held poster
  std::chrono::milliseconds longest_hold{10000};  // no hold lasts longer
  std::chrono::milliseconds deadline{90000};
};

// What the scheduler knows of the handling of messages, from the run's stops (pure: the
// unit tests drive it). Invariant: a handled message was dispatched; at most one main-thread
// message is being handled (dispatch began, no next() since).
class HandledMessages {
 public:
  // main_next_known: the main thread's MessageQueue.next() entries are reported.
  explicit HandledMessages(bool main_next_known = true) : main_next_known_(main_next_known) {}

  // A dispatch began; `key` is empty for a message that was not recorded (sent before the
  // test). A main-thread dispatch also ends the one before it (its next() entry was missed).
  void dispatch_began(const std::string& key, bool on_main);
  // The main thread entered MessageQueue.next(): the message it dispatched last was handled.
  void main_asked_next();

  bool dispatched(const std::string& key) const { return dispatched_.contains(key); }
  bool handled(const std::string& key) const { return handled_.contains(key); }
  // The anchors `key` is placed after that were not handled yet: what a held poster waits for.
  std::vector<std::string> waiting_for(const std::vector<Placement>& placements, const std::string& key) const;
  // The anchors whose dispatch has not begun: a message the main thread posts while it
  // handles an anchor is dispatched after it anyway.
  std::vector<std::string> not_dispatched(const std::vector<Placement>& placements, const std::string& key) const;

 private:
  bool main_next_known_;
  std::set<std::string> dispatched_;
  std::set<std::string> handled_;
  std::optional<std::string> on_main_;  // dispatched on main, next() not entered since
};

util::Result<void> run_message_schedule(core::Vm& vm, const std::string& test, const std::vector<Placement>& placements,
                                        const MessageScheduleOptions& options, MessageScheduleResult& out);

// "M after A" per line, for verdict details and replay.
std::string format_placements(const std::vector<Placement>& placements);
util::Result<std::vector<Placement>> parse_placements(const std::string& text);

}  // namespace flakescan::event_order
