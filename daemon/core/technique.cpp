#include "core/technique.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
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

std::string solo_test(const RunSpec& spec) {
  if (spec.tests.empty()) return {};
  for (const auto& t : spec.tests)
    if (t != spec.tests.front()) return {};
  return spec.tests.front();
}

util::Result<std::vector<RecordedRun>> run_in_parallel(const std::vector<RunSpec>& specs, int parallelism,
                                                       const std::function<util::Result<RecordedRun>(const RunSpec&)>& run_one) {
  std::vector<RecordedRun> out(specs.size());
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<util::Error> first_error;
  std::vector<bool> taken(specs.size(), false);
  std::map<std::string, int> running;  // solo tests of the specs running now
  size_t left = specs.size();
  // The first spec not taken whose solo test is not running; specs.size() when none may start.
  auto next_startable = [&] {
    for (size_t i = 0; i < specs.size(); ++i) {
      if (taken[i]) continue;
      auto solo = solo_test(specs[i]);
      if (solo.empty() || running[solo] == 0) return i;
    }
    return specs.size();
  };
  auto lane = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      size_t i = specs.size();
      changed.wait(lock, [&] { return first_error || left == 0 || (i = next_startable()) < specs.size(); });
      if (first_error || left == 0) return;
      taken[i] = true;
      --left;
      const std::string solo = solo_test(specs[i]);
      if (!solo.empty()) ++running[solo];
      lock.unlock();
      auto r = run_one(specs[i]);
      lock.lock();
      if (!solo.empty()) --running[solo];
      if (r) out[i] = std::move(*r);
      else if (!first_error) first_error = r.error();
      changed.notify_all();
    }
  };
  const size_t n = std::min<size_t>(size_t(std::max(1, parallelism)), specs.size());
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(lane);
  lane();
  for (auto& t : threads) t.join();
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
