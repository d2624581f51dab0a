#pragma once
// Exploration space partition (VET's detect-partition): the split point after which the
// tool rarely goes back to screens it saw before and explores a much smaller space.
//
// For each split i whose time is at most t_last - window (before = 0..i, after = i+1..end):
//   c2 = (visits in `after` to screens also seen in `before`) / |after|
//   c3 = 2 * sigmoid(distinct(after) / distinct(screens of the last `window`) - 1) - 1
// score = c2 + c3, minimised with a strict < (the first minimum wins). Everything is kept
// incrementally, so the scan is O(n) instead of VET's O(n * distinct screens).
#include <cstdint>
#include <optional>
#include <span>

namespace flakescan::tarpit {

struct PartitionScore {
  std::size_t split = 0;            // index of the last screen of `before`
  double score = 0, c2 = 0, c3 = 0;
  std::size_t distinct_before = 0;  // distinct screens in 0..split
  std::size_t distinct_after = 0;   // distinct screens in split+1..end
  bool accepted = false;            // distinct_before > distinct_after (VET's acceptance)
};

// `screens` are dense ids below `screen_count`, `times` ascending, same length.
// nullopt when no split point exists (the trace is shorter than the window).
std::optional<PartitionScore> find_partition(std::span<const std::uint32_t> screens,
                                             std::span<const std::int64_t> times,
                                             std::int64_t window_ms, std::size_t screen_count);

}  // namespace flakescan::tarpit
