// Strategy flakescanner of `explore` (docs/explore.md, strategy flakescanner): one async event delayed at a
// time to the statement positions between its bounds. See explore.hpp.
#include "event_order/explore_strategies.hpp"

#include "event_order/explore.hpp"
#include "event_order/schedule_space.hpp"
#include "util/log.hpp"

namespace flakescan::event_order {

namespace {

std::string position_name(int position) { return position == end_of_test ? "end" : std::to_string(position); }

// One schedule run: the event with `key` held until `position` (nullopt: the what-if run).
util::Result<core::RecordedRun> schedule(Exploration& x, const std::string& key, std::optional<int> position,
                                         const std::string& purpose, ScheduleResult& result) {
  auto run = x.runs.run_debugged(x.spec(purpose), [&](core::Vm& vm) {
    return run_schedule(vm, x.test, ScheduleRequest{key, position}, x.options.schedule, result);
  });
  if (run) x.note(*run);
  return run;
}

// What the runs at the positions of one event's schedule space gave, position by position.
struct PositionRuns {
  std::vector<PositionOutcome> outcomes;
  std::vector<std::int64_t> run_ids;
};

// The positions of the space run in the order next_position() picks, while the budget lasts;
// the what-if run stands for the first position when it realised the event there.
util::Result<PositionRuns> run_positions(Exploration& x, const looper_trace::TracedEvent& event, const ScheduleSpace& space,
                                         const ScheduleResult& what_if, const core::RecordedRun& bound_run) {
  static auto log = util::logger("explore");
  const std::string key = event.identity.key();
  PositionRuns p{std::vector<PositionOutcome>(space.positions.size(), PositionOutcome::untried),
                 std::vector<std::int64_t>(space.positions.size(), 0)};
  if (!what_if.blocked_at && !space.positions.empty() && what_if.realised && core::is_observation(outcome_of(bound_run))) {
    p.outcomes[0] = core::is_failure(outcome_of(bound_run)) ? PositionOutcome::fail : PositionOutcome::pass;
    p.run_ids[0] = bound_run.id;
  }
  while (auto next = next_position(p.outcomes)) {
    if (!x.can_run()) break;
    int position = space.positions[*next];
    ScheduleResult result;
    auto run = schedule(x, key, position, "delay " + event.identity.str() + " to " + position_name(position), result);
    if (!run) return std::unexpected(run.error());
    bool realised = result.realised && core::is_observation(outcome_of(*run));
    p.outcomes[*next] = !realised ? PositionOutcome::unrealised
                        : core::is_failure(outcome_of(*run)) ? PositionOutcome::fail : PositionOutcome::pass;
    p.run_ids[*next] = run->id;
    log->info("{}: {} delayed to {}: {}{}", x.test, event.identity.str(), position_name(position),
              core::outcome_name(outcome_of(*run)), realised ? "" : " (not realised: " + result.note + ")");
  }
  return p;
}

Found found_race(const looper_trace::TracedEvent& event, const ScheduleSpace& space, const RaceFinding& race,
                 const PositionRuns& p) {
  int at = space.positions[race.failing];
  Found found;
  found.failing_run = p.run_ids[race.failing];
  auto& d = found.details;
  d["strategy"] = "flakescanner";
  d["event"] = event.identity.str();
  d["event_key"] = event.identity.key();
  d["event_thread"] = event.thread_name;
  d["delayed_to_statement"] = position_name(at);
  d["racing_line"] = std::to_string(race.racing_line);
  d["lower_bound_line"] = std::to_string(space.lower_line);
  d["upper_bound_line"] = space.upper_line ? std::to_string(*space.upper_line) : "end";
  found.reason = "the async event posted by thread '" + event.thread_name + "' during line " +
                 std::to_string(space.lower_line) + " makes the test fail when it is delayed to " +
                 (at == end_of_test ? std::string("the end of the test") : "just before line " + std::to_string(at)) +
                 " and pass when it comes before line " + std::to_string(race.racing_line) + " (the racing statement)";
  return found;
}

}  // namespace

util::Result<StrategyResult> explore_flakescanner(Exploration& x) {
  static auto log = util::logger("explore");
  const auto& test = x.test;
  StrategyResult out;
  if (!x.can_run()) {
    out.summary = "flakescanner: no budget left";
    return out;
  }
  looper_trace::StatementTrace trace;
  auto traced = traced_run(x, "trace " + test, trace, [&](core::Vm& vm, looper_trace::StatementTrace& t) {
    return looper_trace::trace_statements(vm, test, x.options.trace, t);
  });
  if (!traced) return std::unexpected(traced.error());
  if (!core::is_observation(trace.outcome)) {
    out.no_outcome = no_outcome_reason(*traced);
    return out;
  }
  auto async = trace.async_events();
  log->info("{}: traced {} events on the main queue, {} async", test, trace.events.size(), async.size());
  if (async.empty()) {
    out.summary = "flakescanner: no async event reached the main queue, nothing to reorder";
    return out;
  }

  size_t explored = 0;
  std::string summary;
  for (size_t n = 0; n < async.size() && x.can_run(); ++n) {
    const auto& event = trace.events[async[n]];
    const std::string key = event.identity.key();
    // Algorithm 2: the what-if run gives the upper bound (and the end-of-test position).
    ScheduleResult what_if;
    auto bound_run = schedule(x, key, std::nullopt, "what-if upper bound of " + event.identity.str(), what_if);
    if (!bound_run) return std::unexpected(bound_run.error());
    ++explored;
    if (!what_if.event_seen) {
      summary += " event " + event.identity.str() + " did not recur;";
      continue;
    }
    auto space = schedule_space(trace, async[n], what_if.blocked_at);
    auto positions = run_positions(x, event, space, what_if, *bound_run);
    if (!positions) return std::unexpected(positions.error());
    auto race = racing_statement(trace, space, positions->outcomes);
    if (race && x.passing_run) {
      out.found = found_race(event, space, *race, *positions);
      return out;
    }
    summary += " event " + event.identity.str() + ": " + std::to_string(space.positions.size()) + " positions between line " +
               std::to_string(space.lower_line) + " and " +
               (space.upper_line ? "line " + std::to_string(*space.upper_line) : "the end") + ";";
  }
  out.summary = "flakescanner: explored " + std::to_string(explored) + " of " + std::to_string(async.size()) +
                " async event(s), no failing schedule:" + summary;
  return out;
}

}  // namespace flakescan::event_order
