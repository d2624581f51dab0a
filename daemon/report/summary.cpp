#include <cstdlib>
#include <functional>

#include "core/deciding.hpp"
#include "report/report.hpp"
#include "report/text.hpp"

namespace flakescan::report {

namespace {

constexpr std::size_t max_rows = 200;  // per table; the job summary is capped at 1 MiB

std::string test_cell(const LocatedEntry& le) {
  std::string cell = "`" + markdown_cell(le.entry.verdict.test) + "`";
  if (!le.path.empty()) {
    std::string file = le.path.substr(le.path.find_last_of('/') + 1);
    if (le.where && le.where->line > 0) file += ":" + std::to_string(le.where->line);
    cell += " (" + markdown_cell(file) + ")";
  }
  return cell;
}

std::string first_failure(const core::Verdict& v) {
  if (v.evidence.failures.empty()) return "";
  const auto& f = v.evidence.failures.front();
  std::string s = f.exception_type.empty() ? f.signature : f.exception_type;
  if (!f.message.empty()) s += ": " + f.message;
  return cut_utf8(s, 300);
}

// A folded list of the tests with verdict `kind`, one line each: the test and what `said`
// says of it (up to max_rows).
std::string folded_list(const Report& report, core::VerdictKind kind, const std::string& summary,
                        const std::function<std::string(const core::Verdict&)>& said) {
  std::string out = "<details><summary>" + summary + "</summary>\n\n";
  std::size_t rows = 0;
  for (const auto& le : report.entries) {
    const auto& v = le.entry.verdict;
    if (v.verdict != kind) continue;
    if (++rows > max_rows) break;
    out += "- `" + markdown_cell(v.test) + "`: " + said(v) + "\n";
  }
  return out + "\n</details>\n";
}

}  // namespace

std::string render_summary(const Report& report) {
  const auto flaky = count_kind(report, core::VerdictKind::flaky);
  const auto clean = count_kind(report, core::VerdictKind::not_flaky);
  const auto unrun = count_kind(report, core::VerdictKind::could_not_run);
  const auto failing = count_kind(report, core::VerdictKind::failing);
  const auto skipped = count_kind(report, core::VerdictKind::skipped);
  std::string out = "## flakescan: " + std::to_string(flaky) + (flaky == 1 ? " flaky test" : " flaky tests") +
                    " out of " + std::to_string(report.entries.size()) + " scanned\n\n";
  out += "Scan `" + markdown_cell(report.scan.id) + "`: " + markdown_cell(report.scan.state);
  if (!report.scan.backend.empty()) out += ", " + markdown_cell(report.scan.backend) + " backend";
  if (!report.scan.techniques.empty()) {
    out += ", techniques ";
    for (std::size_t i = 0; i < report.scan.techniques.size(); ++i)
      out += (i ? ", " : "") + markdown_cell(report.scan.techniques[i]);
  }
  if (report.scan.seed) out += ", seed " + std::to_string(*report.scan.seed);
  out += ".\n\n";
  if (!report.scan.error.empty()) out += "> **The scan did not complete:** " + markdown_cell(report.scan.error) + "\n\n";
  out += "| Flaky | Not flaky | Failing | Could not run | Skipped |\n|---:|---:|---:|---:|---:|\n| " + std::to_string(flaky) +
         " | " + std::to_string(clean) + " | " + std::to_string(failing) + " | " + std::to_string(unrun) + " | " +
         std::to_string(skipped) + " |\n\n";

  if (flaky > 0) {
    out += "### Flaky tests\n\n| Test | Category | Runs | Technique | Evidence |\n|---|---|---|---|---|\n";
    std::size_t rows = 0;
    for (const auto& le : report.entries) {
      const auto& v = le.entry.verdict;
      if (v.verdict != core::VerdictKind::flaky) continue;
      if (++rows > max_rows) break;
      std::string evidence = first_failure(v);
      if (!v.evidence.role.empty()) {
        std::string order;
        for (std::size_t i = 0; i < v.evidence.reproducer.size(); ++i) order += (i ? " → " : "") + v.evidence.reproducer[i];
        evidence += (evidence.empty() ? "" : "; ") + v.evidence.role + (order.empty() ? "" : " in " + order);
      }
      std::string category;
      for (auto c : core::categories_of(v)) category += (category.empty() ? "" : ", ") + std::string(core::category_name(c));
      out += "| " + test_cell(le) + " | " + (category.empty() ? "unknown" : category) + " | " +
             runs_failed_phrase(v.runs) + " | " + markdown_cell(v.technique) + " | " + markdown_cell(evidence) + " |\n";
    }
    if (rows > max_rows) out += "\n… and " + std::to_string(flaky - max_rows) + " more (see verdicts.json).\n";
    out += "\n";
  }
  if (unrun > 0) {
    out += "### Could not run\n\n| Test | Reason |\n|---|---|\n";
    std::size_t rows = 0;
    for (const auto& le : report.entries) {
      const auto& v = le.entry.verdict;
      if (v.verdict != core::VerdictKind::could_not_run) continue;
      if (++rows > max_rows) break;
      out += "| " + test_cell(le) + " | " + markdown_cell(v.evidence.reason) + " |\n";
    }
    out += "\n";
  }
  if (failing > 0) {
    out += "### Failing in every run (broken, not flaky)\n\n| Test | Runs | Reason |\n|---|---|---|\n";
    std::size_t rows = 0;
    for (const auto& le : report.entries) {
      const auto& v = le.entry.verdict;
      if (v.verdict != core::VerdictKind::failing) continue;
      if (++rows > max_rows) break;
      out += "| " + test_cell(le) + " | " + runs_failed_phrase(v.runs) + " | " + markdown_cell(v.evidence.reason) + " |\n";
    }
    out += "\n";
  }
  if (skipped > 0)
    out += folded_list(report, core::VerdictKind::skipped, std::to_string(skipped) + " skipped",
                       [](const core::Verdict& v) { return markdown_cell(v.evidence.reason); }) + "\n";
  if (clean > 0)
    out += folded_list(report, core::VerdictKind::not_flaky, std::to_string(clean) + " not flaky",
                       [](const core::Verdict& v) {
                         auto it = v.evidence.details.find("passed_executions");
                         if (it == v.evidence.details.end()) return runs_failed_phrase(v.runs);
                         const int passed = std::atoi(it->second.c_str());
                         return runs_failed_phrase(v.runs) + "; " +
                                (passed == 1 ? std::string("1 passing execution rules out") : std::to_string(passed) + " passing executions rule out") +
                                " failing " + core::ruled_out_rate(passed) + " of them or more (95 % confidence)";
                       });
  return out;
}

}  // namespace flakescan::report
