#include "tarpit/local_search.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace flakescan::tarpit {

namespace {

// Range add, range minimum with the leftmost position of the minimum.
class MinTree {
 public:
  explicit MinTree(std::size_t n) : n_(n), min_(4 * n), pos_(4 * n), add_(4 * n, 0) {}

  void build(const std::vector<std::int64_t>& init) { build(1, 0, n_ - 1, init); }
  void add(std::size_t lo, std::size_t hi, std::int64_t v) { add(1, 0, n_ - 1, lo, hi, v); }
  // (min, leftmost position) over [lo, hi].
  std::pair<std::int64_t, std::size_t> query(std::size_t lo, std::size_t hi) const {
    return query(1, 0, n_ - 1, lo, hi);
  }

 private:
  void pull(std::size_t x) {
    const auto a = 2 * x, b = 2 * x + 1;
    if (min_[a] <= min_[b]) { min_[x] = min_[a]; pos_[x] = pos_[a]; }
    else { min_[x] = min_[b]; pos_[x] = pos_[b]; }
    min_[x] += add_[x];
  }
  void build(std::size_t x, std::size_t lo, std::size_t hi, const std::vector<std::int64_t>& init) {
    add_[x] = 0;
    if (lo == hi) { min_[x] = init[lo]; pos_[x] = lo; return; }
    const auto mid = (lo + hi) / 2;
    build(2 * x, lo, mid, init);
    build(2 * x + 1, mid + 1, hi, init);
    pull(x);
  }
  void add(std::size_t x, std::size_t lo, std::size_t hi, std::size_t a, std::size_t b, std::int64_t v) {
    if (b < lo || hi < a) return;
    if (a <= lo && hi <= b) { min_[x] += v; add_[x] += v; return; }
    const auto mid = (lo + hi) / 2;
    add(2 * x, lo, mid, a, b, v);
    add(2 * x + 1, mid + 1, hi, a, b, v);
    pull(x);
  }
  std::pair<std::int64_t, std::size_t> query(std::size_t x, std::size_t lo, std::size_t hi,
                                             std::size_t a, std::size_t b) const {
    if (a <= lo && hi <= b) return {min_[x], pos_[x]};
    const auto mid = (lo + hi) / 2;
    std::pair<std::int64_t, std::size_t> best{std::numeric_limits<std::int64_t>::max(), 0};
    if (a <= mid) best = query(2 * x, lo, mid, a, b);
    if (b > mid) {
      auto right = query(2 * x + 1, mid + 1, hi, a, b);
      if (right.first < best.first) best = right;
    }
    best.first += add_[x];
    return best;
  }

  std::size_t n_;
  std::vector<std::int64_t> min_;
  std::vector<std::size_t> pos_;
  std::vector<std::int64_t> add_;
};

// One generic problem: weight(l, r) = w[r] - w[l] + c, feasible l in [0, last_l(r)].
struct IntervalProblem {
  std::span<const std::uint32_t> groups;
  std::vector<std::int64_t> w;
  std::int64_t c = 0;
  std::vector<std::int64_t> last_l;  // -1 when no l is feasible for r
  std::size_t group_count = 0;
};

std::int64_t distinct_in(const IntervalProblem& p, std::size_t l, std::size_t r) {
  std::vector<bool> seen(p.group_count, false);
  std::int64_t d = 0;
  for (auto k = l; k <= r; ++k)
    if (!seen[p.groups[k]]) { seen[p.groups[k]] = true; ++d; }
  return d;
}

std::optional<IntervalScore> solve(const IntervalProblem& prob, IntervalScore start) {
  const auto n = prob.groups.size();
  MinTree tree(n);
  std::vector<std::int64_t> init(n);
  std::vector<std::int64_t> prev_seen(prob.group_count, -1);
  IntervalScore best = start;
  for (int round = 0; round < 200; ++round) {
    const std::int64_t p = best.distinct, q = best.weight;
    for (std::size_t l = 0; l < n; ++l) init[l] = p * prob.w[l];
    tree.build(init);
    std::fill(prev_seen.begin(), prev_seen.end(), -1);
    // Best (value, l, r) of q*D - p*W, lexicographic.
    std::int64_t best_value = std::numeric_limits<std::int64_t>::max();
    std::size_t bl = 0, br = 0;
    for (std::size_t r = 0; r < n; ++r) {
      const auto g = prob.groups[r];
      tree.add(static_cast<std::size_t>(prev_seen[g] + 1), r, q);
      prev_seen[g] = static_cast<std::int64_t>(r);
      if (prob.last_l[r] < 0) continue;
      auto [v, l] = tree.query(0, static_cast<std::size_t>(prob.last_l[r]));
      v -= p * (prob.w[r] + prob.c);
      if (v < best_value || (v == best_value && l < bl)) {
        best_value = v;
        bl = l;
        br = r;
      }
    }
    if (best_value >= 0) {
      // p/q is optimal; (bl, br) is the first interval reaching it.
      IntervalScore out{bl, br, 0, prob.w[br] - prob.w[bl] + prob.c};
      out.distinct = distinct_in(prob, bl, br);
      return out;
    }
    best = IntervalScore{bl, br, distinct_in(prob, bl, br), prob.w[br] - prob.w[bl] + prob.c};
  }
  return best;  // not reached in practice: each round strictly lowers the ratio
}

}  // namespace

