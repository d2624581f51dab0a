#include "event_order/message_scheduler.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "looper_trace/message_recorder.hpp"
#include "util/log.hpp"

namespace flakescan::event_order {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
using Kind = looper_trace::LooperSession::Kind;

bool MessageScheduleResult::all_realised() const {
  return std::all_of(realised.begin(), realised.end(), [](bool r) { return r; });
}

namespace {

struct Held {
  core::VmEvent event;
  std::string key;
  Clock::time_point since;
};

std::string ms_since(Clock::time_point since) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count());
}

void judge(const std::vector<Placement>& placements, MessageScheduleResult& out) {
  std::map<std::string, double> at;
  for (const auto& m : out.trace.messages)
    if (m.dispatched_at_ms) at.emplace(m.identity.key(), *m.dispatched_at_ms);
  out.realised.clear();
  for (const auto& p : placements) {
    auto m = at.find(p.message);
    auto a = at.find(p.after);
    out.realised.push_back(m != at.end() && a != at.end() && a->second <= m->second);
  }
}

}  // namespace

void HandledMessages::dispatch_began(const std::string& key, bool on_main) {
  if (!key.empty()) dispatched_.insert(key);
  if (!on_main || !main_next_known_) {
    if (!key.empty()) handled_.insert(key);
    return;
  }
  if (on_main_) handled_.insert(*on_main_);
  on_main_ = key.empty() ? std::nullopt : std::optional<std::string>(key);
}

void HandledMessages::main_asked_next() {
  if (on_main_) handled_.insert(*on_main_);
  on_main_.reset();
}

std::vector<std::string> HandledMessages::waiting_for(const std::vector<Placement>& placements,
                                                      const std::string& key) const {
  std::vector<std::string> out;
  for (const auto& p : placements)
    if (p.message == key && !handled(p.after)) out.push_back(p.after);
  return out;
}

std::vector<std::string> HandledMessages::not_dispatched(const std::vector<Placement>& placements,
                                                         const std::string& key) const {
  std::vector<std::string> out;
  for (const auto& p : placements)
    if (p.message == key && !dispatched(p.after)) out.push_back(p.after);
  return out;
}

