#include "looper_trace/statement_trace.hpp"

#include "looper_trace/text_fields.hpp"

namespace flakescan::looper_trace {

std::optional<size_t> StatementTrace::anchor(int line) const {
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i].identity.statement_line == line && !events[i].async()) return i;
  return std::nullopt;
}

std::vector<size_t> StatementTrace::async_events() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i].async()) out.push_back(i);
  return out;
}

std::vector<int> StatementTrace::anchored_lines() const {
  std::vector<int> out;
  for (int line : lines)
    if (anchor(line)) out.push_back(line);
  return out;
}

std::string format_trace(const StatementTrace& trace) {
  std::string out = text::header(trace.test, trace.outcome) + "lines\t";
  for (size_t i = 0; i < trace.lines.size(); ++i) out += (i ? " " : "") + std::to_string(trace.lines[i]);
  out += "\n";
  for (const auto& e : trace.events) {
    out += "event\t" + std::to_string(e.identity.statement_line) + "\t" + std::string(role_name(e.identity.role)) + "\t" +
           std::to_string(e.identity.occurrence) + "\t" + e.thread_name + "\t" + text::stack_field(e.identity.stack) + "\n";
  }
  return out;
}

util::Result<StatementTrace> parse_trace(std::string_view text) {
  StatementTrace trace;
  for (const auto& record : text::records(text)) {
    const auto& f = record.fields;
    auto bad = [&](const std::string& why) {
      return util::fail(util::Errc::malformed, "trace line " + std::to_string(record.line) + ": " + why);
    };
    auto header = text::read_header(f, trace.test, trace.outcome);
    if (!header) return bad(header.error().message);
    if (*header) continue;
    if (f[0] == "lines" && f.size() == 2) {
      for (auto n : text::split(f[1], ' ')) {
        auto v = text::number<int>(n);
        if (!v) return bad("bad line number");
        trace.lines.push_back(*v);
      }
    } else if (f[0] == "event" && f.size() == 6) {
      TracedEvent e;
      auto line_no = text::number<int>(f[1]);
      auto occ = text::number<int>(f[3]);
      if (!line_no || !occ) return bad("bad number");
      e.identity.statement_line = *line_no;
      e.identity.occurrence = *occ;
      auto role = parse_role(f[2]);
      if (!role) return bad("unknown role");
      e.identity.role = *role;
      e.thread_name = std::string(f[4]);
      e.identity.stack = text::stack_of(f[5]);
      trace.events.push_back(std::move(e));
    } else {
      return bad("unknown record");
    }
  }
  if (trace.test.empty()) return util::fail(util::Errc::malformed, "trace without a test line");
  return trace;
}

}  // namespace flakescan::looper_trace
