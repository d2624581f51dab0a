#include "looper_trace/message_trace.hpp"

#include "looper_trace/text_fields.hpp"

#include <algorithm>
#include <cstdio>

namespace flakescan::looper_trace {

int MessageTrace::main_thread() const {
  for (size_t i = 0; i < threads.size(); ++i)
    if (threads[i].role == Role::main) return int(i);
  return -1;
}

bool MessageTrace::async(size_t message) const {
  const auto& m = messages.at(message);
  int main = main_thread();
  if (main < 0 || m.sender < 0 || size_t(m.sender) >= threads.size()) return false;
  if (threads[size_t(m.sender)].role != Role::background) return false;
  return m.handler == main;
}

std::vector<size_t> MessageTrace::dispatched_on(int thread) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < messages.size(); ++i)
    if (messages[i].handler == thread && messages[i].dispatched_at_ms) out.push_back(i);
  std::stable_sort(out.begin(), out.end(),
                   [&](size_t a, size_t b) { return *messages[a].dispatched_at_ms < *messages[b].dispatched_at_ms; });
  return out;
}

std::vector<size_t> MessageTrace::async_sequence() const {
  std::vector<size_t> out;
  for (size_t i : dispatched_on(main_thread()))
    if (async(i)) out.push_back(i);
  for (size_t i = 0; i < messages.size(); ++i)
    if (async(i) && !messages[i].dispatched_at_ms) out.push_back(i);
  return out;
}

namespace {

std::string millis(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", ms);
  return buf;
}

}  // namespace

std::string format_message_trace(const MessageTrace& trace) {
  std::string out = text::header(trace.test, trace.outcome);
  for (size_t i = 0; i < trace.threads.size(); ++i)
    out += "thread\t" + std::to_string(i) + "\t" + std::string(role_name(trace.threads[i].role)) + "\t" + trace.threads[i].name +
           (trace.threads[i].started_in >= 0 ? "\t" + std::to_string(trace.threads[i].started_in) : "") + "\n";
  // Sends and dispatches merged by time; a dispatch never precedes its own send.
  struct Step {
    double at;
    int kind;  // 0 send, 1 dispatch
    size_t message;
  };
  std::vector<Step> steps;
  for (size_t i = 0; i < trace.messages.size(); ++i) {
    steps.push_back({trace.messages[i].sent_at_ms, 0, i});
    if (trace.messages[i].dispatched_at_ms) steps.push_back({*trace.messages[i].dispatched_at_ms, 1, i});
  }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.message != b.message) return a.message < b.message;
    return a.kind < b.kind;
  });
  for (const auto& s : steps) {
    const auto& m = trace.messages[s.message];
    if (s.kind == 0) {
      out += "send\t" + std::to_string(s.message) + "\t" + std::to_string(m.sender) + "\t" + std::to_string(m.handler) + "\t" + std::to_string(m.delay_ms) + "\t" +
             std::to_string(m.when) + "\t" + millis(m.sent_at_ms) + "\t" + std::to_string(m.identity.statement_line) + "\t" +
             std::to_string(m.identity.occurrence) + "\t" + text::stack_field(m.identity.stack) + "\n";
    } else {
      out += "dispatch\t" + std::to_string(s.message) + "\t" + std::to_string(m.handler) + "\t" + millis(*m.dispatched_at_ms) + "\n";
    }
  }
  return out;
}

util::Result<MessageTrace> parse_message_trace(std::string_view text) {
  MessageTrace trace;
  for (const auto& record : text::records(text)) {
    const auto& f = record.fields;
    if (f[0].starts_with('#')) continue;
    auto bad = [&](const std::string& why) {
      return util::fail(util::Errc::malformed, "message trace line " + std::to_string(record.line) + ": " + why);
    };
    auto header = text::read_header(f, trace.test, trace.outcome);
    if (!header) return bad(header.error().message);
    if (*header) continue;
    if (f[0] == "thread" && (f.size() == 4 || f.size() == 5)) {
      auto n = text::number<int>(f[1]);
      auto role = parse_role(f[2]);
      if (!n || *n != int(trace.threads.size())) return bad("threads must be numbered 0, 1, ... in order");
      if (!role) return bad("unknown role");
      auto started_in = f.size() == 5 ? text::number<int>(f[4]) : std::optional<int>(-1);
      if (!started_in || *started_in < -1) return bad("bad number");
      trace.threads.push_back({*role, std::string(f[3]), *started_in});
    } else if (f[0] == "send" && f.size() == 10) {
      auto n = text::number<int>(f[1]);
      auto sender = text::number<int>(f[2]);
      auto handler = text::number<int>(f[3]);
      auto delay = text::number<std::int64_t>(f[4]);
      auto when = text::number<std::int64_t>(f[5]);
      auto at = text::number<double>(f[6]);
      auto line_no = text::number<int>(f[7]);
      auto occurrence = text::number<int>(f[8]);
      if (!n || !sender || !handler || !delay || !when || !at || !line_no || !occurrence) return bad("bad number");
      if (*handler < -1 || *handler >= int(trace.threads.size())) return bad("unknown handler thread");
      if (*n != int(trace.messages.size())) return bad("messages must be numbered 0, 1, ... in send order");
      if (*sender < 0 || *sender >= int(trace.threads.size())) return bad("unknown sender thread");
      Message m;
      m.sender = *sender;
      m.handler = *handler;
      m.delay_ms = *delay;
      m.when = *when;
      m.sent_at_ms = *at;
      m.identity.statement_line = *line_no;
      m.identity.occurrence = *occurrence;
      m.identity.role = trace.threads[size_t(*sender)].role;
      m.identity.stack = text::stack_of(f[9]);
      trace.messages.push_back(std::move(m));
    } else if (f[0] == "dispatch" && f.size() == 4) {
      auto n = text::number<int>(f[1]);
      auto thread = text::number<int>(f[2]);
      auto at = text::number<double>(f[3]);
      if (!n || !thread || !at) return bad("bad number");
      if (*n < 0 || *n >= int(trace.messages.size())) return bad("dispatch of a message not sent yet");
      if (*thread < 0 || *thread >= int(trace.threads.size())) return bad("unknown dispatching thread");
      auto& m = trace.messages[size_t(*n)];
      if (m.dispatched_at_ms) return bad("message dispatched twice");
      if (m.handler >= 0 && m.handler != *thread) return bad("message dispatched off its queue's looper thread");
      m.handler = *thread;
      m.dispatched_at_ms = *at;
    } else {
      return bad("unknown record");
    }
  }
  if (trace.test.empty()) return util::fail(util::Errc::malformed, "message trace without a test line");
  for (const auto& t : trace.threads)
    if (t.started_in >= int(trace.messages.size()))
      return util::fail(util::Errc::malformed, "message trace: thread '" + t.name + "' started in an unknown message");
  return trace;
}

}  // namespace flakescan::looper_trace
