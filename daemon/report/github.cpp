#include "report/report.hpp"
#include "report/text.hpp"

namespace flakescan::report {

namespace {

// GitHub's limits (as the common test-reporting actions apply them).
constexpr std::size_t max_title_bytes = 255;
constexpr std::size_t max_message_bytes = 65535;

// Cuts an already escaped string without splitting a %XX escape or a UTF-8 sequence (the
// limits apply to what GitHub receives).
std::string cut_escaped(const std::string& escaped, std::size_t max_bytes) {
  if (escaped.size() <= max_bytes) return escaped;
  std::size_t keep = max_bytes - 3;
  for (std::size_t k = keep - 2; k < keep; ++k)
    if (escaped[k] == '%') {
      keep = k;
      break;
    }
  while (keep > 0 && (static_cast<unsigned char>(escaped[keep]) & 0xC0) == 0x80) --keep;
  return escaped.substr(0, keep) + "...";
}

std::string command(const char* level, const LocatedEntry& le, const std::string& title, const std::string& message) {
  std::string out = "::";
  out += level;
  std::string props;
  if (!le.path.empty()) {
    props += "file=" + workflow_property_escape(le.path);
    if (le.where && le.where->line > 0) props += ",line=" + std::to_string(le.where->line);
  }
  if (!props.empty()) props += ",";
  props += "title=" + cut_escaped(workflow_property_escape(title), max_title_bytes);
  out += " " + props + "::" + cut_escaped(workflow_data_escape(message), max_message_bytes) + "\n";
  return out;
}

}  // namespace

std::string render_annotations(const Report& report) {
  std::string out;
  for (const auto& le : report.entries) {
    const auto& v = le.entry.verdict;
    if (v.verdict == core::VerdictKind::flaky) {
      std::string message = evidence_sentence(v);
      if (le.entry.failing_run && !le.entry.failing_run->stack.empty())
        message += "\n\n" + le.entry.failing_run->stack;
      out += command("warning", le, "Flaky test " + v.test + ": " + runs_failed_phrase(v.runs), message);
    } else if (v.verdict == core::VerdictKind::failing) {
      out += command("warning", le, "Test " + v.test + " failed in every run (broken, not flaky)",
                     v.evidence.reason + (le.entry.failing_run && !le.entry.failing_run->stack.empty() ? "\n\n" + le.entry.failing_run->stack : ""));
    } else if (v.verdict == core::VerdictKind::could_not_run) {
      out += command("notice", le, "flakescan could not run " + v.test,
                     v.evidence.reason.empty() ? "No run of this test produced an outcome." : v.evidence.reason);
    }
  }
  if (!report.scan.error.empty())
    out += "::error title=flakescan scan " + workflow_property_escape(report.scan.state) + "::" +
           cut_escaped(workflow_data_escape(report.scan.error), max_message_bytes) + "\n";
  return out;
}

}  // namespace flakescan::report
