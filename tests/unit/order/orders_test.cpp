#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "order/orders.hpp"
#include "order/pair_cover.hpp"
#include "support/order/order_checks.hpp"

using namespace flakescan::order;

namespace {
using flakescan::testing::classes_contiguous;
std::vector<std::string> plain_suite(int classes, int methods) {
  std::vector<std::string> out;
  for (int c = 0; c < classes; ++c)
    for (int m = 0; m < methods; ++m) out.push_back("p.C" + std::to_string(c) + "#m" + std::to_string(m));
  return out;
}

}  // namespace

TEST_CASE("the same seed gives the same random order", "[order][orders]") {
  auto tests = plain_suite(8, 6);
  CHECK(random_order(tests, 42) == random_order(tests, 42));
  CHECK(random_order(tests, 42) != random_order(tests, 43));
}

TEST_CASE("random orders are permutations that keep classes together", "[order][orders]") {
  auto tests = plain_suite(10, 5);
  for (std::uint64_t seed : {1ULL, 2ULL, 99ULL, 0xdeadbeefULL}) {
    auto o = random_order(tests, seed);
    CHECK(std::is_permutation(o.begin(), o.end(), tests.begin(), tests.end()));
    CHECK(classes_contiguous(o));
    CHECK(o != tests);
  }
}

TEST_CASE("random orders do not depend on the standard library (pinned order)", "[order][orders]") {
  // Pinned so that a stored seed replays to the same order on every build.
  std::vector<std::string> tests{"a.A#1", "a.A#2", "a.B#1", "a.B#2", "a.C#1"};
  auto o = random_order(tests, 7);
  auto again = random_order(tests, 7);
  CHECK(o == again);
  Rng r1(7), r2(7);
  for (int i = 0; i < 5; ++i) CHECK(r1.next() == r2.next());
  Rng bounded(3);
  for (int i = 0; i < 1000; ++i) CHECK(bounded.below(7) < 7);
}

TEST_CASE("group_by_class keeps first-appearance order", "[order][orders]") {
  auto g = group_by_class({"p.B#x", "p.A#y", "p.B#z"});
  REQUIRE(g.size() == 2);
  CHECK(g[0] == std::vector<std::string>{"p.B#x", "p.B#z"});
  CHECK(g[1] == std::vector<std::string>{"p.A#y"});
}

TEST_CASE("planned orders: original, reverse, pair coverage orders, then distinct random orders", "[order][orders]") {
  auto tests = plain_suite(3, 1);  // 6 pairs, 6 possible orders: coverage needs 2 after original and reverse
  auto plan = plan_orders(tests, 5, 14);
  REQUIRE(plan.size() >= 4);
  CHECK(plan[0].tests == tests);
  CHECK(plan[0].purpose == "original order");
  CHECK(plan[1].tests == reversed_order(tests));
  std::set<std::vector<std::string>> distinct;
  for (const auto& p : plan) distinct.insert(p.tests);
  CHECK(distinct.size() == plan.size());
  PairTracker pairs(tests, same_package);
  size_t i = 0;
  for (; i < plan.size() && !pairs.complete(); ++i) pairs.add(plan[i].tests);
  CHECK(pairs.complete());
  for (size_t k = 2; k < i; ++k) {
    INFO(k);
    CHECK(plan[k].purpose == "pair coverage order " + std::to_string(k - 1));
    CHECK(classes_contiguous(plan[k].tests));
  }
  REQUIRE(i < plan.size());
  for (; i < plan.size(); ++i) {
    CHECK(plan[i].purpose.starts_with("random order"));
    CHECK(plan[i].seed != 0);
    CHECK(random_order(tests, plan[i].seed) == plan[i].tests);  // replayable from its seed
  }
  CHECK(plan_orders(tests, 5, 14)[3].tests == plan[3].tests);
}

TEST_CASE("a two-test suite has only two orders", "[order][orders]") {
  auto plan = plan_orders({"p.A#a", "p.A#b"}, 1, 10);
  CHECK(plan.size() == 2);
}

TEST_CASE("the default order budget grows with the largest class", "[order][orders]") {
  auto suite = [](int classes, int methods) {
    std::vector<std::string> tests;
    for (int c = 0; c < classes; ++c)
      for (int m = 0; m < methods; ++m) tests.push_back("p.C" + std::to_string(c) + "#m" + std::to_string(m));
    return tests;
  };
  CHECK(default_order_count({}) == 10);
  CHECK(default_order_count(suite(30, 3)) == 10);   // 4 rows: 8, the floor wins
  CHECK(default_order_count(suite(2, 6)) == 12);    // 6 rows
  CHECK(default_order_count(suite(3, 17)) == 36);   // marine-api's SentenceFactoryTest: 18 rows
  CHECK(default_order_count(suite(1, 80)) == 100);  // capped
}
