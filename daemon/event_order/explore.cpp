#include "event_order/explore.hpp"

#include <chrono>

#include "event_order/explore_strategies.hpp"
#include "event_order/schedule_space.hpp"
#include "rerun/outcome_tally.hpp"

namespace flakescan::event_order {

using Clock = std::chrono::steady_clock;

core::Outcome outcome_of(const core::RecordedRun& run) { return run.report.outcome_at(0); }

std::string no_outcome_reason(const core::RecordedRun& traced) {
  return "the traced run did not give an outcome: " + traced.report.infra_reason + " " +
         (traced.report.results.empty() ? "" : traced.report.results[0].message);
}

bool Exploration::can_run() {
  if (runs.cancelled()) return false;
  if (runs_made < run_budget && Clock::now() < deadline) return true;
  budget_ended = true;
  return false;
}

void Exploration::note(const core::RecordedRun& run) {
  ++runs_made;
  if (run.id == 0) return;
  tally.add(run);
  if (!passing_run && outcome_of(run) == core::Outcome::pass) passing_run = run.id;
}

core::RunSpec Exploration::spec(const std::string& purpose) const {
  core::RunSpec spec;
  spec.tests = {test};
  spec.technique = "explore";
  spec.purpose = purpose;
  spec.seed = seed;
  return spec;
}

namespace {

core::Verdict explore_test(const std::string& test, const ExploreOptions& options, core::RunLog& runs,
                           const core::TechniqueInput& input, int run_budget, Clock::time_point deadline) {
  Exploration x{test, options, runs, run_budget, deadline, input.seed};
  const auto strategy = input.strategy;
  std::string summary, no_outcome;
  std::optional<Found> found;
  std::optional<util::Error> failed;
  auto attempt = [&](util::Result<StrategyResult> (*fn)(Exploration&)) {
    if (found || failed) return;
    auto r = fn(x);
    if (!r) {
      failed = r.error();
      return;
    }
    if (r->found) found = std::move(r->found);
    if (!r->summary.empty()) summary += (summary.empty() ? "" : "; ") + r->summary;
    if (!r->no_outcome.empty() && no_outcome.empty()) no_outcome = r->no_outcome;
  };
  if (strategy != core::ExploreStrategy::flakescanner) attempt(explore_maxdiff);
  if (strategy != core::ExploreStrategy::maxdiff) attempt(explore_flakescanner);

  core::Verdict verdict = rerun::verdict_from_tally(test, x.tally.find(test), "explore", core::Category::concurrency);
  verdict.technique = "explore";
  auto& ev = verdict.evidence;
  ev.details["strategy"] = core::strategy_name(strategy);
  if (found) {
    verdict.verdict = core::VerdictKind::flaky;
    verdict.category = core::Category::concurrency;
    ev.passing_run = x.passing_run;
    ev.failing_run = found->failing_run;
    ev.reproducer = {test};
    for (auto& [k, v] : found->details) ev.details[k] = v;
    ev.reason = found->reason;
    return verdict;
  }
  std::string reason;
  core::VerdictKind kind = core::VerdictKind::not_flaky;
  if (failed) {
    kind = core::VerdictKind::could_not_run;
    reason = "exploration failed: " + util::describe(*failed);
  } else if (!no_outcome.empty() && summary.empty()) {
    kind = core::VerdictKind::could_not_run;
    reason = no_outcome;
  } else {
    reason = summary;
    if (x.budget_ended)
      reason += "; the budget (" + std::to_string(run_budget) + " runs per test, " +
                std::to_string(input.budget.max_seconds_per_test) + " s per test, or the scan's) ended the search, not the search itself";
  }
  const std::string seen = ev.reason;
  if (verdict.verdict == core::VerdictKind::flaky) {
    // It failed and passed, but no realised schedule explains the failure: flaky all the
    // same, with no category of explore's (never not_flaky: the failure was observed).
    verdict.category = core::Category::unknown;
    reason += "; yet " + seen + " without a schedule that explains the failure";
  } else if (kind == core::VerdictKind::could_not_run || verdict.verdict == core::VerdictKind::not_flaky) {
    if (verdict.verdict != core::VerdictKind::failing) verdict.verdict = kind;
  }
  ev.reason = reason;
  return verdict;
}

}  // namespace

core::TechniqueFn explore_technique(ExploreOptions options) {
  return [options](const core::TechniqueInput& input, core::RunLog& runs) -> util::Result<std::vector<core::Verdict>> {
    std::vector<core::Verdict> out;
    const auto started = Clock::now();
    const auto scan_deadline = started + std::chrono::seconds(input.budget.max_seconds);
    int budget_left = input.budget.max_runs;
    for (const auto& test : input.tests) {
      if (runs.cancelled()) return util::fail(util::Errc::cancelled, "scan cancelled");
      const auto test_deadline = std::min(scan_deadline, Clock::now() + std::chrono::seconds(input.budget.max_seconds_per_test));
      runs.plan(3);
      auto verdict = explore_test(test, options, runs, input, std::min(budget_left, input.budget.max_runs_per_test), test_deadline);
      if (runs.cancelled()) return util::fail(util::Errc::cancelled, "scan cancelled");
      budget_left -= verdict.runs.total;
      out.push_back(std::move(verdict));
    }
    return out;
  };
}

util::Result<core::RecordedRun> replay_schedule(const std::string& test, const std::map<std::string, std::string>& details,
                                                core::RunLog& runs, const ExploreOptions& options) {
  if (auto placements = details.find("placements"); placements != details.end()) {
    auto parsed = parse_placements(placements->second);
    if (!parsed) return std::unexpected(parsed.error());
    core::RunSpec spec;
    spec.tests = {test};
    spec.technique = "replay";
    spec.purpose = "replay: maxdiff order with " + std::to_string(parsed->size()) + " placement(s)";
    MessageScheduleResult result;
    return runs.run_debugged(spec, [&](core::Vm& vm) {
      return run_message_schedule(vm, test, *parsed, options.message_schedule, result);
    });
  }
  auto key = details.find("event_key");
  auto to = details.find("delayed_to_statement");
  if (key == details.end() || to == details.end())
    return util::fail(util::Errc::invalid_argument,
                      "the verdict has no schedule (placements, or event_key and delayed_to_statement)");
  int position = end_of_test;
  if (to->second != "end") {
    try {
      position = std::stoi(to->second);
    } catch (...) {
      return util::fail(util::Errc::invalid_argument, "bad delayed_to_statement: " + to->second);
    }
  }
  ScheduleResult result;
  core::RunSpec spec;
  spec.tests = {test};
  spec.technique = "replay";
  spec.purpose = "replay: delay " + key->second + " to " + to->second;
  return runs.run_debugged(spec, [&](core::Vm& vm) {
    return run_schedule(vm, test, ScheduleRequest{key->second, position}, options.schedule, result);
  });
}

}  // namespace flakescan::event_order
