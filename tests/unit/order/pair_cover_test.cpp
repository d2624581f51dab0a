#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "order/orders.hpp"
#include "order/pair_cover.hpp"
#include "support/order/order_checks.hpp"

using namespace flakescan::order;

namespace {
using flakescan::testing::classes_contiguous;

// `classes` classes of `methods` methods, class c in package "p<c % packages>".
std::vector<std::string> suite(int classes, int methods, int packages = 1) {
  std::vector<std::string> out;
  for (int c = 0; c < classes; ++c)
    for (int m = 0; m < methods; ++m)
      out.push_back("p" + std::to_string(c % packages) + ".C" + std::to_string(c) + "#m" + std::to_string(m));
  return out;
}

// Ordered pairs made consecutive by `orders`.
std::set<std::pair<std::string, std::string>> consecutive(const std::vector<std::vector<std::string>>& orders) {
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& o : orders)
    for (size_t i = 1; i < o.size(); ++i) out.emplace(o[i - 1], o[i]);
  return out;
}

}  // namespace

TEST_CASE("Tuscan rows make every ordered pair adjacent: m rows for even m, m + 1 for odd", "[order][pair_cover]") {
  CHECK(tuscan_rows(0).empty());
  CHECK(tuscan_rows(1).empty());
  for (size_t m = 2; m <= 13; ++m) {
    INFO("m = " << m);
    auto rows = tuscan_rows(m);
    CHECK(rows.size() == (m % 2 == 0 ? m : m + 1));
    std::set<std::pair<size_t, size_t>> adjacent;
    for (const auto& r : rows) {
      std::vector<size_t> sorted = r;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; i < m; ++i) REQUIRE(sorted[i] == i);  // a permutation of 0..m-1
      for (size_t i = 1; i < r.size(); ++i) adjacent.emplace(r[i - 1], r[i]);
    }
    CHECK(adjacent.size() == m * (m - 1));
  }
}

TEST_CASE("coverage orders make every pair allowed under class grouping consecutive", "[order][pair_cover]") {
  for (auto [classes, methods] : std::vector<std::pair<int, int>>{{1, 5}, {3, 3}, {4, 2}, {5, 1}, {2, 6}}) {
    INFO(classes << " classes of " << methods << " methods");
    auto tests = suite(classes, methods);
    PairTracker tracker(tests, same_package);
    auto orders = tracker.next_orders(9, 10000);
    CHECK(tracker.complete());
    for (const auto& o : orders) {
      CHECK(std::is_permutation(o.begin(), o.end(), tests.begin(), tests.end()));
      CHECK(classes_contiguous(o));
    }
    // Same class: any two methods; different classes: any method last, any first of the next.
    auto seen = consecutive(orders);
    for (const auto& a : tests)
      for (const auto& b : tests)
        if (a != b) CHECK(seen.count({a, b}) == 1);
    auto c = tracker.coverage();
    CHECK(c.total == tests.size() * (tests.size() - 1));
    CHECK(c.covered == c.total);
  }
}

TEST_CASE("coverage orders depend only on the tests and the seed", "[order][pair_cover]") {
  auto tests = suite(6, 4, 2);
  PairTracker a(tests, same_package), b(tests, same_package), c(tests, same_package);
  auto first = a.next_orders(42, 8);
  CHECK(first == b.next_orders(42, 8));
  CHECK(first != c.next_orders(43, 8));
  CHECK(first.size() == 8);
}

TEST_CASE("number of coverage orders: Tuscan for one class, near n*m*m for n classes of m", "[order][pair_cover]") {
  // One class of m methods: m orders for even m, m + 1 for odd (a Tuscan square has m rows
  // except for m = 3 and 5; Williams' construction needs m + 1 for every odd m).
  for (int m = 2; m <= 10; ++m) {
    INFO("one class of " << m);
    PairTracker t(suite(1, m), same_package);
    CHECK(t.next_orders(1, 1000).size() == static_cast<size_t>(m % 2 == 0 ? m : m + 1));
  }
  // n classes of m: each order makes n - 1 of the n(n-1)m^2 cross-class pairs consecutive,
  // so n*m*m orders at least; the greedy stays within 15% of that.
  for (auto [n, m] : std::vector<std::pair<int, int>>{{3, 3}, {4, 4}, {5, 2}, {6, 3}, {10, 1}, {10, 2}, {10, 5}}) {
    INFO(n << " classes of " << m);
    PairTracker t(suite(n, m), same_package);
    auto count = t.next_orders(3, 100000).size();
    CHECK(t.complete());
    CHECK(count >= static_cast<size_t>(n * m * m));
    CHECK(count <= static_cast<size_t>(n * m * m * 115 / 100 + 2));
  }
}

TEST_CASE("related classes' pairs come first: a polluter hidden by its class's reset is reached early",
          "[order][pair_cover]") {
  // pkg.session: P has 6 methods and resets the state before each, V is its victim; ten
  // unrelated classes of 3 methods elsewhere. The victim fails only when P's polluter is the
  // last of P and V comes right after: pair (P#mK, V#v) for the one K. Every such pair is
  // consecutive within 7 orders, whichever K it is; random shuffles need about 6*13 orders
  // on average for one given K.
  std::vector<std::string> tests;
  for (int c = 0; c < 10; ++c)
    for (int m = 0; m < 3; ++m) tests.push_back("other.C" + std::to_string(c) + "#m" + std::to_string(m));
  for (int m = 0; m < 6; ++m) tests.push_back("pkg.session.P#m" + std::to_string(m));
  tests.push_back("pkg.session.V#v");
  for (std::uint64_t seed : {1ULL, 2ULL, 77ULL}) {
    INFO("seed " << seed);
    PairTracker t(tests, same_package);
    auto orders = t.next_orders(seed, 7);
    auto seen = consecutive(orders);
    for (int m = 0; m < 6; ++m) CHECK(seen.count({"pkg.session.P#m" + std::to_string(m), "pkg.session.V#v"}) == 1);
    auto c = t.coverage();
    CHECK(c.related_covered > 0);
    CHECK(c.covered < c.total);
  }
}

TEST_CASE("the tracker counts the pairs an order made consecutive", "[order][pair_cover]") {
  std::vector<std::string> tests{"p.A#1", "p.A#2", "p.B#1", "q.C#1"};
  PairTracker t(tests, same_package);
  CHECK(t.coverage().total == 12);
  // Related: A's two inner pairs, and A-B both ways (2 * 2 * 1); C relates to nothing else.
  CHECK(t.coverage().related_total == 6);
  CHECK(t.add({"p.A#1", "p.A#2", "p.B#1", "q.C#1"}) == 3);
  CHECK(t.add({"p.A#1", "p.A#2", "x.Unknown#t", "p.B#1"}) == 0);  // an unknown test breaks the chain
  CHECK(t.coverage().covered == 3);
  CHECK(t.coverage().related_covered == 2);
  CHECK_FALSE(t.complete());
}

TEST_CASE("same_package compares what comes before the class's simple name", "[order][pair_cover]") {
  CHECK(same_package("a.b.X", "a.b.Y"));
  CHECK_FALSE(same_package("a.b.X", "a.b.c.Y"));
  CHECK(same_package("X", "Y"));
  CHECK(package_of("a.b.X") == "a.b");
}
