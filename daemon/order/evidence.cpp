#include "order/evidence.hpp"

#include <map>

namespace flakescan::order {

core::RunCounts count_runs(const BudgetedRuns& runner, const std::string& test) {
  core::RunCounts c;
  for (size_t r = 0; r < runner.history().size(); ++r) {
    if (runner.adopted(r)) continue;
    const auto& run = runner.at(r);
    for (size_t i = 0; i < run.spec.tests.size(); ++i) {
      if (run.spec.tests[i] != test) continue;
      auto o = run.report.outcome_at(i);
      ++c.total;
      if (o == core::Outcome::pass) ++c.passed;
      else if (core::is_failure(o)) ++c.failed;
      else if (o == core::Outcome::skipped) ++c.skipped;
      else ++c.infra;
    }
  }
  return c;
}

std::vector<core::FailureGroup> failure_groups(const BudgetedRuns& runner, const std::string& test) {
  std::vector<core::FailureGroup> groups;
  std::map<std::string, size_t> index;
  for (size_t n = 0; n < runner.history().size(); ++n) {
    if (runner.adopted(n)) continue;
    const auto& run = runner.at(n);
    for (size_t i = 0; i < run.spec.tests.size() && i < run.report.results.size(); ++i) {
      const auto& r = run.report.results[i];
      if (run.spec.tests[i] != test || !core::is_failure(r.outcome)) continue;
      auto [it, added] = index.emplace(r.signature, groups.size());
      if (added) groups.push_back({r.signature, r.exception_type, r.message, 0, run.id});
      ++groups[it->second].count;
    }
  }
  return groups;
}

namespace {

// What the last result of `test` with this outcome said: the skip reason, or how its JVM
// ended ("test did not finish: it called System.exit at ...").
std::string last_problem(const BudgetedRuns& runner, const std::string& test, core::Outcome outcome) {
  std::string out;
  for (const auto& run : runner.history())
    for (size_t i = 0; i < run.spec.tests.size() && i < run.report.results.size(); ++i) {
      const auto& r = run.report.results[i];
      if (run.spec.tests[i] != test || r.outcome != outcome) continue;
      std::string said = r.message.empty() ? run.report.infra_reason : r.message;
      if (!said.empty()) out = said;
    }
  return out;
}

}  // namespace

core::Verdict plain_verdict(const BudgetedRuns& runner, const std::string& test, const std::string& technique) {
  core::Verdict v;
  v.test = test;
  v.technique = technique;
  v.runs = count_runs(runner, test);
  v.evidence.failures = failure_groups(runner, test);
  int observed = v.runs.passed + v.runs.failed;
  if (observed == 0) {
    v.verdict = core::VerdictKind::could_not_run;
    std::string said = last_problem(runner, test, v.runs.skipped > 0 ? core::Outcome::skipped : core::Outcome::infra);
    if (v.runs.total == 0) v.evidence.reason = "no run reached this test";
    else if (v.runs.skipped > 0) v.evidence.reason = "skipped in every run" + (said.empty() ? "" : ": " + said);
    else v.evidence.reason = "no run gave it an outcome" + (said.empty() ? "" : ": " + said);
    return v;
  }
  if (v.runs.passed > 0 && v.runs.failed > 0) {
    // Both outcomes seen, but the technique could not say why (e.g. only in confirmation
    // reruns): flaky with the evidence, category unknown.
    v.verdict = core::VerdictKind::flaky;
    v.category = core::Category::unknown;
    for (const auto& run : runner.history())
      for (size_t i = 0; i < run.spec.tests.size(); ++i) {
        if (run.spec.tests[i] != test) continue;
        auto o = run.report.outcome_at(i);
        if (o == core::Outcome::pass && !v.evidence.passing_run) v.evidence.passing_run = run.id;
        if (core::is_failure(o) && !v.evidence.failing_run) {
          v.evidence.failing_run = run.id;
          v.evidence.reproducer.assign(run.spec.tests.begin(), run.spec.tests.begin() + static_cast<long>(i) + 1);
        }
      }
    v.evidence.reason = "passed " + std::to_string(v.runs.passed) + " and failed " + std::to_string(v.runs.failed) +
                        " times; not classified";
    return v;
  }
  v.verdict = core::VerdictKind::not_flaky;
  if (v.runs.failed == 0)
    v.evidence.reason = "passed in all " + std::to_string(v.runs.passed) + " executions";
  else
    v.evidence.reason = "failed in all " + std::to_string(v.runs.failed) +
                        " executions: consistently failing, not flaky";
  return v;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += separator;
    out += s;
  }
  return out;
}

}  // namespace flakescan::order
