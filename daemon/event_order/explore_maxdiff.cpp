// Strategy maxdiff of `explore` (docs/explore.md, strategy maxdiff): orders of maximum difference
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

// The order a run showed, as placements: each async message after the main-thread message
// before it and before the one after it.
std::vector<Placement> placements_around(const MessageTrace& run) {
  std::vector<Placement> out;
  const auto sequence = ui_sequence(run);
  auto key = [&](size_t m) { return run.messages[m].identity.key(); };
  for (size_t p = 0; p < sequence.size(); ++p) {
    if (!run.async(sequence[p])) continue;
    if (p > 0) out.push_back({key(sequence[p]), key(sequence[p - 1])});
    if (p + 1 < sequence.size()) out.push_back({key(sequence[p + 1]), key(sequence[p])});
  }
  std::vector<Placement> unique;
  for (auto& p : out)
    if (std::find(unique.begin(), unique.end(), p) == unique.end()) unique.push_back(std::move(p));
  return unique;
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

// Rounds of maximum difference first; once they repeat, every other single move within
// the intervals, largest difference first, while the budget lasts. `max_diff_rounds`: how
// many of the orders are of maximum difference.
std::vector<MaxDiffOrder> orders_to_try(const MessageTrace& trace, std::uint64_t seed, size_t rounds, size_t& max_diff_rounds) {
  const auto hb = happens_before(trace);
  auto orders = max_diff_orders(trace, hb, seed, rounds);
  max_diff_rounds = orders.size();
  for (auto& single : single_move_orders(trace, hb)) {
    if (orders.size() >= rounds) break;
    if (std::none_of(orders.begin(), orders.end(), [&](const MaxDiffOrder& o) { return o.sequence == single.sequence; }))
      orders.push_back(std::move(single));
  }
  return orders;
}

// A failing run whose order was not the one asked for (or the traced run): its own order
// of main-thread messages, each async message between the neighbours it had, run once
// more. The failing run id when it failed again in that order.
util::Result<std::int64_t> confirm_observed(Exploration& x, const MessageTrace& failing, const std::string& label) {
  static auto log = util::logger("explore");
  const auto& test = x.test;
  auto placements = placements_around(failing);
  if (placements.empty() || !x.can_run()) return 0;
  MessageScheduleResult again;
  auto second = x.runs.run_debugged(x.spec("maxdiff: " + label + " again, in the order it showed"), [&](core::Vm& vm) {
    return run_message_schedule(vm, test, placements, x.options.message_schedule, again);
  });
  if (!second) return std::unexpected(second.error());
  x.note(*second);
  const bool realised = again.all_realised() &&
                        realises(async_keys(failing, failing.async_sequence()), again.trace);
  log->info("{}: {} again: {}{}", test, label, core::outcome_name(outcome_of(*second)),
            realised ? "" : " (not realised: " + again.note + ")");
  return realised && core::is_failure(outcome_of(*second)) ? second->id : 0;
}

Found found_in(const MessageTrace& failing, std::int64_t failing_run, std::int64_t confirming, const std::string& which) {
  Found found;
  found.failing_run = failing_run;
  auto& d = found.details;
  d["strategy"] = "maxdiff";
  std::vector<std::string> dispatched;
  for (size_t m : failing.async_sequence()) dispatched.push_back(describe(failing, m));
  d["realised_order"] = joined(dispatched);
  if (confirming) d["confirmed_by_run"] = std::to_string(confirming);
  std::string sequence;
  for (const auto& line : dispatched) sequence += (sequence.empty() ? "" : ", then ") + line;
  found.reason = "the test fails when the main thread handles its async messages in this order: " + sequence + " (" +
                 which + ")" + (confirming ? "; it failed again when run in that order" : "") +
                 "; a run in another order passed";
  return found;
}

// One order of the search that was run.
struct OrderRun {
  const MaxDiffOrder& order;
  size_t round = 0;
  std::string kind, label;
  std::vector<Placement> placements;
  MessageScheduleResult result;
  std::int64_t run = 0;
  bool realised = false;
};

// The finding of an order whose run failed: realised, or confirmed in the order it showed.
Found found_in_order(const MessageTrace& trace, const OrderRun& o, std::int64_t confirming) {
  std::string what;
  for (const auto& mv : o.order.moved) what += (what.empty() ? "" : "; ") + describe(trace, mv.message);
  Found found = found_in(o.result.trace, o.realised ? o.run : confirming, confirming,
                         o.realised ? o.label + ", moved: " + what : "as the failing run of " + o.label + " dispatched them");
  found.details["placements"] = format_placements(o.realised ? o.placements : placements_around(o.result.trace));
  std::vector<std::string> moved;
  for (const auto& mv : o.order.moved)
    moved.push_back(describe(trace, mv.message) + ": position " + std::to_string(mv.old_position) + " -> " +
                    std::to_string(mv.new_position));
  found.details["moved"] = joined(moved);
  found.details["order_round"] = std::to_string(o.round + 1);
  found.details["order_kind"] = o.kind;
  return found;
}

// The traced run failed and another order passed: the recorded order itself may be the
// failing schedule.
util::Result<std::optional<Found>> found_in_traced_run(Exploration& x, const MessageTrace& trace, std::int64_t traced_run) {
  if (!core::is_failure(trace.outcome) || !x.passing_run) return std::nullopt;
  auto c = confirm_observed(x, trace, "the traced run");
  if (!c) return std::unexpected(c.error());
  if (!*c) return std::nullopt;
  Found found = found_in(trace, traced_run, *c, "the order of the traced run");
  found.details["placements"] = format_placements(placements_around(trace));
  found.details["order_kind"] = "recorded";
  return found;
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
  auto traced = traced_run(x, "trace messages of " + test, trace, [&](core::Vm& vm, MessageTrace& t) {
    return looper_trace::trace_messages(vm, test, x.options.message_trace, t);
  });
  if (!traced) return std::unexpected(traced.error());
  if (!core::is_observation(trace.outcome)) {
    out.no_outcome = no_outcome_reason(*traced);
    return out;
  }
  const auto async = trace.async_sequence();
  log->info("{}: {} messages traced, {} async", test, trace.messages.size(), async.size());
  if (async.empty()) {
    out.summary = "maxdiff: no async message reached the main thread, nothing to reorder";
    return out;
  }
  const size_t rounds = size_t(std::max(1, x.run_budget - x.runs_made));
  size_t max_diff_rounds = 0;
  const auto orders = orders_to_try(trace, x.seed, rounds, max_diff_rounds);
  if (orders.empty()) {
    out.summary = "maxdiff: " + std::to_string(async.size()) +
                  " async message(s), none can move: happens-before fixes their order";
    return out;
  }

  int tried = 0, realised_runs = 0;
  for (size_t round = 0; round < orders.size() && x.can_run(); ++round) {
    OrderRun o{orders[round], round};
    o.placements = placements_of(trace, o.order);
    const auto wanted = async_keys(trace, o.order.sequence);
    o.kind = round < max_diff_rounds ? "maximum difference" : "single move";
    o.label = o.kind + " order #" + std::to_string(round + 1);
    auto run = x.runs.run_debugged(x.spec("maxdiff: " + o.label + ", " + std::to_string(o.order.moved.size()) + " message(s) moved"),
                                   [&](core::Vm& vm) {
                                     return run_message_schedule(vm, test, o.placements, x.options.message_schedule, o.result);
                                   });
    if (!run) return std::unexpected(run.error());
    x.note(*run);
    ++tried;
    o.run = run->id;
    o.realised = realises(wanted, o.result.trace) && core::is_observation(outcome_of(*run));
    realised_runs += o.realised;
    log->info("{}: {}: {}{}", test, o.label, core::outcome_name(outcome_of(*run)),
              o.realised ? "" : " (not realised: " + o.result.note + ")");
    if (!core::is_failure(outcome_of(*run))) continue;
    // A realised order that failed is a schedule, as one failing position is for
    // flakescanner; a failing run that did not realise its order is confirmed in the order
    // it did show (the failure came from that one).
    std::int64_t confirming = 0;
    if (!o.realised) {
      auto c = confirm_observed(x, o.result.trace, "the failing run of " + o.label);
      if (!c) return std::unexpected(c.error());
      if (!*c) continue;
      confirming = *c;
    }
    if (!x.passing_run) continue;  // no pass seen yet: not flaky on this evidence
    out.found = found_in_order(trace, o, confirming);
    return out;
  }
  auto recorded = found_in_traced_run(x, trace, traced->id);
  if (!recorded) return std::unexpected(recorded.error());
  if (*recorded) {
    out.found = std::move(**recorded);
    return out;
  }
  out.summary = "maxdiff: " + std::to_string(async.size()) + " async message(s), " + std::to_string(tried) + " of " +
                std::to_string(orders.size()) + " order(s) run (" + std::to_string(realised_runs) +
                " realised), no failing order";
  return out;
}

}  // namespace flakescan::event_order
