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

// One schedule run: the session over the VM and where the held event and the testing thread are.
class ScheduleRun {
 public:
  ScheduleRun(core::Vm& vm, const looper_trace::TestMethod& method, const std::string& test, const ScheduleRequest& request,
              const ScheduleOptions& options, ScheduleResult& out)
      : vm_(vm), test_(test), request_(request), options_(options), out_(out), end_by_(Clock::now() + options.deadline),
        session_(vm, method, options.hook), what_if_(!request.position) {}

  util::Result<void> run();

 private:
  // What to do with the stopped thread after a stop: resume it, keep it stopped, or end the run.
  enum class Next { resume, keep, over };
  static core::Deadline call() { return core::deadline_in(10s); }

  util::Result<Next> on_quiet();
  util::Result<Next> on_event(const core::VmEvent& ev);
  util::Result<Next> on_test_end(const core::VmEvent& ev);
  util::Result<Next> on_line(const core::VmEvent& ev);
  util::Result<Next> on_hook(const core::VmEvent& ev);
  Next on_other(const core::VmEvent& ev);
  bool poster_settled();
  util::Result<void> release();
  util::Result<void> let_testing_go();

  core::Vm& vm_;
  const std::string& test_;
  const ScheduleRequest& request_;
  const ScheduleOptions& options_;
  ScheduleResult& out_;
  const Clock::time_point end_by_;
  looper_trace::LooperSession session_;
  looper_trace::OccurrenceCounter occurrences_;
  State st_;
  const bool what_if_;
  int position_index_ = -1;
};

util::Result<void> ScheduleRun::run() {
  if (auto r = session_.start(call()); !r) return r;
  st_ = State{};
  position_index_ = request_.position && *request_.position != end_of_test ? session_.statement_index(*request_.position) : -1;
  while (Clock::now() < end_by_) {
    auto ev = vm_.next_event(core::deadline_in(50ms));
    util::Result<Next> next = Next::keep;
    if (!ev) {
      if (ev.error().code == util::Errc::disconnected) return {};
      if (ev.error().code != util::Errc::timeout) return std::unexpected(ev.error());
      next = on_quiet();
    } else {
      next = on_event(*ev);
    }
    if (!next) return std::unexpected(next.error());
    if (*next == Next::over) return {};
    if (*next == Next::resume)
      if (auto r = session_.resume(*ev, call()); !r) return r;
  }
  return util::fail(util::Errc::timeout, "schedule run of " + test_ + " did not finish in time");
}

// No event for a while: a settled poster, an event that did not come, or a testing thread
// blocked on the held event lets things go on.
util::Result<ScheduleRun::Next> ScheduleRun::on_quiet() {
  auto now = Clock::now();
  if (st_.settling && poster_settled()) {
    st_.settling = {};
    if (auto r = let_testing_go(); !r) return std::unexpected(r.error());
    return st_.test_over ? Next::over : Next::keep;
  }
  if (st_.waiting_for_event && now - *st_.waiting_for_event >= options_.event_wait) {
    st_.waiting_for_event.reset();
    st_.released = true;  // the event did not come to the position: nothing to delay
    out_.note = "the event was not posted while the testing thread waited at the position";
    if (auto r = let_testing_go(); !r) return std::unexpected(r.error());
    return st_.test_over ? Next::over : Next::keep;
  }
  if (st_.held && !st_.released && !st_.parked && now - st_.line_since >= options_.grace) {
    auto waiting = session_.testing_waiting(call());
    if (!waiting) return std::unexpected(waiting.error());
    if (*waiting) {
      if (st_.test_over) out_.blocked_after_test = true;
      else out_.blocked_at = st_.current_line;
      if (!what_if_) out_.note = "the testing thread blocked on the held event before the position";
      if (auto r = release(); !r) return std::unexpected(r.error());
    }
  }
  return Next::keep;
}

util::Result<ScheduleRun::Next> ScheduleRun::on_event(const core::VmEvent& ev) {
  switch (session_.classify(ev)) {
    case Kind::vm_end: return Next::over;
    case Kind::end_of_test: return on_test_end(ev);
    case Kind::line: return on_line(ev);
    case Kind::hook: return on_hook(ev);
    case Kind::other: return on_other(ev);
    case Kind::main_next: break;  // never asked for here
  }
  return Next::resume;
}

