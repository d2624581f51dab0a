#include "tarpit/partition.hpp"

#include <cmath>
#include <vector>

namespace flakescan::tarpit {

namespace {
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
}  // namespace

std::optional<PartitionScore> find_partition(std::span<const std::uint32_t> screens,
                                             std::span<const std::int64_t> times,
                                             std::int64_t window_ms, std::size_t screen_count) {
  const auto n = screens.size();
  if (n < 2 || times.size() != n) return std::nullopt;
  const std::int64_t search_end = times[n - 1] - window_ms;

  std::vector<std::int64_t> remaining(screen_count, 0);  // occurrences still in `after`
  std::vector<char> in_end_window(screen_count, 0), in_before(screen_count, 0);
  std::size_t distinct_end = 0;
  for (std::size_t k = 0; k < n; ++k) {
    ++remaining[screens[k]];
    if (times[k] >= search_end && !in_end_window[screens[k]]) {
      in_end_window[screens[k]] = 1;
      ++distinct_end;
    }
  }
  std::size_t distinct_after = 0;
  for (auto c : remaining) distinct_after += c > 0;

  std::int64_t common = 0;  // visits in `after` to screens seen in `before`
  std::size_t distinct_before = 0;
  std::optional<PartitionScore> best;
  double best_score = 100.0;  // VET's initial best
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (times[i] > search_end) break;
    const auto s = screens[i];
    if (!in_before[s]) {
      // First sight: its later visits now count as revisits. Its visit at i leaves `after`.
      in_before[s] = 1;
      ++distinct_before;
      common += remaining[s] - 1;
    } else {
      common -= 1;
    }
    if (--remaining[s] == 0) --distinct_after;
    const double c2 = double(common) / double(n - i - 1);
    const double c3 = 2 * sigmoid(double(distinct_after) / double(distinct_end) - 1) - 1;
    const double score = c2 + c3;
    if (score < best_score) {
      best_score = score;
      best = PartitionScore{i, score, c2, c3, distinct_before, distinct_after,
                            distinct_before > distinct_after};
    }
  }
  return best;
}

}  // namespace flakescan::tarpit
