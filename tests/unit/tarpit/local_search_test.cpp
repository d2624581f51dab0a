#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "tarpit/local_search.hpp"

using namespace flakescan::tarpit;

namespace {
std::uint64_t lcg(std::uint64_t& s) {
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return s >> 33;
}
}  // namespace

TEST_CASE("per-action score: a hand-checked sequence", "[tarpit][local]") {
  // groups: 0 1 2 3 3 3 3 4 -> best is [3, 6] with 1 group over 4 actions (0.25).
  std::vector<std::uint32_t> g{0, 1, 2, 3, 3, 3, 3, 4};
  auto r = min_distinct_per_action(g, 5);
  REQUIRE(r);
  CHECK(r->l == 3);
  CHECK(r->r == 6);
  CHECK(r->distinct == 1);
  CHECK(r->weight == 4);
}

TEST_CASE("per-action score: ties keep the lexicographically first interval", "[tarpit][local]") {
  // [0,1] and [3,4] both score 1/2; VET's loops find [0,1] first.
  std::vector<std::uint32_t> g{5, 5, 1, 7, 7};
  auto r = min_distinct_per_action(g, 8);
  REQUIRE(r);
  CHECK(r->l == 0);
  CHECK(r->r == 1);
  // All distinct: every interval scores 1, the first is [0, 0].
  std::vector<std::uint32_t> d{0, 1, 2};
  auto s = min_distinct_per_action(d, 3);
  REQUIRE(s);
  CHECK(s->l == 0);
  CHECK(s->r == 0);
}

TEST_CASE("per-action score: the fast search agrees with VET's O(n^2) loops", "[tarpit][local]") {
  std::uint64_t seed = 42;
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + lcg(seed) % 60, groups = 1 + lcg(seed) % 8;
    std::vector<std::uint32_t> g(n);
    for (auto& x : g) x = std::uint32_t(lcg(seed) % groups);
    auto fast = min_distinct_per_action(g, groups);
    auto brute = brute_min_distinct_per_action(g, groups);
    REQUIRE(fast);
    REQUIRE(brute);
    INFO("round " << round);
    CHECK(fast->l == brute->l);
    CHECK(fast->r == brute->r);
    CHECK(fast->distinct == brute->distinct);
  }
}

TEST_CASE("per-time score: the fast search agrees with the O(n^2) loops", "[tarpit][local]") {
  std::uint64_t seed = 7;
  for (int round = 0; round < 300; ++round) {
    const std::size_t n = 1 + lcg(seed) % 60, groups = 1 + lcg(seed) % 8;
    std::vector<std::uint32_t> g(n);
    std::vector<std::int64_t> w(n);
    std::int64_t t = 0;
    for (std::size_t k = 0; k < n; ++k) {
      g[k] = std::uint32_t(lcg(seed) % groups);
      t += 1 + std::int64_t(lcg(seed) % 5);
      w[k] = t;
    }
    const std::int64_t min_w = 1 + std::int64_t(lcg(seed) % 40);
    auto fast = min_distinct_per_time(g, w, min_w, groups);
    auto brute = brute_min_distinct_per_time(g, w, min_w, groups);
    INFO("round " << round);
    REQUIRE(bool(fast) == bool(brute));
    if (!fast) continue;
    CHECK(fast->l == brute->l);
    CHECK(fast->r == brute->r);
    CHECK(fast->weight >= min_w);
  }
}

TEST_CASE("per-time score: intervals shorter than the minimum are never chosen", "[tarpit][local]") {
  // One group stuck for 5 time units, then a long varied stretch; minimum span 10.
  std::vector<std::uint32_t> g{0, 0, 0, 1, 2, 3, 1, 2, 3, 1};
  std::vector<std::int64_t> w{0, 1, 5, 6, 7, 8, 20, 21, 22, 40};
  auto r = min_distinct_per_time(g, w, 10, 4);
  REQUIRE(r);
  CHECK(r->weight >= 10);
  auto none = min_distinct_per_time(g, w, 100, 4);
  CHECK_FALSE(none);
}
