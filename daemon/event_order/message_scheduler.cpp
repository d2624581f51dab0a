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

namespace {

// One message schedule run: the session over the VM, the posters held at the hook, and the
// testing thread's end-of-test stop while released messages are still on their way.
class MessageRun {
 public:
  MessageRun(core::Vm& vm, const looper_trace::TestMethod& method, const std::string& test,
             const std::vector<Placement>& placements, const MessageScheduleOptions& options,
             MessageScheduleResult& out)
      : vm_(vm), test_(test), placements_(placements), options_(options), out_(out),
        end_by_(Clock::now() + options.deadline), session_(vm, method, options.hook), recorder_(session_, test) {
    for (const auto& p : placements) placed_.insert({p.message, p.after});
  }

  util::Result<void> run();

 private:
  enum class After { next_event, run_over };
  static core::Deadline call() { return core::deadline_in(10s); }

  util::Result<After> on_event(const core::VmEvent& ev);
  util::Result<void> on_thread_start(const core::VmEvent& ev);
  util::Result<void> on_dispatch(const core::VmEvent& ev);
  util::Result<void> on_test_end(const core::VmEvent& ev);
  util::Result<void> on_line(const core::VmEvent& ev);
  util::Result<bool> on_hook(const core::VmEvent& ev);
  util::Result<void> release_ready(bool everyone);
  util::Result<void> try_end(bool& done);
  void finish();

