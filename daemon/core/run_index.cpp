#include "core/run_index.hpp"

namespace flakescan::core {

RunIndex::RunIndex(const std::vector<RecordedRun>& runs) : runs_(&runs) {
  for (const auto& run : runs) {
    by_id_.emplace(run.id, &run);
    for (std::size_t i = 0; i < run.spec.tests.size(); ++i) places_[run.spec.tests[i]].push_back({&run, i});
  }
}

std::span<const Place> RunIndex::places(std::string_view test) const {
  auto it = places_.find(test);
  if (it == places_.end()) return {};
  return it->second;
}

const RecordedRun* RunIndex::by_id(std::int64_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

}  // namespace flakescan::core
