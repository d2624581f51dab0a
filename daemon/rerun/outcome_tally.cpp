#include "rerun/outcome_tally.hpp"

#include <algorithm>

namespace flakescan::rerun {

void OutcomeTally::add(const core::RecordedRun& run) {
  for (const auto& r : run.report.results) {
    Tally& t = tallies_[r.test];
    ++t.counts.total;
    switch (r.outcome) {
      case core::Outcome::pass:
        ++t.counts.passed;
        if (t.first_pass == 0) t.first_pass = run.id;
        break;
      case core::Outcome::fail:
      case core::Outcome::error: {
        ++t.counts.failed;
        if (t.first_failure == 0) t.first_failure = run.id;
        auto it = std::find_if(t.failures.begin(), t.failures.end(),
                               [&](const core::FailureGroup& g) { return g.signature == r.signature; });
        if (it == t.failures.end()) {
          t.failures.push_back({r.signature, r.exception_type, r.message, 1, run.id});
        } else {
          ++it->count;
        }
        break;
      }
      case core::Outcome::skipped:
        ++t.counts.skipped;
        t.last_problem = "skipped: " + (r.message.empty() ? std::string("no reason given") : r.message);
        break;
      case core::Outcome::not_found:
        --t.counts.total;  // the test never ran
        t.last_problem = r.message.empty() ? "test not found" : r.message;
        break;
      case core::Outcome::infra:
        ++t.counts.infra;
        t.last_problem = r.message.empty() ? run.report.infra_reason : r.message;
        break;
    }
  }
}

const Tally* OutcomeTally::find(const std::string& test) const {
  auto it = tallies_.find(test);
  return it == tallies_.end() ? nullptr : &it->second;
}

core::Verdict verdict_from_tally(const std::string& test, const Tally* tally, const std::string& technique,
                                 core::Category flaky_category) {
  core::Verdict v;
  v.test = test;
  v.technique = technique;
  if (tally == nullptr) {
    v.verdict = core::VerdictKind::could_not_run;
    v.evidence.reason = "no run reached this test";
    return v;
  }
  v.runs = tally->counts;
  v.evidence.failures = tally->failures;
  const auto& c = tally->counts;
  int observed = c.passed + c.failed;
  if (tally->first_pass) v.evidence.passing_run = tally->first_pass;
  if (tally->first_failure) v.evidence.failing_run = tally->first_failure;
  if (c.passed > 0 && c.failed > 0) {
    v.verdict = core::VerdictKind::flaky;
    v.category = flaky_category;
    v.evidence.reason = std::to_string(c.failed) + " out of " + std::to_string(observed) + " runs failed";
  } else if (observed > 0) {
    v.verdict = c.failed == 0 ? core::VerdictKind::not_flaky : core::VerdictKind::failing;
    v.evidence.reason = c.failed == 0 ? "passed all " + std::to_string(observed) + " runs"
                                      : "failed all " + std::to_string(observed) + " runs: a broken test, not a flaky one";
  } else {
    v.verdict = core::VerdictKind::could_not_run;
    v.evidence.reason = tally->last_problem.empty() ? "no run observed a pass or a failure" : tally->last_problem;
  }
  if (c.infra > 0 && v.verdict != core::VerdictKind::could_not_run)
    v.evidence.reason += "; " + std::to_string(c.infra) + " runs cut short by the infrastructure were not counted";
  return v;
}

}  // namespace flakescan::rerun