  core::Vm& vm_;
  const std::string& test_;
  const std::vector<Placement>& placements_;
  const MessageScheduleOptions& options_;
  MessageScheduleResult& out_;
  const Clock::time_point end_by_;
  looper_trace::LooperSession session_;
  looper_trace::MessageRecorder recorder_;
  std::vector<Held> held_;
  std::set<std::string> placed_;  // keys of the messages the placements order
  // The end-of-test stop, kept while released messages are still on their way to dispatch.
  std::optional<core::VmEvent> ending_;
  Clock::time_point ending_since_;
  int current_line_ = -1;
  Clock::time_point last_event_;
  HandledMessages progress_;
};

util::Result<void> MessageRun::run() {
  if (auto r = recorder_.start(call()); !r) return r;
  if (auto r = session_.start(call()); !r) return r;
  last_event_ = Clock::now();
  while (Clock::now() < end_by_) {
    if (ending_) {
      bool done = false;
      if (auto r = try_end(done); !r || done) return r;
    }
    auto ev = vm_.next_event(core::deadline_in(50ms));
    if (!ev) {
      if (ev.error().code == util::Errc::disconnected) {
        finish();
        return {};
      }
      if (ev.error().code != util::Errc::timeout) return std::unexpected(ev.error());
      if (auto r = release_ready(false); !r) return r;
      continue;
    }
    last_event_ = Clock::now();
    auto after = on_event(*ev);
    if (!after) return std::unexpected(after.error());
    if (*after == After::run_over) return {};
  }
  (void)release_ready(true);
  if (ending_) (void)session_.resume(*ending_, call());
  finish();
  return util::fail(util::Errc::timeout, "message schedule run of " + test_ + " did not finish in time");
}

// Handles one stop; resumes its thread unless the thread is to stay (held, or at the end).
util::Result<MessageRun::After> MessageRun::on_event(const core::VmEvent& ev) {
  auto done = [](util::Result<void> r) -> util::Result<After> {
    if (!r) return std::unexpected(r.error());
    return After::next_event;
  };
  if (recorder_.is_thread_start(ev)) return done(on_thread_start(ev));
  if (recorder_.is_dispatch(ev)) return done(on_dispatch(ev));
  switch (session_.classify(ev)) {
    case Kind::vm_end:
      finish();
      return After::run_over;
    case Kind::end_of_test:
      if (ending_) break;
      return done(on_test_end(ev));  // the testing thread stays at its end marker meanwhile
    case Kind::line:
      if (auto r = on_line(ev); !r) return std::unexpected(r.error());
      break;
    case Kind::main_next:
      // Main has handled its message: the posters held after it go on before main does.
      progress_.main_asked_next();
      if (auto r = release_ready(false); !r) return std::unexpected(r.error());
      break;
    case Kind::hook: {
      auto held = on_hook(ev);
      if (!held) return std::unexpected(held.error());
      if (*held) return After::next_event;  // the poster stays at the hook
      break;
    }
    default: break;
  }
  return done(session_.resume(ev, call()));
}

util::Result<void> MessageRun::on_thread_start(const core::VmEvent& ev) {
  if (auto r = recorder_.on_thread_start(ev, call()); !r) return r;
  return session_.resume(ev, call());
}

util::Result<void> MessageRun::on_dispatch(const core::VmEvent& ev) {
  auto index = recorder_.on_dispatch(ev, call());
  if (!index) return std::unexpected(index.error());
  progress_.dispatch_began(*index ? recorder_.trace().messages[**index].identity.key() : std::string{},
                           ev.thread == session_.main_thread());
  if (auto r = session_.resume(ev, call()); !r) return r;
  return release_ready(false);
}

// The first end-of-test stop: lets every held poster go and keeps the testing thread there.
util::Result<void> MessageRun::on_test_end(const core::VmEvent& ev) {
  (void)session_.on_test_ended(call());  // best effort: detach clears them too
  if (!held_.empty()) out_.note += "the test ended while messages were held; ";
  if (auto r = release_ready(true); !r) return r;
  // A placed message sent late (let go once the last message the test waited for was
  // handled, posted with a delay, or by a thread that was still busy) is dispatched
  // only after the test's last statement: the testing thread waits at the end for it,
  // so that the trace shows the order the run realised.
  ending_ = ev;
  ending_since_ = Clock::now();
  return {};
}

util::Result<void> MessageRun::on_line(const core::VmEvent& ev) {
  static auto log = util::logger("explore");
  if (!session_.started()) {
    if (auto r = session_.on_test_started(ev.thread, call()); !r) return r;
    if (auto r = session_.watch_main_next(call()); !r) {
      if (r.error().code != util::Errc::not_found && r.error().code != util::Errc::unsupported) return r;
      log->warn("{}: no breakpoint on the main queue's next() ({}): a held message is released when its "
                "anchor's dispatch begins", test_, r.error().message);
      out_.note += "no breakpoint on the main queue's next(): holds end when the anchor's dispatch begins; ";
      progress_ = HandledMessages(/*main_next_known=*/false);
    }
  }
  if (ev.thread == session_.testing()) current_line_ = ev.frame.line;
  return {};
}

// At a hook stop: records the send, and holds the poster (true) while a message its message
// is placed after has not been handled yet.
util::Result<bool> MessageRun::on_hook(const core::VmEvent& ev) {
  static auto log = util::logger("explore");
  auto index = recorder_.on_send(ev, current_line_, call());
  if (!index) return std::unexpected(index.error());
  if (!*index || ending_) return false;  // nothing is held once the test has ended
  const auto& m = recorder_.trace().messages[**index];
  auto key = m.identity.key();
  if (ev.thread == session_.main_thread()) {
    if (!progress_.not_dispatched(placements_, key).empty())
      out_.note += key + " is posted by the main thread, which is never held; ";
    return false;
  }
  auto waits = progress_.waiting_for(placements_, key);
  if (waits.empty()) return false;
  log->debug("{}: holding {} until {} was handled", test_, m.identity.str(), waits.front());
  held_.push_back({ev, key, Clock::now()});
  return true;
}

// Resumes the held posters whose anchors were all handled, those held too long, or all.
util::Result<void> MessageRun::release_ready(bool everyone) {
  for (auto it = held_.begin(); it != held_.end();) {
    const auto now = Clock::now();
    const auto waits = progress_.waiting_for(placements_, it->key);
    bool timed_out = now - std::max(it->since, last_event_) >= options_.wait || now - it->since >= options_.longest_hold;
    if (!everyone && !timed_out && !waits.empty()) {
      ++it;
      continue;
    }
    if (timed_out && !waits.empty()) {
      const bool began = std::all_of(waits.begin(), waits.end(), [&](const auto& a) { return progress_.dispatched(a); });
      out_.note += it->key + " was released after " + ms_since(it->since) + " ms " +
                   (began ? "before the message it waited for was handled" : "without the message it waited for") + "; ";
    }
    if (auto r = session_.resume(it->event, call()); !r) return r;
    it = held_.erase(it);
  }
  return {};
}

void MessageRun::finish() {
  out_.trace = recorder_.finish();
  judge(placements_, out_);
}

// The test ended: once every placed message that was sent has been dispatched and the
// threads the test started are idle (or the run was quiet for `wait`, or `longest_hold`
// passed), the trace is complete and the testing thread goes on.
util::Result<void> MessageRun::try_end(bool& done) {
  const auto& sent = recorder_.trace().messages;
  const bool arrived = std::all_of(sent.begin(), sent.end(), [&](const looper_trace::Message& m) {
    return m.dispatched_at_ms || !placed_.contains(m.identity.key());
  });
  bool settled = arrived;
  if (settled) {
    auto busy = recorder_.started_threads_busy(call());
    if (!busy) return std::unexpected(busy.error());
    settled = !*busy;
  }
  const auto now = Clock::now();
  done = settled || now - last_event_ >= options_.wait || now - ending_since_ >= options_.longest_hold;
  if (!done) return {};
  if (!arrived) out_.note += "a placed message was not dispatched after the end; ";
  finish();
  return session_.resume(*ending_, call());
}

}  // namespace

util::Result<void> run_message_schedule(core::Vm& vm, const std::string& test, const std::vector<Placement>& placements,
                                        const MessageScheduleOptions& options, MessageScheduleResult& out) {
  auto method = looper_trace::TestMethod::parse(test);
  if (!method) return std::unexpected(method.error());
  out = MessageScheduleResult{};  // a retried run starts again from scratch
  MessageRun run(vm, *method, test, placements, options, out);
  return run.run();
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
