#include "order/pair_cover.hpp"

#include <numeric>
#include <optional>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "order/orders.hpp"

namespace flakescan::order {

std::string_view package_of(std::string_view class_name) {
  auto dot = class_name.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : class_name.substr(0, dot);
}

bool same_package(std::string_view class_a, std::string_view class_b) {
  return package_of(class_a) == package_of(class_b);
}

PairTracker::PairTracker(const std::vector<std::string>& tests, RelatedFn related) : tests_(tests) {
  auto groups = group_by_class(tests_);
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < tests_.size(); ++i) index.emplace(tests_[i], i);
  class_of_.assign(tests_.size(), 0);
  for (const auto& g : groups) {
    members_.emplace_back();
    for (const auto& t : g) {
      class_of_[index.at(t)] = members_.size() - 1;
      members_.back().push_back(index.at(t));
    }
  }
  size_t n = members_.size(), count = tests_.size();
  related_.assign(n, std::vector<bool>(n, false));
  for (size_t c = 0; c < n; ++c)
    for (size_t d = 0; d < n; ++d)
      related_[c][d] = c == d || (related && related(class_of(tests_[members_[c][0]]), class_of(tests_[members_[d][0]])));
  pair_.assign(count, std::vector<bool>(count, false));
  last_before_.assign(count, std::vector<bool>(n, false));
  first_after_.assign(n, std::vector<bool>(count, false));
  coverage_.total = count * (count > 0 ? count - 1 : 0);
  for (size_t c = 0; c < n; ++c)
    for (size_t d = 0; d < n; ++d)
      if (related_[c][d])
        coverage_.related_total += members_[c].size() * (members_[d].size() - (c == d ? 1 : 0));
}

void PairTracker::mark(size_t a, size_t b) {
  if (a == b || pair_[a][b]) return;
  pair_[a][b] = true;
  ++coverage_.covered;
  if (related_[class_of_[a]][class_of_[b]]) ++coverage_.related_covered;
}

std::uint64_t PairTracker::add(const std::vector<std::string>& order) {
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < tests_.size(); ++i) index.emplace(tests_[i], i);
  auto before = coverage_.covered;
  std::optional<size_t> prev;
  for (const auto& t : order) {
    auto it = index.find(t);
    if (it == index.end()) {
      prev.reset();
      continue;
    }
    size_t b = it->second;
    if (prev) {
      size_t a = *prev;
      mark(a, b);
      if (class_of_[a] != class_of_[b]) {
        last_before_[a][class_of_[b]] = true;
        first_after_[class_of_[a]][b] = true;
      }
    }
    prev = b;
  }
  return coverage_.covered - before;
}

