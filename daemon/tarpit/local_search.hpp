#pragma once
// The interval search of excessive local exploration: over a sequence of screen groups,
// find the interval [l, r] with the fewest distinct groups per unit of "weight", where the
// weight is the number of actions (VET: r - l + 1) or the time it spans.
//
// VET scans all O(n^2) intervals. This is exact and faster: Dinkelbach's method turns
// "minimise D(l,r) / W(l,r)" into a few rounds of "minimise q*D(l,r) - p*W(l,r)" for the
// current best ratio p/q; each round is one sweep over r with a segment tree over l holding
// q*D(l,r) + p*w[l] (a new occurrence of group g at r adds q to every l after g's previous
// occurrence). All arithmetic is on integers, so ties are exact: among minimal intervals
// the lexicographically first (l, then r) wins, as in VET's nested loops with a strict <.
#include <cstdint>
#include <optional>
#include <span>

namespace flakescan::tarpit {

struct IntervalScore {
  std::size_t l = 0, r = 0;    // inclusive indices into the sequence
  std::int64_t distinct = 0;   // distinct groups in [l, r]
  std::int64_t weight = 0;     // r - l + 1, or w[r] - w[l]
  double ratio() const { return weight ? double(distinct) / double(weight) : 0.0; }
};

// VET's score: minimise distinct(l..r) / (r - l + 1) over all 0 <= l <= r < n.
// `groups` are dense ids below `group_count`. Empty input gives nullopt.
std::optional<IntervalScore> min_distinct_per_action(std::span<const std::uint32_t> groups,
                                                     std::size_t group_count);

// Time score: minimise distinct(l..r) / (w[r] - w[l]) over intervals with
// w[r] - w[l] >= min_weight (min_weight >= 1); `w` ascending (e.g. milliseconds).
std::optional<IntervalScore> min_distinct_per_time(std::span<const std::uint32_t> groups,
                                                   std::span<const std::int64_t> w,
                                                   std::int64_t min_weight,
                                                   std::size_t group_count);

// The O(n^2) scans, exactly as VET loops; for tests and the benchmark's cross-check.
std::optional<IntervalScore> brute_min_distinct_per_action(std::span<const std::uint32_t> groups,
                                                           std::size_t group_count);
std::optional<IntervalScore> brute_min_distinct_per_time(std::span<const std::uint32_t> groups,
                                                         std::span<const std::int64_t> w,
                                                         std::int64_t min_weight,
                                                         std::size_t group_count);

}  // namespace flakescan::tarpit
