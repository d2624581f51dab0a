#pragma once
// Both life-cycle steps of every message on every looper one run saw (docs/explore.md,
// strategy maxdiff): send(thread, message, delay), the enqueue with its `when`, and
// dispatch(thread, message). Recorded by looper_trace/message_tracer.hpp through the same
// core::Vm (JDWP) path on HotSpot and ART; read by event_order/happens_before.hpp and
// event_order/max_diff.hpp.
//
// A message is async when a background thread sends it to the main thread (the UI
// thread); every other message (background to background, main or testing thread to
// anything) is sync. Threads are numbered in the order the run first saw them.
//
// Text format (recorded traces in tests/fixtures/event_order/), one record per line, the
// send and dispatch records in the order they happened:
//   test<TAB>pkg.Class#method
//   outcome<TAB>pass|fail|...
//   thread<TAB><n><TAB>main|testing|background<TAB><name>[<TAB><started in message>]
//   send<TAB><message><TAB><sender><TAB><handler><TAB><delay ms><TAB><when><TAB><at ms><TAB><statement line><TAB><occurrence><TAB><frame>;<frame>;...
//   dispatch<TAB><message><TAB><thread><TAB><at ms>
// <message> numbers messages in send order (0, 1, ...); <handler> is the thread whose looper
// owns the queue the message went to (-1: not known; a dispatch record tells it); <at ms> is
// milliseconds since the
// trace began; the sender's stack, statement line and occurrence are the message's
// cross-run identity (identity.hpp), its role the sender thread's role.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run.hpp"
#include "looper_trace/identity.hpp"
#include "util/error.hpp"

namespace flakescan::looper_trace {

struct TraceThread {
  Role role = Role::background;
  std::string name;
  // The message during whose dispatch the thread was started (Thread.start on a looper
  // thread, or on a thread itself started so), -1: not known. Everything the thread sends
  // happens after that message.
  int started_in = -1;
};

struct Message {
  int sender = -1;             // thread index
  int handler = -1;            // the looper thread of its queue (-1: unknown, never dispatched)
  std::int64_t delay_ms = 0;   // when - uptime at the send (0: post())
  std::int64_t when = 0;       // the queue's `when` (uptime millis)
  double sent_at_ms = 0;
  std::optional<double> dispatched_at_ms;
  EventIdentity identity;      // cross-run identity of the send; role = the sender's role
};

struct MessageTrace {
  std::string test;
  core::Outcome outcome = core::Outcome::infra;
  std::vector<TraceThread> threads;
  std::vector<Message> messages;  // in send order

  // The main thread's index, -1 when the run never saw it.
  int main_thread() const;
  // Background sender, main handler.
  bool async(size_t message) const;
  // Messages dispatched on `thread`, in dispatch order.
  std::vector<size_t> dispatched_on(int thread) const;
  // The async messages, in dispatch order on the main thread (undispatched ones last, in
  // send order).
  std::vector<size_t> async_sequence() const;
};

std::string format_message_trace(const MessageTrace& trace);
util::Result<MessageTrace> parse_message_trace(std::string_view text);

}  // namespace flakescan::looper_trace
