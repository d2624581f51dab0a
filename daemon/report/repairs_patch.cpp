#include <set>

#include "report/report.hpp"

namespace flakescan::report {

std::optional<core::Finding> repair_finding(const core::Verdict& v) {
  std::optional<core::Finding> first;
  for (auto& f : core::findings_of(v)) {
    // A verified patch, whoever offered it (repair for order-dependence, shuffle for an
    // unspecified order); else a finding that says why it has none.
    if (f.evidence.details.contains("patch") && !f.evidence.details.at("patch").empty()) return std::move(f);
    if ((f.technique == "repair" || f.evidence.details.contains("fix_refused")) && !first) first = std::move(f);
  }
  return first;
}

std::string render_repairs_patch(const Report& report) {
  std::string out;
  std::set<std::string> seen;  // two scans of one test, merged, can carry the same patch twice
  for (const auto& le : report.entries) {
    auto f = repair_finding(le.entry.verdict);
    if (!f) continue;
    auto p = f->evidence.details.find("patch");
    if (p == f->evidence.details.end() || p->second.empty() || !seen.insert(p->second).second) continue;
    out += p->second;
    if (!out.ends_with('\n')) out += '\n';
  }
  return out;
}

}  // namespace flakescan::report
