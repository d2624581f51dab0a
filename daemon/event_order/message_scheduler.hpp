#pragma once
// Realising a maximum-differentiation order in one debugged run (ALGORITHMS.md section 2):
// several messages are reordered at once by holding their posting threads. A placement
// says "message M is dispatched after message A" (both by cross-run key,
// looper_trace::EventIdentity::key()); when M's poster reaches the enqueue hook before A
// has been dispatched, the poster is held there (it holds no lock at the method's first
// instruction) and released right after A's dispatch began. Every message of the run is
// recorded (MessageRecorder), so the result says which placements the run realised: both
// dispatched, A first.
//
// The main thread is never held (it is the one that has to dispatch A): such a placement
// is left unrealised. A held poster is released without A when the run has been quiet for
// `wait` (no event from the VM: nothing sent, dispatched, started or stepped; A is never
// sent, or only after M) or after `longest_hold` in any case, and its placement is
// unrealised. Quiet, not a fixed time: on a loaded machine A may take long to come while
// the run keeps moving towards it.
#include <chrono>
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

util::Result<void> run_message_schedule(core::Vm& vm, const std::string& test, const std::vector<Placement>& placements,
                                        const MessageScheduleOptions& options, MessageScheduleResult& out);

// "M after A" per line, for verdict details and replay.
std::string format_placements(const std::vector<Placement>& placements);
util::Result<std::vector<Placement>> parse_placements(const std::string& text);

}  // namespace flakescan::event_order
