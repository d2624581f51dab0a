#include "tarpit/similarity.hpp"

#include <algorithm>
#include <numeric>

namespace flakescan::tarpit {

bool is_subsequence(std::span<const Token> a, std::span<const Token> b) {
  if (a.size() > b.size()) return false;
  std::size_t i = 0;
  for (std::size_t j = 0; j < b.size() && i < a.size(); ++j) {
    if (a[i] == b[j]) ++i;
    // Not enough of b left to match the rest of a.
    else if (b.size() - j - 1 < a.size() - i) return false;
  }
  return i == a.size();
}

std::int64_t insertion_distance(std::span<const Token> a, std::span<const Token> b) {
  auto na = static_cast<std::int64_t>(a.size()), nb = static_cast<std::int64_t>(b.size());
  return is_subsequence(a, b) ? nb - na : na + nb;
}

namespace {

// The pair test for a before b in merge order (|a| <= |b|); counts subsequence tests.
bool similar_ordered(const UniqueScreen& a, const UniqueScreen& b, const SimilarityOptions& o,
                     std::size_t& comparisons) {
  if (a.activity != b.activity) return false;
  auto na = static_cast<std::int64_t>(a.tokens.size()), nb = static_cast<std::int64_t>(b.tokens.size());
  // VET compares only pairs with 0 < |b| - |a| <= 10: equal sizes are never similar.
  if (nb <= na || nb - na > o.max_size_gap) return false;
  if (o.vet_small_screen_quirk && na + nb <= o.d_max) return true;  // |a|+|b| <= d_max either way
  if (nb - na > o.d_max) return false;
  ++comparisons;
  return is_subsequence(a.tokens, b.tokens);
}

}  // namespace

bool similar(const UniqueScreen& a, const UniqueScreen& b, const SimilarityOptions& options) {
  std::size_t unused = 0;
  if (a.tokens.size() <= b.tokens.size()) return similar_ordered(a, b, options, unused);
  return similar_ordered(b, a, options, unused);
}

Grouping merge_screens(const std::vector<UniqueScreen>& uniques, const StringPool& pool,
                       const SimilarityOptions& options) {
  Grouping g;
  const auto n = uniques.size();
  g.order.resize(n);
  std::iota(g.order.begin(), g.order.end(), 0u);
  std::sort(g.order.begin(), g.order.end(), [&](std::uint32_t x, std::uint32_t y) {
    const auto& a = uniques[x];
    const auto& b = uniques[y];
    if (a.tokens.size() != b.tokens.size()) return a.tokens.size() < b.tokens.size();
    if (a.activity != b.activity) {
      int c = pool.at(a.activity).compare(pool.at(b.activity));
      if (c != 0) return c < 0;
    }
    if (a.key != b.key) return a.key < b.key;
    return x < y;
  });
  constexpr auto none = std::uint32_t(-1);
  g.root_of.assign(n, none);
  g.group_of.assign(n, none);
  // Only screens up to max(d_max, size gap) nodes larger can join a root; the order is by
  // size first, so the candidates of position i are a contiguous run after it.
  const std::int64_t reach = std::min<std::int64_t>(options.max_size_gap, options.d_max);
  for (std::size_t i = 0; i < n; ++i) {
    const auto ui = g.order[i];
    if (g.root_of[ui] != none) continue;
    g.root_of[ui] = ui;
    g.group_of[ui] = static_cast<std::uint32_t>(g.groups++);
    const auto& a = uniques[ui];
    const auto limit = static_cast<std::int64_t>(a.tokens.size()) + std::max<std::int64_t>(reach, 0);
    for (std::size_t j = i + 1; j < n; ++j) {
      const auto uj = g.order[j];
      const auto& b = uniques[uj];
      if (static_cast<std::int64_t>(b.tokens.size()) > limit) break;
      if (g.root_of[uj] != none) continue;
      if (similar_ordered(a, b, options, g.comparisons)) {
        g.root_of[uj] = ui;
        g.group_of[uj] = g.group_of[ui];
      }
    }
  }
  return g;
}

}  // namespace flakescan::tarpit
