#include "event_order/explore.hpp"

#include <chrono>

#include "event_order/schedule_space.hpp"
#include "rerun/outcome_tally.hpp"
#include "util/log.hpp"

namespace flakescan::event_order {

namespace {

std::string position_name(int position) { return position == end_of_test ? "end" : std::to_string(position); }

core::RunSpec spec_for(const std::string& test, std::string purpose) {
  core::RunSpec spec;
  spec.tests = {test};
  spec.technique = "explore";
  spec.purpose = std::move(purpose);
  return spec;
}

core::Outcome outcome_of(const core::RecordedRun& run) { return run.report.outcome_at(0); }

struct TestExploration {
  const std::string& test;
  const ExploreOptions& options;
  core::RunLog& runs;
  rerun::OutcomeTally tally;
  std::int64_t passing_run = 0;
  int runs_made = 0;

  util::Result<core::RecordedRun> schedule(const std::string& key, std::optional<int> position, const std::string& purpose,
                                           ScheduleResult& result) {
    auto run = runs.run_debugged(spec_for(test, purpose), [&](core::Vm& vm) {
      return run_schedule(vm, test, ScheduleRequest{key, position}, options.schedule, result);
    });
    if (run) note(*run);
    return run;
  }

  void note(const core::RecordedRun& run) {
    ++runs_made;
    if (run.id == 0) return;
    tally.add(run);
    if (!passing_run && outcome_of(run) == core::Outcome::pass) passing_run = run.id;
  }
};

util::Result<core::Verdict> explore_test(const std::string& test, const ExploreOptions& options, core::RunLog& runs,
                                         int run_budget) {
  static auto log = util::logger("explore");
  TestExploration x{test, options, runs, {}, 0, 0};
  core::Verdict verdict;
  verdict.test = test;
  verdict.technique = "explore";

  looper_trace::Trace trace;
  auto traced = runs.run_debugged(spec_for(test, "trace " + test), [&](core::Vm& vm) {
    return looper_trace::trace_test(vm, test, options.trace, trace);
  });
  if (!traced) return std::unexpected(traced.error());
  x.note(*traced);
  trace.outcome = outcome_of(*traced);
  auto finish = [&](core::VerdictKind kind, std::string reason) {
    verdict = rerun::verdict_from_tally(test, x.tally.find(test), "explore", core::Category::concurrency);
    std::string seen = verdict.evidence.reason;
    if (kind != core::VerdictKind::flaky && verdict.verdict == core::VerdictKind::flaky) {
      // It failed and passed, but no schedule explains the failure: flaky all the same, with
      // no category of explore's (never not_flaky: the failure was observed).
      verdict.category = core::Category::unknown;
      reason += "; yet " + seen + " without a schedule that explains the failure";
    } else if (kind == core::VerdictKind::could_not_run && verdict.verdict != core::VerdictKind::flaky) {
      verdict.verdict = kind;
    }
    verdict.technique = "explore";
    verdict.evidence.reason = std::move(reason);
    return verdict;
  };
  if (!core::is_observation(trace.outcome))
    return finish(core::VerdictKind::could_not_run,
                  "the traced run did not give an outcome: " + traced->report.infra_reason + " " +
                      (traced->report.results.empty() ? "" : traced->report.results[0].message));
  auto async = trace.async_events();
  log->info("{}: traced {} events on the main queue, {} async", test, trace.events.size(), async.size());
  if (async.empty())
    return finish(core::VerdictKind::not_flaky, "no async event reached the main queue: nothing to reorder");

  int explored = 0;
  std::string summary;
  for (size_t n = 0; n < async.size() && n < size_t(options.max_async_events); ++n) {
    const auto& event = trace.events[async[n]];
    const std::string key = event.identity.key();
    // Algorithm 2: the what-if run gives the upper bound (and the end-of-test position).
    ScheduleResult what_if;
    auto bound_run = x.schedule(key, std::nullopt, "what-if upper bound of " + event.identity.str(), what_if);
    if (!bound_run) return std::unexpected(bound_run.error());
    if (!what_if.event_seen) {
      summary += " event " + event.identity.str() + " did not recur;";
      continue;
    }
    auto space = schedule_space(trace, async[n], what_if.blocked_at);
    std::vector<PositionOutcome> outcomes(space.positions.size(), PositionOutcome::untried);
    std::vector<std::int64_t> run_ids(space.positions.size(), 0);
    if (!what_if.blocked_at && !space.positions.empty() && what_if.realised && core::is_observation(outcome_of(*bound_run))) {
      outcomes[0] = core::is_failure(outcome_of(*bound_run)) ? PositionOutcome::fail : PositionOutcome::pass;
      run_ids[0] = bound_run->id;
    }
    while (auto next = next_position(outcomes)) {
      if (x.runs_made >= run_budget || runs.cancelled()) break;
      int position = space.positions[*next];
      ScheduleResult result;
      auto run = x.schedule(key, position, "delay " + event.identity.str() + " to " + position_name(position), result);
      if (!run) return std::unexpected(run.error());
      bool realised = result.realised && core::is_observation(outcome_of(*run));
      outcomes[*next] = !realised ? PositionOutcome::unrealised
                        : core::is_failure(outcome_of(*run)) ? PositionOutcome::fail : PositionOutcome::pass;
      run_ids[*next] = run->id;
      log->info("{}: {} delayed to {}: {}{}", test, event.identity.str(), position_name(position),
                core::outcome_name(outcome_of(*run)), realised ? "" : " (not realised: " + result.note + ")");
    }
    ++explored;
    auto race = racing_statement(trace, space, outcomes);
    if (race && x.passing_run) {
      verdict = finish(core::VerdictKind::flaky, "");
      verdict.verdict = core::VerdictKind::flaky;
      verdict.category = core::Category::concurrency;
      int at = space.positions[race->failing];
      auto& ev = verdict.evidence;
      ev.passing_run = x.passing_run;
      ev.failing_run = run_ids[race->failing];
      ev.reproducer = {test};
      ev.details["event"] = event.identity.str();
      ev.details["event_key"] = key;
      ev.details["event_thread"] = event.thread_name;
      ev.details["delayed_to_statement"] = position_name(at);
      ev.details["racing_line"] = std::to_string(race->racing_line);
      ev.details["lower_bound_line"] = std::to_string(space.lower_line);
      ev.details["upper_bound_line"] = space.upper_line ? std::to_string(*space.upper_line) : "end";
      ev.reason = "the async event posted by thread '" + event.thread_name + "' during line " +
                  std::to_string(space.lower_line) + " makes the test fail when it is delayed to " +
                  (at == end_of_test ? std::string("the end of the test") : "just before line " + std::to_string(at)) +
                  " and pass when it comes before line " + std::to_string(race->racing_line) +
                  " (the racing statement)";
      return verdict;
    }
    summary += " event " + event.identity.str() + ": " + std::to_string(space.positions.size()) + " positions between line " +
               std::to_string(space.lower_line) + " and " + (space.upper_line ? "line " + std::to_string(*space.upper_line) : "the end") + ";";
    if (x.runs_made >= run_budget) break;
  }
  return finish(core::VerdictKind::not_flaky, "explored " + std::to_string(explored) + " async event(s) in " +
                                                  std::to_string(x.runs_made) + " runs, no failing schedule:" + summary);
}

}  // namespace

core::TechniqueFn explore_technique(ExploreOptions options) {
  return [options](const core::TechniqueInput& input, core::RunLog& runs) -> util::Result<std::vector<core::Verdict>> {
    std::vector<core::Verdict> out;
    const auto started = std::chrono::steady_clock::now();
    int budget_left = input.budget.max_runs;
    for (const auto& test : input.tests) {
      if (runs.cancelled()) return util::fail(util::Errc::cancelled, "scan cancelled");
      if (std::chrono::steady_clock::now() - started > std::chrono::seconds(input.budget.max_seconds)) break;
      runs.plan(3);
      auto verdict = explore_test(test, options, runs, std::min(budget_left, 40));
      if (!verdict) {
        if (verdict.error().code == util::Errc::cancelled) return std::unexpected(verdict.error());
        core::Verdict v;
        v.test = test;
        v.technique = "explore";
        v.verdict = core::VerdictKind::could_not_run;
        v.evidence.reason = "exploration failed: " + util::describe(verdict.error());
        out.push_back(std::move(v));
        continue;
      }
      budget_left -= verdict->runs.total;
      out.push_back(std::move(*verdict));
    }
    return out;
  };
}

util::Result<core::RecordedRun> replay_schedule(const std::string& test, const std::map<std::string, std::string>& details,
                                                core::RunLog& runs, const ExploreOptions& options) {
  auto key = details.find("event_key");
  auto to = details.find("delayed_to_statement");
  if (key == details.end() || to == details.end())
    return util::fail(util::Errc::invalid_argument, "the verdict has no schedule (event_key, delayed_to_statement)");
  int position = end_of_test;
  if (to->second != "end") {
    try {
      position = std::stoi(to->second);
    } catch (...) {
      return util::fail(util::Errc::invalid_argument, "bad delayed_to_statement: " + to->second);
    }
  }
  ScheduleResult result;
  auto spec = spec_for(test, "replay: delay " + key->second + " to " + to->second);
  spec.technique = "replay";
  return runs.run_debugged(spec, [&](core::Vm& vm) {
    return run_schedule(vm, test, ScheduleRequest{key->second, position}, options.schedule, result);
  });
}

}  // namespace flakescan::event_order
