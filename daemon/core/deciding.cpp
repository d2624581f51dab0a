#include "core/deciding.hpp"

#include <algorithm>

namespace flakescan::core {

namespace {

bool order_category(core::Category c) { return c == core::Category::order_dependent || c == core::Category::nio; }

// The first run that began with `order` and gave the test (its last entry) the outcome that
// contradicts the order: a pass when `want_failure`, a failure otherwise.
const core::RecordedRun* contradicting(const std::vector<core::RecordedRun>& runs, const std::vector<std::string>& order,
                                       bool want_failure) {
  if (order.empty()) return nullptr;
  const size_t at = order.size() - 1;
  for (const auto& run : runs) {
    if (run.spec.technique == intervention_technique) continue;
    const auto& tests = run.spec.tests;
    if (tests.size() < order.size() || !std::equal(order.begin(), order.end(), tests.begin())) continue;
    auto outcome = run.report.outcome_at(at);
    if (!core::is_observation(outcome)) continue;
    if (core::is_failure(outcome) != want_failure) return &run;
  }
  return nullptr;
}

std::string describe(const std::vector<std::string>& order) {
  if (order.size() == 1) return "alone";
  if (order.size() == 2 && order[0] == order[1]) return "twice in one JVM";
  return "after " + std::to_string(order.size() - 1) + " other test run(s) in one JVM";
}

}  // namespace

core::Verdict check_deciding(core::Verdict v, const std::vector<core::RecordedRun>& runs) {
  auto findings = core::findings_of(v);
  bool changed = false;
  for (auto& f : findings) {
    if (f.verdict != core::VerdictKind::flaky || !order_category(f.category) || !f.not_deciding.empty()) continue;
    if (const auto* run = contradicting(runs, f.evidence.reproducer, /*want_failure=*/true)) {
      f.not_deciding = "the failing order (" + describe(f.evidence.reproducer) + ") also passed, in run " +
                       std::to_string(run->id) + ": the order does not decide the outcome";
    } else if (const auto* run = contradicting(runs, f.evidence.passing_order, /*want_failure=*/false)) {
      f.not_deciding = "the passing order (" + describe(f.evidence.passing_order) + ") also failed, in run " +
                       std::to_string(run->id) + ": the order does not decide the outcome";
    } else {
      continue;
    }
    changed = true;
  }
  if (!changed) return v;
  v.findings = std::move(findings);
  return v;
}

}  // namespace flakescan::core
