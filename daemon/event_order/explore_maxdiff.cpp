// Strategy maxdiff of `explore` (ALGORITHMS.md section 2): orders of maximum difference
// within happens-before intervals, each realised by holding posting threads. See explore.hpp.
#include <algorithm>

#include "event_order/explore.hpp"
#include "event_order/explore_strategies.hpp"
#include "event_order/happens_before.hpp"
#include "event_order/max_diff.hpp"
#include "util/log.hpp"

namespace flakescan::event_order {

namespace {

using looper_trace::MessageTrace;

std::string thread_of(const MessageTrace& trace, size_t message) {
  int sender = trace.messages[message].sender;
  return sender >= 0 ? trace.threads[size_t(sender)].name : "?";
}

std::string describe(const MessageTrace& trace, size_t message) {
  return trace.messages[message].identity.str() + " from '" + thread_of(trace, message) + "'";
}

// "M after A" for every constraint of the order: M dispatched after its new predecessor,
// and its new successor after M.
std::vector<Placement> placements_of(const MessageTrace& trace, const MaxDiffOrder& order) {
  std::vector<Placement> out;
  auto add = [&](size_t message, size_t after) {
    Placement p{trace.messages[message].identity.key(), trace.messages[after].identity.key()};
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
  };
  for (const auto& c : order.constraints) {
    if (c.after) add(c.message, *c.after);
    if (c.before) add(*c.before, c.message);
  }
  return out;
}

std::vector<std::string> async_keys(const MessageTrace& trace, const std::vector<size_t>& sequence) {
  std::vector<std::string> out;
  for (size_t m : sequence)
    if (trace.async(m)) out.push_back(trace.messages[m].identity.key());
  return out;
}

// The run dispatched the async messages of the order in the order's relative order.
bool realises(const std::vector<std::string>& wanted, const MessageTrace& run) {
  auto got = async_keys(run, run.async_sequence());
  size_t at = 0;
  for (const auto& key : got) {
    if (at < wanted.size() && key == wanted[at]) ++at;
    else if (std::find(wanted.begin(), wanted.end(), key) != wanted.end()) return false;  // out of order
  }
  return at == wanted.size();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace

util::Result<StrategyResult> explore_maxdiff(Exploration& x) {
  static auto log = util::logger("explore");
  const auto& test = x.test;
  StrategyResult out;
  if (!x.can_run()) {
    out.summary = "maxdiff: no budget left";
    return out;
  }
  MessageTrace trace;
  auto traced = x.runs.run_debugged(x.spec("trace messages of " + test), [&](core::Vm& vm) {
    return looper_trace::trace_messages(vm, test, x.options.message_trace, trace);
  });
  if (!traced) return std::unexpected(traced.error());
  x.note(*traced);
  trace.outcome = outcome_of(*traced);
  if (!core::is_observation(trace.outcome)) {
    out.no_outcome = "the traced run did not give an outcome: " + traced->report.infra_reason + " " +
                     (traced->report.results.empty() ? "" : traced->report.results[0].message);
    return out;
  }
  const auto async = trace.async_sequence();
  log->info("{}: {} messages traced, {} async", test, trace.messages.size(), async.size());
  if (async.empty()) {
    out.summary = "maxdiff: no async message reached the main thread, nothing to reorder";
    return out;
  }
  const auto hb = happens_before(trace);
  const size_t rounds = size_t(std::max(1, x.run_budget - x.runs_made));
  const auto orders = max_diff_orders(trace, hb, x.seed, rounds);
  if (orders.empty()) {
    out.summary = "maxdiff: " + std::to_string(async.size()) +
                  " async message(s), none can move: happens-before fixes their order";
    return out;
  }

  int tried = 0, realised_runs = 0;
  for (size_t round = 0; round < orders.size() && x.can_run(); ++round) {
    const auto& order = orders[round];
    const auto placements = placements_of(trace, order);
    const auto wanted = async_keys(trace, order.sequence);
    std::vector<std::string> moved;
    for (const auto& mv : order.moved)
      moved.push_back(describe(trace, mv.message) + ": position " + std::to_string(mv.old_position) + " -> " +
                      std::to_string(mv.new_position));
    auto run_order = [&](const std::string& purpose, MessageScheduleResult& result) -> util::Result<core::RecordedRun> {
      auto run = x.runs.run_debugged(x.spec(purpose), [&](core::Vm& vm) {
        return run_message_schedule(vm, test, placements, x.options.message_schedule, result);
      });
      if (run) x.note(*run);
      return run;
    };
    MessageScheduleResult result;
    auto run = run_order("maxdiff order " + std::to_string(round + 1) + ": " + std::to_string(order.moved.size()) +
                             " message(s) moved",
                         result);
    if (!run) return std::unexpected(run.error());
    ++tried;
    const bool realised = realises(wanted, result.trace) && core::is_observation(outcome_of(*run));
    realised_runs += realised;
    log->info("{}: maxdiff order {}: {}{}", test, round + 1, core::outcome_name(outcome_of(*run)),
              realised ? "" : " (not realised: " + result.note + ")");
    if (!core::is_failure(outcome_of(*run))) continue;
    // The order to confirm: the one asked for when the run realised it, else the order of
    // async messages the failing run did show (the failure came from that one).
    auto confirm_placements = placements;
    auto confirm_wanted = wanted;
    std::string observed;
    if (!realised) {
      confirm_wanted = async_keys(result.trace, result.trace.async_sequence());
      confirm_placements.clear();
      for (size_t i = 1; i < confirm_wanted.size(); ++i) confirm_placements.push_back({confirm_wanted[i], confirm_wanted[i - 1]});
      observed = " as the failing run of order #" + std::to_string(round + 1) + " dispatched them";
      if (confirm_placements.empty()) continue;
    }
    std::int64_t confirming = 0;
    if (x.can_run()) {
      MessageScheduleResult again;
      auto second = x.runs.run_debugged(x.spec("maxdiff order " + std::to_string(round + 1) + " again (confirmation" +
                                               (realised ? std::string(")") : ", the order the failing run showed)")),
                                        [&](core::Vm& vm) {
                                          return run_message_schedule(vm, test, confirm_placements, x.options.message_schedule, again);
                                        });
      if (!second) return std::unexpected(second.error());
      x.note(*second);
      const bool again_realised = realises(confirm_wanted, again.trace);
      log->info("{}: confirmation of order {}: {}{}", test, round + 1, core::outcome_name(outcome_of(*second)),
                again_realised ? "" : " (not realised: " + again.note + ")");
      if (!(again_realised && core::is_failure(outcome_of(*second)))) continue;
      confirming = second->id;
    } else if (!realised) {
      continue;  // no run left to show that the observed order decides it
    }
    if (!x.passing_run) continue;  // no pass seen yet: not flaky on this evidence
    Found found;
    found.failing_run = realised ? run->id : confirming;
    auto& d = found.details;
    d["strategy"] = "maxdiff";
    d["placements"] = format_placements(confirm_placements);
    d["moved"] = joined(moved);
    std::vector<std::string> dispatched;
    for (size_t m : result.trace.async_sequence()) dispatched.push_back(describe(result.trace, m));
    d["realised_order"] = joined(dispatched);
    d["order_round"] = std::to_string(round + 1);
    if (confirming) d["confirmed_by_run"] = std::to_string(confirming);
    std::string what;
    for (const auto& mv : order.moved) what += (what.empty() ? "" : "; ") + describe(trace, mv.message);
    std::string sequence;
    for (const auto& line : dispatched) sequence += (sequence.empty() ? "" : ", then ") + line;
    found.reason = "the test fails when the main thread handles its async messages in this order: " + sequence +
                   (realised ? " (maximum-difference order #" + std::to_string(round + 1) + ", moved: " + what + ")" : observed) +
                   (confirming ? "; it failed again when run in that order" : "") + "; it passes in the recorded order";
    out.found = std::move(found);
    return out;
  }
  out.summary = "maxdiff: " + std::to_string(async.size()) + " async message(s), " + std::to_string(tried) + " of " +
                std::to_string(orders.size()) + " order(s) run (" + std::to_string(realised_runs) +
                " realised), no failing order";
  return out;
}

}  // namespace flakescan::event_order