util::Result<ScheduleRun::Next> ScheduleRun::on_test_end(const core::VmEvent& ev) {
  (void)session_.on_test_ended(call());  // best effort: detach clears them too
  st_.test_over = true;
  st_.line_since = Clock::now();
  if (st_.held && !st_.released) {
    st_.parked = ev;
    if (request_.position == end_of_test || what_if_) out_.realised = true;
    if (auto r = release(); !r) return std::unexpected(r.error());
    return Next::keep;
  }
  if (request_.position == end_of_test && !out_.event_seen) {
    // Reached the end before the event existed: wait for it here.
    st_.parked = ev;
    st_.waiting_for_event = Clock::now();
    return Next::keep;
  }
  if (st_.exit_watch || st_.settling) {  // the released event is still being enqueued
    st_.parked = ev;
    return Next::keep;
  }
  if (auto r = session_.resume(ev, call()); !r) return std::unexpected(r.error());
  return Next::over;
}

util::Result<ScheduleRun::Next> ScheduleRun::on_line(const core::VmEvent& ev) {
  if (!session_.started())
    if (auto r = session_.on_test_started(ev.thread, call()); !r) return std::unexpected(r.error());
  if (ev.thread != session_.testing()) return Next::resume;
  st_.current_line = ev.frame.line;
  st_.line_since = Clock::now();
  if (position_index_ < 0 || st_.released || session_.statement_index(st_.current_line) < position_index_) return Next::resume;
  st_.parked = ev;  // at the position
  if (st_.held) {
    out_.realised = true;
    if (auto r = release(); !r) return std::unexpected(r.error());
  } else {
    st_.waiting_for_event = Clock::now();
  }
  return Next::keep;
}

util::Result<ScheduleRun::Next> ScheduleRun::on_hook(const core::VmEvent& ev) {
  static auto log = util::logger("explore");
  auto role = session_.role_at_hook(ev.thread, call());
  if (!role) return std::unexpected(role.error());
  if (!*role) return Next::resume;
  auto stack = session_.posting_stack(ev.thread, call());
  if (!stack) return std::unexpected(stack.error());
  looper_trace::EventIdentity id{st_.current_line, **role, std::move(*stack), 0};
  id.occurrence = occurrences_.next(id.role, id.stack);
  if (id.role != looper_trace::Role::background || id.key() != request_.event_key || out_.event_seen) return Next::resume;
  out_.event_seen = true;
  out_.posted_at_line = st_.current_line;
  log->debug("{}: target event {} reached the hook", test_, id.str());
  if (st_.released) return Next::resume;  // came after an abandoned wait
  st_.held = ev;
  if (st_.waiting_for_event) {  // the testing thread already waits at the position
    st_.waiting_for_event.reset();
    out_.realised = true;
    if (auto r = release(); !r) return std::unexpected(r.error());
  } else if (st_.test_over && request_.position != end_of_test) {
    out_.note = "the event came after the test method";
    if (auto r = release(); !r) return std::unexpected(r.error());
  }
  return Next::keep;
}

ScheduleRun::Next ScheduleRun::on_other(const core::VmEvent& ev) {
  if (!st_.exit_watch || !session_.is_hook_exit(ev, st_.exit_watch)) return Next::resume;
  (void)vm_.clear(st_.exit_watch, call());
  st_.exit_watch = 0;
  if (!st_.parked) return Next::keep;
  // docs/explore.md: the testing thread goes on once the poster is idle or ended (a
  // poster that posts a second event right after the first delivers it too).
  st_.settling = ev.thread;
  st_.settling_since = Clock::now();
  return Next::keep;
}

// The released poster is idle (waiting, sleeping) or gone: the testing thread may go on.
bool ScheduleRun::poster_settled() {
  if (Clock::now() - st_.settling_since >= options_.settle_cap) return true;
  auto status = vm_.thread_status(st_.settling, call());
  if (!status) return true;  // the thread has ended
  return status->state != core::ThreadState::running && status->state != core::ThreadState::unknown;
}

// Lets the held event in; the testing thread (if parked) goes on at the hook's exit.
util::Result<void> ScheduleRun::release() {
  auto watch = session_.watch_hook_exit(st_.held->thread, call());
  if (!watch) return std::unexpected(watch.error());
  st_.exit_watch = *watch;
  st_.released = true;
  auto r = session_.resume(*st_.held, call());
  st_.held.reset();
  return r;
}

util::Result<void> ScheduleRun::let_testing_go() {
  if (!st_.parked) return {};
  auto r = session_.resume(*st_.parked, call());
  st_.parked.reset();
  return r;
}

}  // namespace

util::Result<void> run_schedule(core::Vm& vm, const std::string& test, const ScheduleRequest& request,
                                const ScheduleOptions& options, ScheduleResult& out) {
  auto method = looper_trace::TestMethod::parse(test);
  if (!method) return std::unexpected(method.error());
  out = ScheduleResult{};  // a retried run starts again from scratch
  ScheduleRun run(vm, *method, test, request, options, out);
  return run.run();
}

}  // namespace flakescan::event_order
