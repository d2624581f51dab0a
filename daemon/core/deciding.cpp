#include "core/deciding.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace flakescan::core {

namespace {

bool order_category(core::Category c) { return c == core::Category::order_dependent || c == core::Category::nio; }

// Runs that change the program (repair), the JDK (shuffle) or the schedule (threads) on
// purpose: their outcomes say what the change did, not what an order or a plain run gives.
bool changed_on_purpose(const core::RecordedRun& run) {
  return run.spec.technique == intervention_technique || run.spec.shuffle || run.spec.schedule;
}

// The first run that began with `order` and gave the test (its last entry) the outcome that
// contradicts the order: a pass when `want_failure`, a failure otherwise.
// Where a class runs again inside the first `size` tests (RunSpec::class_run_starts): the
// order's class-run boundaries are part of it (t | t is not t, t: the class's setup runs again).
std::vector<size_t> starts_within(const std::vector<size_t>& starts, size_t size) {
  std::vector<size_t> out;
  for (size_t s : starts)
    if (s > 0 && s < size) out.push_back(s);
  return out;
}

// A finding's boundaries, from details.class_run_starts ("1" or "3,7"); none when absent.
std::vector<size_t> finding_starts(const core::Finding& f) {
  std::vector<size_t> out;
  auto it = f.evidence.details.find("class_run_starts");
  if (it == f.evidence.details.end()) return out;
  const std::string& text = it->second;
  for (size_t at = 0; at < text.size();) {
    size_t comma = std::min(text.find(',', at), text.size());
    size_t pos = 0;
    auto [end, ec] = std::from_chars(text.data() + at, text.data() + comma, pos);
    if (ec == std::errc{} && end == text.data() + comma) out.push_back(pos);
    at = comma + 1;
  }
  return out;
}

std::string times(int n) { return n == 1 ? "once" : n == 2 ? "twice" : std::to_string(n) + " times"; }

const core::RecordedRun* contradicting(const std::vector<core::RecordedRun>& runs, const std::vector<std::string>& order,
                                       const std::vector<size_t>& order_starts, bool want_failure) {
  if (order.empty()) return nullptr;
  const size_t at = order.size() - 1;
  const auto wanted_starts = starts_within(order_starts, order.size());
  for (const auto& run : runs) {
    if (changed_on_purpose(run)) continue;
    const auto& tests = run.spec.tests;
    if (tests.size() < order.size() || !std::equal(order.begin(), order.end(), tests.begin())) continue;
    if (starts_within(run.spec.class_run_starts, order.size()) != wanted_starts) continue;
    auto outcome = run.report.outcome_at(at);
    if (!core::is_observation(outcome)) continue;
    if (core::is_failure(outcome) != want_failure) return &run;
  }
  return nullptr;
}

// An implementation-dependent finding's condition is the shuffle: the test alone passes on the
// plain JDK and fails under the failing seed (details "seed" and "mode", every site). The first
// run that says otherwise, with the sentence to say it.
std::optional<std::string> contradicts_shuffle(const core::Finding& f, const std::vector<core::RecordedRun>& runs) {
  const auto& d = f.evidence.details;
  auto seed = d.find("seed"), mode = d.find("mode");
  for (const auto& run : runs) {
    if (run.spec.technique == intervention_technique || run.spec.schedule || run.spec.tests.size() != 1) continue;
    if (f.evidence.reproducer.empty() || run.spec.tests[0] != f.evidence.reproducer.back()) continue;
    auto outcome = run.report.outcome_at(0);
    if (!core::is_observation(outcome)) continue;
    const auto& s = run.spec.shuffle;
    if (!s && core::is_failure(outcome))
      return "the test also failed alone on the plain JDK, in run " + std::to_string(run.id) + ": the shuffle does not decide the outcome";
    if (s && s->sites.empty() && seed != d.end() && mode != d.end() && std::to_string(s->seed) == seed->second &&
        s->mode == mode->second && !core::is_failure(outcome))
      return "the failing shuffle (seed " + seed->second + ") also passed, in run " + std::to_string(run.id) +
             ": the shuffle does not decide the outcome";
  }
  return std::nullopt;
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
    if (f.verdict != core::VerdictKind::flaky || !f.not_deciding.empty()) continue;
    if (f.category == core::Category::implementation_dependent) {
      auto why = contradicts_shuffle(f, runs);
      if (!why) continue;
      f.not_deciding = *why;
      changed = true;
      continue;
    }
    if (!order_category(f.category)) continue;
    const auto starts = finding_starts(f);  // of the reproducer; the passing order has none
    if (const auto* run = contradicting(runs, f.evidence.reproducer, starts, /*want_failure=*/true)) {
      f.not_deciding = "the failing order (" + describe(f.evidence.reproducer) + ") also passed, in run " +
                       std::to_string(run->id) + ": the order does not decide the outcome";
    } else if (const auto* run = contradicting(runs, f.evidence.passing_order, {}, /*want_failure=*/false)) {
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

core::Verdict check_other_runs(core::Verdict v, const RunIndex& runs) {
  const bool not_flaky = v.verdict == core::VerdictKind::not_flaky;
  if (!not_flaky && v.verdict != core::VerdictKind::failing) return v;
  // Counted observations of the other kind are honest_verdict's to weigh. With none counted,
  // every one found here is new.
  if (not_flaky ? v.runs.failed > 0 : v.runs.passed > 0) return v;
  const core::RecordedRun* first = nullptr;
  const core::TestResult* first_result = nullptr;
  const core::RecordedRun* some_pass = nullptr;
  int found = 0;
  for (const auto& place : runs.places(v.test)) {
    const auto& run = *place.run;
    if (changed_on_purpose(run) || place.pos >= run.report.results.size()) continue;
    const auto outcome = run.report.results[place.pos].outcome;
    if (outcome == core::Outcome::pass && !some_pass) some_pass = &run;
    if (not_flaky ? !core::is_failure(outcome) : outcome != core::Outcome::pass) continue;
    if (!first) first = &run, first_result = &run.report.results[place.pos];
    ++found;
  }
  if (!first) return v;
  auto findings = core::findings_of(v);
  core::Finding seen;
  seen.technique = first->spec.technique;
  seen.verdict = core::VerdictKind::flaky;
  seen.category = core::Category::unknown;
  std::string where = "run " + std::to_string(first->id);
  if (!first->spec.technique.empty())
    where += ", which " + first->spec.technique + " made for " + (first->spec.purpose.empty() ? "other tests" : first->spec.purpose);
  if (not_flaky) {
    seen.evidence.failing_run = first->id;
    seen.evidence.passing_run = v.evidence.passing_run;
    if (!seen.evidence.passing_run && some_pass) seen.evidence.passing_run = some_pass->id;
    seen.evidence.reason = "passed every run counted for it, but failed " + times(found) + " in runs made for other tests, first in " +
                           where + (first_result->message.empty() ? "" : ": " + first_result->message);
    v.runs.failed += found;
    core::FailureGroup group;
    group.signature = first_result->signature;
    group.exception_type = first_result->exception_type;
    group.message = first_result->message;
    group.count = found;
    group.example_run = first->id;
    v.evidence.failures.push_back(std::move(group));
  } else {
    seen.evidence.passing_run = first->id;
    seen.evidence.failing_run = v.evidence.failing_run;
    seen.evidence.reason = "failed every run counted for it, but passed " + times(found) + " in runs made for other tests, first in " + where;
    v.runs.passed += found;
  }
  v.runs.total += found;
  if (!seen.evidence.passing_run || !seen.evidence.failing_run) {
    // Nothing to set against it (no pass of a not_flaky test was recorded): the failures count, honest_verdict decides.
    v.findings = std::move(findings);
    return v;
  }
  findings.push_back(seen);
  v.findings = std::move(findings);
  v.verdict = core::VerdictKind::flaky;
  v.category = core::Category::unknown;
  v.technique = seen.technique;
  auto failures = std::move(v.evidence.failures);
  v.evidence = seen.evidence;
  v.evidence.failures = std::move(failures);
  return v;
}

std::string ruled_out_rate(int passing_executions) {
  if (passing_executions < 1) return {};
  const double percent = 100.0 * (1.0 - std::pow(0.05, 1.0 / passing_executions));
  // Rounded up; the small epsilon keeps an exact tenth (or whole percent) where it is.
  char text[32];
  if (percent >= 10.0) std::snprintf(text, sizeof text, "%.0f %%", std::ceil(percent - 1e-9));
  else std::snprintf(text, sizeof text, "%.1f %%", std::ceil(percent * 10.0 - 1e-9) / 10.0);
  return text;
}

std::string rules_out_summary(int fewest, int counted, int total) {
  if (fewest < 1 || counted < 1) return {};
  const std::string executions = fewest == 1 ? "1 execution" : std::to_string(fewest) + " executions";
  const bool all = counted >= total;
  std::string line = "not flaky: " + (all ? "each passed at least " + executions
                                          : std::to_string(counted) + " of the " + std::to_string(total) + " passed at least " +
                                                executions + " each");
  line += ", which rules out failing " + ruled_out_rate(fewest) + " of executions or more at 95 % confidence (more --runs lower it)";
  if (!all) line += "; the others ran only in runs that change the schedule, the JDK or the program on purpose, which rule out no rate";
  return line;
}

core::Verdict with_detection_bound(core::Verdict v, const RunIndex& runs) {
  if (v.verdict != core::VerdictKind::not_flaky) return v;
  int passed = 0;
  for (const auto& place : runs.places(v.test)) {
    const auto& run = *place.run;
    if (changed_on_purpose(run) || place.pos >= run.report.results.size()) continue;
    if (run.report.results[place.pos].outcome == core::Outcome::pass) ++passed;
  }
  if (passed < 1) return v;
  v.evidence.details["passed_executions"] = std::to_string(passed);
  v.evidence.details["rules_out"] = "failing " + ruled_out_rate(passed) + " of executions or more, at 95 % confidence: a test " +
                                    "that fails that often at random passes " +
                                    (passed == 1 ? std::string("one execution") : "all " + std::to_string(passed)) +
                                    " in at most 5 % of scans";
  return v;
}

}  // namespace flakescan::core
