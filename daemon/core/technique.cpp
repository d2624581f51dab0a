#include "core/technique.hpp"

namespace flakescan::core {

const char* strategy_name(ExploreStrategy strategy) {
  switch (strategy) {
    case ExploreStrategy::flakescanner: return "flakescanner";
    case ExploreStrategy::maxdiff: return "maxdiff";
    case ExploreStrategy::both: return "both";
  }
  return "maxdiff";
}

std::optional<ExploreStrategy> parse_strategy(std::string_view name) {
  if (name == "flakescanner") return ExploreStrategy::flakescanner;
  if (name == "maxdiff") return ExploreStrategy::maxdiff;
  if (name == "both") return ExploreStrategy::both;
  return std::nullopt;
}

}  // namespace flakescan::core
