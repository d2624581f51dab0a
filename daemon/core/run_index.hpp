#pragma once
// Every execution of every test in a scan's runs, found once. Deciding and rendering a scan's
// verdicts asks, for each of its tests, where it ran; searching each run for each test makes
// that tests x runs x run length (a 2,000-test suite scan: about 10^8 comparisons), the index
// makes it one pass over the runs.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/run.hpp"

namespace flakescan::core {

// One execution: the run and the test's position in its order.
struct Place {
  const RecordedRun* run = nullptr;
  std::size_t pos = 0;
  Outcome outcome() const { return run->report.outcome_at(pos); }
};

class RunIndex {
 public:
  // `runs` must outlive the index and not change while it is used.
  explicit RunIndex(const std::vector<RecordedRun>& runs);

  const std::vector<RecordedRun>& runs() const { return *runs_; }
  // The test's executions, in the order of `runs` and, within a run, of its order.
  std::span<const Place> places(std::string_view test) const;
  // The run with that store id; null when it is not one of `runs`.
  const RecordedRun* by_id(std::int64_t id) const;

 private:
  const std::vector<RecordedRun>* runs_;
  std::unordered_map<std::string_view, std::vector<Place>> places_;
  std::unordered_map<std::int64_t, const RecordedRun*> by_id_;
};

}  // namespace flakescan::core
