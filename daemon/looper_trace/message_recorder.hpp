#pragma once
// MessageRecorder: fills a MessageTrace from the stops of a LooperSession (docs/explore.md,
// strategy maxdiff). The send step is the session's enqueue hook, on every queue: the message
// and its `when` are the hook method's arguments, the delay is sendMessageDelayed's
// argument when that frame is on the posting stack (post, postDelayed, sendMessageDelayed)
// and otherwise `when` minus the uptime, estimated from earlier delayed sends. The
// dispatch step is a method-entry breakpoint on Handler.dispatchMessage; the message
// object ties it to its send. Which looper thread owns a queue: the main queue is known
// once the test started, the others are learned from their first dispatch.
//
// Only messages sent after the test method started are recorded (the setup's messages go
// to an earlier main looper). Both the message tracer and the message scheduler use it,
// so occurrences count the same way in both.
//
// Thread.start (method entry) tells which message a thread was started in: the message
// its starter was dispatching (a looper thread that runs code is inside a dispatch), or
// the one its starter was itself started in. happens_before.hpp turns that into edges.
#include <map>
#include <optional>

#include "looper_trace/looper_session.hpp"
#include "looper_trace/message_trace.hpp"

namespace flakescan::looper_trace {

class MessageRecorder {
 public:
  MessageRecorder(LooperSession& session, std::string test);

  // Installs the dispatch breakpoint (suspends the dispatching thread).
  util::Result<void> start(core::Deadline deadline);
  bool is_dispatch(const core::VmEvent& event) const { return event.handle == dispatch_bp_; }
  bool is_thread_start(const core::VmEvent& event) const { return event.handle == start_bp_; }

  // At a hook stop (the poster suspended): the message's index, or nullopt when the test
  // has not started yet.
  util::Result<std::optional<size_t>> on_send(const core::VmEvent& event, int statement_line, core::Deadline deadline);
  // At a Thread.start stop (the starter suspended): notes which message the new thread was
  // started in.
  util::Result<void> on_thread_start(const core::VmEvent& event, core::Deadline deadline);
  // At a dispatch stop: the index of the message being dispatched, or nullopt when it was
  // not recorded (sent before the test).
  util::Result<std::optional<size_t>> on_dispatch(const core::VmEvent& event, core::Deadline deadline);

  // A thread started since the test began is still running or sleeping (or not yet
  // running): it may still post. Threads that wait, are blocked on a monitor or have ended
  // are idle. Callers wait at the end of the test while this holds (bounded), so that a
  // message posted just after the test's last statement is recorded.
  util::Result<bool> started_threads_busy(core::Deadline deadline);
  // Every message sent to the main queue so far has been dispatched.
  bool main_queue_dispatched() const;

  const MessageTrace& trace() const { return trace_; }
  // The trace with handlers learned after the send filled in.
  MessageTrace finish();
  // Milliseconds since the recorder was made.
  double now_ms() const;

 private:
  int thread_index(core::ThreadRef thread, core::Deadline deadline);

  LooperSession& session_;
  MessageTrace trace_;
  core::RequestHandle dispatch_bp_ = 0;
  core::RequestHandle start_bp_ = 0;
  std::map<std::uint64_t, size_t> dispatching_;   // looper thread id -> message it dispatches last
  std::map<std::uint64_t, int> started_in_;       // thread id -> message it was started in
  std::vector<core::ThreadRef> started_;          // threads started since the test began
  OccurrenceCounter occurrences_;
  std::map<std::uint64_t, int> threads_;          // runtime thread id -> index
  std::map<std::uint64_t, size_t> pending_;       // message object id -> undispatched message
  std::vector<std::uint64_t> queue_of_;           // per message: its queue's object id
  std::map<std::uint64_t, int> queue_thread_;     // queue object id -> looper thread index
  std::optional<double> uptime_base_;             // uptime at now_ms() == 0
  std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
};

}  // namespace flakescan::looper_trace
