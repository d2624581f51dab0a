#include "looper_trace/message_tracer.hpp"

#include <optional>

#include "looper_trace/message_recorder.hpp"

namespace flakescan::looper_trace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

util::Result<void> trace_messages(core::Vm& vm, const std::string& test, const MessageTraceOptions& options,
                                  MessageTrace& out) {
  auto method = TestMethod::parse(test);
  if (!method) return std::unexpected(method.error());
  const auto end_by = Clock::now() + options.deadline;
  auto call = [] { return core::deadline_in(10s); };
  LooperSession session(vm, *method, options.hook);
  MessageRecorder recorder(session, test);
  if (auto r = recorder.start(call()); !r) return r;
  if (auto r = session.start(call()); !r) return r;
  out = MessageTrace{};  // a retried run starts again from scratch
  out.test = test;
  int current_line = -1;
  std::optional<core::VmEvent> ending;  // the end-of-test stop while late work finishes
  Clock::time_point ending_since;
  auto try_end = [&](bool& done) -> util::Result<void> {
    done = Clock::now() - ending_since >= options.end_wait;
    if (!done && recorder.main_queue_dispatched()) {
      auto busy = recorder.started_threads_busy(call());
      if (!busy) return std::unexpected(busy.error());
      done = !*busy;
    }
    if (!done) return {};
    out = recorder.finish();
    return session.resume(*ending, call());  // the executor detaches and lets it finish
  };
  while (Clock::now() < end_by) {
    if (ending) {
      bool done = false;
      if (auto r = try_end(done); !r || done) return r;
    }
    auto ev = vm.next_event(core::deadline_in(ending ? 50ms : 200ms));
    if (!ev) {
      if (ev.error().code == util::Errc::disconnected) break;
      if (ev.error().code != util::Errc::timeout) return std::unexpected(ev.error());
      continue;
    }
    if (recorder.is_dispatch(*ev)) {
      if (auto r = recorder.on_dispatch(*ev, call()); !r) return std::unexpected(r.error());
    } else if (recorder.is_thread_start(*ev)) {
      if (auto r = recorder.on_thread_start(*ev, call()); !r) return r;
    } else {
      switch (session.classify(*ev)) {
        case LooperSession::Kind::vm_end:
          out = recorder.finish();
          return {};
        case LooperSession::Kind::end_of_test: {
          if (ending) break;
          (void)session.on_test_ended(call());  // best effort: detach clears them too
          ending = *ev;
          ending_since = Clock::now();
          continue;  // the testing thread stays at its end marker meanwhile
        }
        case LooperSession::Kind::line:
          if (!session.started())
            if (auto r = session.on_test_started(ev->thread, call()); !r) return r;
          if (ev->thread == session.testing()) current_line = ev->frame.line;
          break;
        case LooperSession::Kind::hook:
          if (auto r = recorder.on_send(*ev, current_line, call()); !r) return std::unexpected(r.error());
          break;
        default: break;
      }
    }
    if (auto r = session.resume(*ev, call()); !r) return r;
  }
  if (ending) (void)session.resume(*ending, call());
  out = recorder.finish();
  if (Clock::now() >= end_by) return util::fail(util::Errc::timeout, "tracing the messages of " + test + " did not finish in time");
  return {};
}

}  // namespace flakescan::looper_trace