namespace {

// A reproducible tie-breaker for (a, b) within one order.
std::uint64_t jitter(std::uint64_t seed, size_t a, size_t b) {
  Rng r(seed ^ (0x9e3779b97f4a7c15ULL * (a + 1)) ^ (0xc2b2ae3d27d4eb4fULL * (b + 1)));
  return r.next();
}

struct Edge {
  std::uint64_t score = 0, tie = 0;
  size_t from_class = 0, to_class = 0, a = 0, b = 0;
  bool operator<(const Edge& o) const { return std::tie(score, tie) < std::tie(o.score, o.tie); }
};

struct Dsu {
  std::vector<size_t> parent;
  explicit Dsu(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  size_t find(size_t x) { return parent[x] == x ? x : parent[x] = find(parent[x]); }
};

constexpr size_t none = static_cast<size_t>(-1);

}  // namespace

std::vector<std::vector<size_t>> tuscan_rows(size_t m) {
  if (m < 2) return {};
  // Williams' row-complete Latin square for even k: row i is (s_j + i) mod k with
  // s = 0, 1, k-1, 2, k-2, ...; the steps between neighbours (1, -2, 3, -4, ...) are distinct
  // mod k, so every ordered pair is adjacent in exactly one row. For odd m, build it for
  // k = m + 1 and drop the extra item: pairs it separated become adjacent, so all are kept.
  size_t k = m % 2 == 0 ? m : m + 1;
  std::vector<size_t> s{0};
  for (size_t j = 1; s.size() < k; ++j) {
    s.push_back(j);
    if (s.size() < k) s.push_back(k - j);
  }
  std::vector<std::vector<size_t>> rows;
  for (size_t i = 0; i < k; ++i) {
    std::vector<size_t> row;
    for (size_t x : s)
      if ((x + i) % k < m) row.push_back((x + i) % k);
    rows.push_back(std::move(row));
  }
  return rows;
}

// Per class: its first and last test where an edge (or its Tuscan row) fixed them, and the
// class after and before it in its chain; `none` where there is none.
struct PairTracker::Chains {
  std::vector<size_t> first, last, succ, pred;
};

PairTracker::Chains PairTracker::chain_classes(std::uint64_t seed, const std::vector<const std::vector<size_t>*>& rows) const {
  size_t n = members_.size();
  Chains chains{std::vector<size_t>(n, none), std::vector<size_t>(n, none), std::vector<size_t>(n, none),
                std::vector<size_t>(n, none)};
  auto& first = chains.first;
  auto& last = chains.last;
  auto& succ = chains.succ;
  auto& pred = chains.pred;
  for (size_t c = 0; c < n; ++c)
    if (rows[c]) first[c] = rows[c]->front(), last[c] = rows[c]->back();

  // Tier 1 outweighs any tier-2 edge; within a tier: new "last before that class" (4), new
  // "first after that class" (2), new exact pair (1).
  auto score = [&](size_t a, size_t b) -> std::uint64_t {
    size_t c = class_of_[a], d = class_of_[b];
    std::uint64_t s = 4 * !last_before_[a][d] + 2 * !first_after_[c][b] + !pair_[a][b];
    return related_[c][d] ? 8 * s : s;
  };
  // The best edge from class c to class d that respects the endpoints fixed so far.
  auto best = [&](size_t c, size_t d) {
    Edge e{0, 0, c, d, none, none};
    for (size_t a : members_[c]) {
      if (last[c] != none ? a != last[c] : (members_[c].size() > 1 && a == first[c])) continue;
      for (size_t b : members_[d]) {
        if (first[d] != none ? b != first[d] : (members_[d].size() > 1 && b == last[d])) continue;
        Edge x{score(a, b), jitter(seed, a, b), c, d, a, b};
        if (e.a == none || e < x) e = x;
      }
    }
    return e;
  };

  std::priority_queue<Edge> queue;
  for (size_t c = 0; c < n; ++c)
    for (size_t d = 0; d < n; ++d)
      if (c != d)
        if (auto e = best(c, d); e.score > 0) queue.push(e);
  Dsu dsu(n);
  while (!queue.empty()) {
    Edge e = queue.top();
    queue.pop();
    size_t c = e.from_class, d = e.to_class;
    if (succ[c] != none || pred[d] != none || dsu.find(c) == dsu.find(d)) continue;
    Edge now = best(c, d);
    if (now.a != e.a || now.b != e.b || now.score != e.score) {
      if (now.score > 0) queue.push(now);  // endpoints fixed since: take its place again
      continue;
    }
    succ[c] = d, pred[d] = c, last[c] = e.a, first[d] = e.b;
    dsu.parent[dsu.find(c)] = dsu.find(d);
  }
  return chains;
}

// Inside a class: from its first to its last method, an uncovered pair at each step if
// any; among equals, the method with more uncovered pairs left to continue from.
void PairTracker::walk_class(size_t c, std::uint64_t seed, const std::vector<const std::vector<size_t>*>& rows,
                             const Chains& chains, std::vector<bool>& used, std::vector<size_t>& order) const {
  if (rows[c]) {
    order.insert(order.end(), rows[c]->begin(), rows[c]->end());
    return;
  }
  auto uncovered_out = [&](size_t x, size_t c) {
    size_t k = 0;
    for (size_t y : members_[c])
      if (y != x && !used[y] && !pair_[x][y]) ++k;
    return k;
  };
  const auto& m = members_[c];
  size_t left = m.size();
  auto pick = [&](std::optional<size_t> from) {
    size_t chosen = none;
    std::tuple<bool, size_t, std::uint64_t> key_best{};
    for (size_t x : m) {
      if (used[x] || (x == chains.last[c] && left > 1)) continue;
      std::tuple<bool, size_t, std::uint64_t> key{from ? !pair_[*from][x] : true, uncovered_out(x, c),
                                                  jitter(seed, from.value_or(x), x)};
      if (chosen == none || key_best < key) chosen = x, key_best = key;
    }
    return chosen;
  };
  size_t cur = chains.first[c] != none ? chains.first[c] : pick(std::nullopt);
  for (;;) {
    used[cur] = true;
    order.push_back(cur);
    if (--left == 0) break;
    cur = pick(cur);
  }
}

std::vector<size_t> PairTracker::build_order(std::uint64_t seed, const std::vector<const std::vector<size_t>*>& rows) const {
  const Chains chains = chain_classes(seed, rows);
  size_t n = members_.size();

  // Chains in a seeded order.
  std::vector<size_t> heads;
  for (size_t c = 0; c < n; ++c)
    if (chains.pred[c] == none) heads.push_back(c);
  Rng rng(seed);
  for (size_t i = heads.size(); i > 1; --i) std::swap(heads[i - 1], heads[rng.below(i)]);

  std::vector<size_t> order;
  order.reserve(tests_.size());
  std::vector<bool> used(tests_.size(), false);
  for (size_t h : heads)
    for (size_t c = h; c != none; c = chains.succ[c]) walk_class(c, seed, rows, chains, used, order);
  return order;
}

std::vector<std::vector<std::string>> PairTracker::next_orders(std::uint64_t seed, int max) {
  if (rows_.empty()) {
    // Each class's Tuscan rows over its methods, relabelled by a seeded shuffle.
    Rng rng(seed ^ 0x7475736361ULL);
    for (const auto& m : members_) {
      auto methods = m;
      for (size_t i = methods.size(); i > 1; --i) std::swap(methods[i - 1], methods[rng.below(i)]);
      auto& rows = rows_.emplace_back(tuscan_rows(methods.size()));
      for (auto& row : rows)
        for (auto& x : row) x = methods[x];
    }
    next_row_.assign(members_.size(), 0);
  }
  std::vector<std::vector<std::string>> out;
  for (int k = 0; k < max && !complete(); ++k) {
    std::vector<const std::vector<size_t>*> rows(members_.size(), nullptr);
    for (size_t c = 0; c < members_.size(); ++c)
      if (next_row_[c] < rows_[c].size()) rows[c] = &rows_[c][next_row_[c]++];
    auto indices = build_order(order_seed(seed ^ 0x70616972ULL, static_cast<int>(orders_built_++)), rows);
    std::vector<std::string> order;
    order.reserve(indices.size());
    for (size_t i : indices) order.push_back(tests_[i]);
    if (add(order) == 0) break;  // cannot happen while pairs are uncovered; guards the loop
    out.push_back(std::move(order));
  }
  return out;
}

}  // namespace flakescan::order
