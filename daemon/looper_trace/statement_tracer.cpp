#include "looper_trace/statement_tracer.hpp"

#include "util/log.hpp"

namespace flakescan::looper_trace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

util::Result<void> trace_statements(core::Vm& vm, const std::string& test, const StatementTraceOptions& options, StatementTrace& out) {
  static auto log = util::logger("trace");
  auto method = TestMethod::parse(test);
  if (!method) return std::unexpected(method.error());
  const auto end_by = Clock::now() + options.deadline;
  auto call = [] { return core::deadline_in(10s); };
  LooperSession session(vm, *method, options.hook);
  if (auto r = session.start(call()); !r) return r;
  out = StatementTrace{};  // a retried run starts again from scratch
  out.test = test;
  out.lines = session.lines();

  OccurrenceCounter occurrences;
  int current_line = -1;                 // statement executing (events are attributed to it)
  std::optional<core::VmEvent> parked;   // testing thread held at the next statement's line
  auto parked_since = Clock::now();
  auto last_event = Clock::now();

  while (Clock::now() < end_by) {
    auto ev = vm.next_event(core::deadline_in(50ms));
    if (!ev) {
      if (ev.error().code == util::Errc::disconnected) return {};
      if (ev.error().code != util::Errc::timeout) return std::unexpected(ev.error());
      if (!parked) continue;
      auto now = Clock::now();
      bool quiet = now - last_event >= options.quiet && now - parked_since >= options.quiet;
      bool settled = false;
      if (quiet) {
        auto idle = session.main_queue_idle(call());
        if (!idle) return std::unexpected(idle.error());
        settled = *idle;
      }
      if (settled || now - parked_since >= options.max_settle) {
        if (!settled) log->info("{}: statement before line {} did not settle; going on", test, parked->frame.line);
        current_line = parked->frame.line;
        if (auto r = session.resume(*parked, call()); !r) return r;
        parked.reset();
      }
      continue;
    }
    switch (session.classify(*ev)) {
      case LooperSession::Kind::vm_end: return {};
      case LooperSession::Kind::end_of_test:
        (void)session.on_test_ended(call());  // best effort: detach clears them too
        if (parked) (void)session.resume(*parked, call());
        return session.resume(*ev, call());  // the executor detaches and lets it finish
      case LooperSession::Kind::line:
        if (!session.started())
          if (auto r = session.on_test_started(ev->thread, call()); !r) return r;
        if (ev->thread != session.testing()) break;
        parked = *ev;
        parked_since = Clock::now();
        continue;  // held until the previous statement settled
      case LooperSession::Kind::hook: {
        last_event = Clock::now();
        auto role = session.role_at_hook(ev->thread, call());
        if (!role) return std::unexpected(role.error());
        if (!*role) break;
        auto stack = session.posting_stack(ev->thread, call());
        if (!stack) return std::unexpected(stack.error());
        TracedEvent e;
        e.identity.statement_line = current_line;
        e.identity.role = **role;
        e.identity.stack = std::move(*stack);
        e.identity.occurrence = occurrences.next(e.identity.role, e.identity.stack);
        if (e.async()) e.thread_name = session.thread_name(ev->thread, call());
        log->debug("{}: event {} {}", test, e.identity.str(), e.thread_name);
        out.events.push_back(std::move(e));
        break;
      }
      default: break;
    }
    if (auto r = session.resume(*ev, call()); !r) return r;
  }
  return util::fail(util::Errc::timeout, "tracing " + test + " did not finish in time");
}

}  // namespace flakescan::looper_trace