util::Result<void> run_message_schedule(core::Vm& vm, const std::string& test, const std::vector<Placement>& placements,
                                        const MessageScheduleOptions& options, MessageScheduleResult& out) {
  static auto log = util::logger("explore");
  auto method = looper_trace::TestMethod::parse(test);
  if (!method) return std::unexpected(method.error());
  const auto end_by = Clock::now() + options.deadline;
  auto call = [] { return core::deadline_in(10s); };
  out = MessageScheduleResult{};  // a retried run starts again from scratch
  looper_trace::LooperSession session(vm, *method, options.hook);
  looper_trace::MessageRecorder recorder(session, test);
  if (auto r = recorder.start(call()); !r) return r;
  if (auto r = session.start(call()); !r) return r;
  std::vector<Held> held;
  std::set<std::string> placed;  // keys of the messages the placements order
  for (const auto& p : placements) placed.insert({p.message, p.after});
  // The end-of-test stop, kept while released messages are still on their way to dispatch.
  std::optional<core::VmEvent> ending;
  Clock::time_point ending_since;
  int current_line = -1;
  auto last_event = Clock::now();

  HandledMessages progress;

  // Resumes the held posters whose anchors were all handled, those held too long, or all.
  auto release_ready = [&](bool everyone) -> util::Result<void> {
    for (auto it = held.begin(); it != held.end();) {
      const auto now = Clock::now();
      const auto waits = progress.waiting_for(placements, it->key);
      bool timed_out = now - std::max(it->since, last_event) >= options.wait || now - it->since >= options.longest_hold;
      if (!everyone && !timed_out && !waits.empty()) {
        ++it;
        continue;
      }
      if (timed_out && !waits.empty()) {
        const bool began = std::all_of(waits.begin(), waits.end(), [&](const auto& a) { return progress.dispatched(a); });
        out.note += it->key + " was released after " + ms_since(it->since) + " ms " +
                    (began ? "before the message it waited for was handled" : "without the message it waited for") + "; ";
      }
      if (auto r = session.resume(it->event, call()); !r) return r;
      it = held.erase(it);
    }
    return {};
  };
  auto finish = [&]() {
    out.trace = recorder.finish();
    judge(placements, out);
  };
  // The test ended: once every placed message that was sent has been dispatched and the
  // threads the test started are idle (or the run was quiet for `wait`, or `longest_hold`
  // passed), the trace is complete and the testing thread goes on.
  auto try_end = [&](bool& done) -> util::Result<void> {
    const auto& sent = recorder.trace().messages;
    const bool arrived = std::all_of(sent.begin(), sent.end(), [&](const looper_trace::Message& m) {
      return m.dispatched_at_ms || !placed.contains(m.identity.key());
    });
    bool settled = arrived;
    if (settled) {
      auto busy = recorder.started_threads_busy(call());
      if (!busy) return std::unexpected(busy.error());
      settled = !*busy;
    }
    const auto now = Clock::now();
    done = settled || now - last_event >= options.wait || now - ending_since >= options.longest_hold;
    if (!done) return {};
    if (!arrived) out.note += "a placed message was not dispatched after the end; ";
    finish();
    return session.resume(*ending, call());
  };

  while (Clock::now() < end_by) {
    if (ending) {
      bool done = false;
      if (auto r = try_end(done); !r || done) return r;
    }
    auto ev = vm.next_event(core::deadline_in(50ms));
    if (!ev) {
      if (ev.error().code == util::Errc::disconnected) {
        finish();
        return {};
      }
      if (ev.error().code != util::Errc::timeout) return std::unexpected(ev.error());
      if (auto r = release_ready(false); !r) return r;
      continue;
    }
    last_event = Clock::now();
    if (recorder.is_thread_start(*ev)) {
      if (auto r = recorder.on_thread_start(*ev, call()); !r) return r;
      if (auto r = session.resume(*ev, call()); !r) return r;
      continue;
    }
    if (recorder.is_dispatch(*ev)) {
      auto index = recorder.on_dispatch(*ev, call());
      if (!index) return std::unexpected(index.error());
      progress.dispatch_began(*index ? recorder.trace().messages[**index].identity.key() : std::string{},
                              ev->thread == session.main_thread());
      if (auto r = session.resume(*ev, call()); !r) return r;
      if (auto r = release_ready(false); !r) return r;
      continue;
    }
    switch (session.classify(*ev)) {
      case Kind::vm_end:
        finish();
        return {};
      case Kind::end_of_test: {
        if (ending) break;
        (void)session.on_test_ended(call());  // best effort: detach clears them too
        if (!held.empty()) out.note += "the test ended while messages were held; ";
        if (auto r = release_ready(true); !r) return r;
        // A placed message sent late (let go once the last message the test waited for was
        // handled, posted with a delay, or by a thread that was still busy) is dispatched
        // only after the test's last statement: the testing thread waits at the end for it,
        // so that the trace shows the order the run realised.
        ending = *ev;
        ending_since = Clock::now();
        continue;  // the testing thread stays at its end marker meanwhile
      }
      case Kind::line:
        if (!session.started()) {
          if (auto r = session.on_test_started(ev->thread, call()); !r) return r;
          if (auto r = session.watch_main_next(call()); !r) {
            if (r.error().code != util::Errc::not_found && r.error().code != util::Errc::unsupported) return r;
            log->warn("{}: no breakpoint on the main queue's next() ({}): a held message is released when its "
                      "anchor's dispatch begins", test, r.error().message);
            out.note += "no breakpoint on the main queue's next(): holds end when the anchor's dispatch begins; ";
            progress = HandledMessages(/*main_next_known=*/false);
          }
        }
        if (ev->thread == session.testing()) current_line = ev->frame.line;
        break;
      case Kind::main_next:
        // Main has handled its message: the posters held after it go on before main does.
        progress.main_asked_next();
        if (auto r = release_ready(false); !r) return r;
        break;
      case Kind::hook: {
        auto index = recorder.on_send(*ev, current_line, call());
        if (!index) return std::unexpected(index.error());
        if (!*index || ending) break;  // nothing is held once the test has ended
        const auto& m = recorder.trace().messages[**index];
        auto key = m.identity.key();
        if (ev->thread == session.main_thread()) {
          if (!progress.not_dispatched(placements, key).empty())
            out.note += key + " is posted by the main thread, which is never held; ";
          break;
        }
        auto waits = progress.waiting_for(placements, key);
        if (waits.empty()) break;
        log->debug("{}: holding {} until {} was handled", test, m.identity.str(), waits.front());
        held.push_back({*ev, key, Clock::now()});
        continue;  // the poster stays at the hook
      }
      default: break;
    }
    if (auto r = session.resume(*ev, call()); !r) return r;
  }
  (void)release_ready(true);
  if (ending) (void)session.resume(*ending, call());
  finish();
  return util::fail(util::Errc::timeout, "message schedule run of " + test + " did not finish in time");
}

std::string format_placements(const std::vector<Placement>& placements) {
  std::string out;
  for (const auto& p : placements) out += p.message + " after " + p.after + "\n";
  return out;
}

util::Result<std::vector<Placement>> parse_placements(const std::string& text) {
  std::vector<Placement> out;
  size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    auto line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    auto sep = line.find(" after ");
    if (sep == std::string::npos || sep == 0 || sep + 7 >= line.size())
      return util::fail(util::Errc::invalid_argument, "bad placement (want '<key> after <key>'): " + line);
    out.push_back({line.substr(0, sep), line.substr(sep + 7)});
  }
  return out;
}

}  // namespace flakescan::event_order
