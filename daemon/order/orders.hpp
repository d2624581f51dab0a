#pragma once
// Test orders for order-dependence detection (ALGORITHMS.md section 3): the project's
// original order, its reverse, and seeded random orders that shuffle the classes and then
// the methods within each class, so that each class stays contiguous (JUnit runs a class's
// @BeforeClass/@AfterClass around a contiguous group). An order depends only on its seed:
// the generator is our own splitmix64 with rejection sampling, not std:: distributions,
// whose results differ between standard libraries.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// Classes shuffled, then methods within each class shuffled, both from `seed`.
std::vector<std::string> random_order(const std::vector<std::string>& tests, std::uint64_t seed);

// The seed of the index-th random order of a scan: distinct, reproducible streams.
std::uint64_t order_seed(std::uint64_t scan_seed, int index);

struct PlannedOrder {
  std::vector<std::string> tests;
  std::string purpose;     // "original order", "reverse order", "random order 3"
  std::uint64_t seed = 0;  // 0 for original and reverse
};

// `count` orders: original, reverse, then random orders (fewer when count < 2). Random
// orders that repeat an earlier order (small suites) are skipped, so fewer may come back.
std::vector<PlannedOrder> plan_orders(const std::vector<std::string>& tests, std::uint64_t seed, int count);

}  // namespace flakescan::order