std::optional<IntervalScore> min_distinct_per_action(std::span<const std::uint32_t> groups,
                                                     std::size_t group_count) {
  const auto n = groups.size();
  if (n == 0) return std::nullopt;
  IntervalProblem prob{groups, std::vector<std::int64_t>(n), 1, std::vector<std::int64_t>(n), group_count};
  for (std::size_t k = 0; k < n; ++k) {
    prob.w[k] = static_cast<std::int64_t>(k);
    prob.last_l[k] = static_cast<std::int64_t>(k);
  }
  IntervalScore start{0, n - 1, distinct_in(prob, 0, n - 1), static_cast<std::int64_t>(n)};
  return solve(prob, start);
}

std::optional<IntervalScore> min_distinct_per_time(std::span<const std::uint32_t> groups,
                                                   std::span<const std::int64_t> w,
                                                   std::int64_t min_weight,
                                                   std::size_t group_count) {
  const auto n = groups.size();
  if (n == 0 || w.size() != n) return std::nullopt;
  min_weight = std::max<std::int64_t>(min_weight, 1);
  if (w[n - 1] - w[0] < min_weight) return std::nullopt;
  IntervalProblem prob{groups, std::vector<std::int64_t>(w.begin(), w.end()), 0,
               std::vector<std::int64_t>(n, -1), group_count};
  // Relative weights keep products small.
  const auto base = prob.w[0];
  for (auto& x : prob.w) x -= base;
  std::size_t l = 0;
  for (std::size_t r = 0; r < n; ++r) {
    while (l < r && prob.w[r] - prob.w[l + 1] >= min_weight) ++l;
    if (prob.w[r] - prob.w[l] >= min_weight) prob.last_l[r] = static_cast<std::int64_t>(l);
  }
  IntervalScore start{0, n - 1, distinct_in(prob, 0, n - 1), prob.w[n - 1]};
  return solve(prob, start);
}

namespace {

// VET's O(n^2) loop over every interval [l, r], its distinct groups counted as r grows.
// `weight(l, r)` is the interval's weight, or 0 to leave the interval out.
template <class Weight>
std::optional<IntervalScore> brute_min(std::span<const std::uint32_t> groups, std::size_t group_count, Weight weight) {
  std::optional<IntervalScore> best;
  std::vector<std::size_t> stamp(group_count, std::size_t(-1));
  for (std::size_t l = 0; l < groups.size(); ++l) {
    std::int64_t d = 0;
    for (std::size_t r = l; r < groups.size(); ++r) {
      if (stamp[groups[r]] != l) { stamp[groups[r]] = l; ++d; }
      const std::int64_t wt = weight(l, r);
      if (wt <= 0) continue;
      // d/wt < bd/bwt, in integers.
      if (!best || d * best->weight < best->distinct * wt) best = IntervalScore{l, r, d, wt};
    }
  }
  return best;
}

}  // namespace

std::optional<IntervalScore> brute_min_distinct_per_action(std::span<const std::uint32_t> groups,
                                                           std::size_t group_count) {
  return brute_min(groups, group_count,
                   [](std::size_t l, std::size_t r) { return static_cast<std::int64_t>(r - l + 1); });
}

std::optional<IntervalScore> brute_min_distinct_per_time(std::span<const std::uint32_t> groups,
                                                         std::span<const std::int64_t> w,
                                                         std::int64_t min_weight,
                                                         std::size_t group_count) {
  min_weight = std::max<std::int64_t>(min_weight, 1);
  return brute_min(groups, group_count, [&](std::size_t l, std::size_t r) {
    const std::int64_t span = w[r] - w[l];
    return span < min_weight ? std::int64_t(0) : span;
  });
}

}  // namespace flakescan::tarpit
