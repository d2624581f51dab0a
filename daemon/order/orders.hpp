#pragma once
// Test orders for order-dependence detection (docs/order.md): the
// project's original order, its reverse, orders that cover consecutive test pairs
// (pair_cover.hpp), and once those are spent seeded random orders that shuffle the classes
// and then the methods within each class. Every order keeps each class contiguous (JUnit
// runs a class's @BeforeClass/@AfterClass around a contiguous group). A random order depends
// only on its seed:
// the generator is our own splitmix64 with rejection sampling, not std:: distributions,
// whose results differ between standard libraries.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "order/pair_cover.hpp"

namespace flakescan::order {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform in [0, n); n > 0.
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t state_;
};

// "pkg.Class#method" -> "pkg.Class".
std::string_view class_of(std::string_view test_id);

// Classes in order of first appearance, each with its methods in input order.
std::vector<std::vector<std::string>> group_by_class(const std::vector<std::string>& tests);

std::vector<std::string> reversed_order(const std::vector<std::string>& tests);

// The tests with repeats removed, each at its first place.
std::vector<std::string> unique_in_order(const std::vector<std::string>& tests);

// Classes shuffled, then methods within each class shuffled, both from `seed`.
std::vector<std::string> random_order(const std::vector<std::string>& tests, std::uint64_t seed);

// The seed of the index-th random order of a scan: distinct, reproducible streams.
std::uint64_t order_seed(std::uint64_t scan_seed, int index);

struct PlannedOrder {
  std::vector<std::string> tests;
  std::string purpose;     // "original order", "reverse order", "pair coverage order 1", "random order 3"
  std::uint64_t seed = 0;  // random orders only (they replay from it)
};

// `count` orders: original, reverse, then pair-coverage orders (related classes' pairs
// first, see pair_cover.hpp) until every consecutive pair is covered, then random orders
// (fewer when count < 2). Orders that repeat an earlier order (small suites) are skipped,
// so fewer may come back. `related` = nullptr: no class pair is preferred.
std::vector<PlannedOrder> plan_orders(const std::vector<std::string>& tests, std::uint64_t seed, int count,
                                      const RelatedFn& related = {});

// How many detection orders a scan makes when its budget does not say (Budget::max_orders
// 0): 10, or twice the Tuscan rows of the largest class when that is more (its m methods need
// m or m + 1 orders before every method has been last of the class once; a polluter whose
// class resets the state in @Before pollutes only from there), at most 100 (Li et al.
// ISSTA 2023 needed 104.7 orders on average for 97.2% of their OD tests).
int default_order_count(const std::vector<std::string>& tests);

}  // namespace flakescan::order
