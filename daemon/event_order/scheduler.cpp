#include "event_order/scheduler.hpp"

#include "event_order/schedule_space.hpp"
#include "util/log.hpp"

namespace flakescan::event_order {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
using Kind = looper_trace::LooperSession::Kind;

namespace {

struct State {
  std::optional<core::VmEvent> held;      // posting thread stopped at the hook
  bool released = false;                  // the event has been let through (or passed by)
  std::optional<core::VmEvent> parked;    // testing thread held at the position
  std::optional<Clock::time_point> waiting_for_event;
  core::RequestHandle exit_watch = 0;
  core::ThreadRef settling;               // released poster, until it is idle or ended
  Clock::time_point settling_since;
  int current_line = -1;
  Clock::time_point line_since = Clock::now();
  bool test_over = false;
};

}  // namespace

util::Result<void> run_schedule(core::Vm& vm, const std::string& test, const ScheduleRequest& request,
                                const ScheduleOptions& options, ScheduleResult& out) {
  static auto log = util::logger("explore");
  auto method = looper_trace::TestMethod::parse(test);
  if (!method) return std::unexpected(method.error());
  const auto end_by = Clock::now() + options.deadline;
  auto call = [] { return core::deadline_in(10s); };
  out = ScheduleResult{};  // a retried run starts again from scratch
  looper_trace::LooperSession session(vm, *method, options.hook);
  if (auto r = session.start(call()); !r) return r;
  looper_trace::OccurrenceCounter occurrences;
  State st;
  const bool what_if = !request.position;
  const int position_index = request.position && *request.position != end_of_test
                                 ? session.statement_index(*request.position) : -1;

  // Lets the held event in; the testing thread (if parked) goes on at the hook's exit.
  // The released poster is idle (waiting, sleeping) or gone: the testing thread may go on.
  auto poster_settled = [&]() -> bool {
    if (Clock::now() - st.settling_since >= options.settle_cap) return true;
    auto status = vm.thread_status(st.settling, call());
    if (!status) return true;  // the thread has ended
    return status->state != core::ThreadState::running && status->state != core::ThreadState::unknown;
  };
  auto release = [&]() -> util::Result<void> {
    auto watch = session.watch_hook_exit(st.held->thread, call());
    if (!watch) return std::unexpected(watch.error());
    st.exit_watch = *watch;
    st.released = true;
    auto r = session.resume(*st.held, call());
    st.held.reset();
    return r;
  };
  auto let_testing_go = [&]() -> util::Result<void> {
    if (!st.parked) return {};
    auto r = session.resume(*st.parked, call());
    st.parked.reset();
    return r;
  };

  while (Clock::now() < end_by) {
    auto ev = vm.next_event(core::deadline_in(50ms));
    if (!ev) {
      if (ev.error().code == util::Errc::disconnected) return {};
      if (ev.error().code != util::Errc::timeout) return std::unexpected(ev.error());
      auto now = Clock::now();
      if (st.settling && poster_settled()) {
        st.settling = {};
        if (auto r = let_testing_go(); !r) return r;
        if (st.test_over) return {};
        continue;
      }
      if (st.waiting_for_event && now - *st.waiting_for_event >= options.event_wait) {
        st.waiting_for_event.reset();
        st.released = true;  // the event did not come to the position: nothing to delay
        out.note = "the event was not posted while the testing thread waited at the position";
        if (auto r = let_testing_go(); !r) return r;
        if (st.test_over) return {};
        continue;
      }
      if (st.held && !st.released && !st.parked && now - st.line_since >= options.grace) {
        auto waiting = session.testing_waiting(call());
        if (!waiting) return std::unexpected(waiting.error());
        if (*waiting) {
          if (st.test_over) out.blocked_after_test = true;
          else out.blocked_at = st.current_line;
          if (!what_if) out.note = "the testing thread blocked on the held event before the position";
          if (auto r = release(); !r) return r;
        }
      }
      continue;
    }
    switch (session.classify(*ev)) {
      case Kind::vm_end: return {};
      case Kind::end_of_test: {
        (void)session.on_test_ended(call());  // best effort: detach clears them too
        st.test_over = true;
        st.line_since = Clock::now();
        if (st.held && !st.released) {
          st.parked = *ev;
          if (request.position == end_of_test || what_if) out.realised = true;
          if (auto r = release(); !r) return r;
          continue;
        }
        if (request.position == end_of_test && !out.event_seen) {
          // Reached the end before the event existed: wait for it here.
          st.parked = *ev;
          st.waiting_for_event = Clock::now();
          continue;
        }
        if (st.exit_watch || st.settling) {  // the released event is still being enqueued
          st.parked = *ev;
          continue;
        }
        return session.resume(*ev, call());
      }
      case Kind::line: {
        if (!session.started())
          if (auto r = session.on_test_started(ev->thread, call()); !r) return r;
        if (ev->thread != session.testing()) break;
        st.current_line = ev->frame.line;
        st.line_since = Clock::now();
        if (position_index < 0 || st.released || session.statement_index(st.current_line) < position_index) break;
        st.parked = *ev;  // at the position
        if (st.held) {
          out.realised = true;
          if (auto r = release(); !r) return r;
        } else {
          st.waiting_for_event = Clock::now();
        }
        continue;
      }
      case Kind::hook: {
        auto role = session.role_at_hook(ev->thread, call());
        if (!role) return std::unexpected(role.error());
        if (!*role) break;
        auto stack = session.posting_stack(ev->thread, call());
        if (!stack) return std::unexpected(stack.error());
        looper_trace::EventIdentity id{st.current_line, **role, std::move(*stack), 0};
        id.occurrence = occurrences.next(id.role, id.stack);
        if (id.role != looper_trace::Role::background || id.key() != request.event_key || out.event_seen) break;
        out.event_seen = true;
        out.posted_at_line = st.current_line;
        log->debug("{}: target event {} reached the hook", test, id.str());
        if (st.released) break;  // came after an abandoned wait
        st.held = *ev;
        if (st.waiting_for_event) {  // the testing thread already waits at the position
          st.waiting_for_event.reset();
          out.realised = true;
          if (auto r = release(); !r) return r;
        } else if (st.test_over && request.position != end_of_test) {
          out.note = "the event came after the test method";
          if (auto r = release(); !r) return r;
        }
        continue;
      }
      case Kind::other:
        if (st.exit_watch && session.is_hook_exit(*ev, st.exit_watch)) {
          (void)vm.clear(st.exit_watch, call());
          st.exit_watch = 0;
          if (!st.parked) continue;
          // docs/explore.md: the testing thread goes on once the poster is idle or ended (a
          // poster that posts a second event right after the first delivers it too).
          st.settling = ev->thread;
          st.settling_since = Clock::now();
          continue;
        }
        break;
      case Kind::main_next: break;  // never asked for here
    }
    if (auto r = session.resume(*ev, call()); !r) return r;
  }
  return util::fail(util::Errc::timeout, "schedule run of " + test + " did not finish in time");
}

}  // namespace flakescan::event_order
