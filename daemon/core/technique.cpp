#include "core/technique.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace flakescan::core {

void in_lanes(size_t count, int lanes, const std::function<bool(size_t)>& work) {
  std::atomic<size_t> next{0};
  std::atomic<bool> stopped{false};
  auto lane = [&] {
    for (size_t i; !stopped && (i = next++) < count;)
      if (!work(i)) stopped = true;
  };
  const size_t n = std::min<size_t>(size_t(std::max(1, lanes)), count);
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(lane);
  lane();
  for (auto& t : threads) t.join();
}

util::Result<std::vector<RecordedRun>> run_in_parallel(const std::vector<RunSpec>& specs, int parallelism,
                                                       const std::function<util::Result<RecordedRun>(const RunSpec&)>& run_one) {
  std::vector<RecordedRun> out(specs.size());
  std::mutex error_mutex;
  std::optional<util::Error> first_error;
  in_lanes(specs.size(), parallelism, [&](size_t i) {
    auto r = run_one(specs[i]);
    if (r) {
      out[i] = std::move(*r);
      return true;
    }
    std::lock_guard lock(error_mutex);
    if (!first_error) first_error = r.error();
    return false;
  });
  if (first_error) return std::unexpected(*first_error);
  return out;
}

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
