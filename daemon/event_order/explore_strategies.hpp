#pragma once
// The two strategies of `explore` over one test's Exploration (explore.hpp says what each
// does). Internal to event_order.
#include <optional>
#include <string>

#include "event_order/exploration.hpp"

namespace flakescan::event_order {

struct StrategyResult {
  std::optional<Found> found;  // a realised schedule that failed while another run passed
  std::string summary;         // what was explored, for the reason of a verdict without one
  std::string no_outcome;      // non-empty: the traced run gave no outcome (could not run)
};

util::Result<StrategyResult> explore_flakescanner(Exploration& x);
util::Result<StrategyResult> explore_maxdiff(Exploration& x);

}  // namespace flakescan::event_order
