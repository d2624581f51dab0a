#pragma once
// Orders that cover consecutive test pairs under JUnit's class grouping (docs/order.md;
// Wei et al. TACAS 2021, Li et al. ISSTA 2023).
//
// Policy. A test that depends on one other test fails (or passes) only when that test ran
// right before it, or before it with nothing in between that resets the state. So instead of
// hoping that random shuffles put the pair together, each order is built to make pairs
// consecutive that no earlier order did. Under class grouping (a class's methods run as one
// block), a pair (a, b) can be consecutive when a and b share a class, or when a is the last
// method of its class and b the first of the next class; so every ordered pair of distinct
// tests is allowed, N(N-1) pairs for N tests. Each order makes N-1 of them consecutive, so
// full coverage needs at least N orders and, for n classes of m methods, at least n*m*m; far
// more than a scan's budget. Hence the priorities, in this order:
//   1. pairs whose classes are related (likely to share static state; see RelatedFn), and
//      pairs inside one class (a class's methods share its fields);
//   2. within a tier, a cross-class edge that puts a method *last* of its class right before
//      a class that has not yet followed it (the shape of a polluter whose class resets the
//      state in @Before), then one that puts a method *first* after a new class, then the
//      exact pair.
//
// Construction (greedy, chosen over Tuscan squares): a Tuscan square covers the pairs of one
// set of items in n rows, but here the items are grouped, the cross-class pairs need the
// right method last and first, and the pairs are weighted; no square fits that. Each order is
// built greedily instead: (1) classes are linked into chains by the best-scoring
// cross-class edges (last method of C1 -> first method of C2), highest first, as long as
// each class keeps one successor and one predecessor and no cycle forms (the greedy edge
// choice of path covers); the chains are then joined in a seeded order; (2) inside each
// class a greedy walk from its chosen first method to its chosen last method takes an
// uncovered pair at each step where it can. Ties are broken by a seeded engine (order::Rng),
// so the orders depend only on the tests, the relation and the seed. On one class of m
// methods the walk needs m orders for m = 2..8 except 3 and 5 (m + 1), as Tuscan squares do.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace flakescan::order {

// Whether two (distinct) test classes are likely to share static state.
using RelatedFn = std::function<bool(std::string_view class_a, std::string_view class_b)>;

// First version of "share static state": same package. Nothing in flakescan reads which
// static fields a class touches yet; test classes of one package usually exercise the same
// production classes.
bool same_package(std::string_view class_a, std::string_view class_b);

struct PairCoverage {
  std::uint64_t covered = 0, total = 0;                  // all allowed pairs: N(N-1)
  std::uint64_t related_covered = 0, related_total = 0;  // tier 1: same class or related classes
};

// Which allowed pairs the orders seen so far made consecutive.
class PairTracker {
 public:
  // `tests`: distinct method ids ("pkg.Class#method").
  PairTracker(const std::vector<std::string>& tests, RelatedFn related);

  // Marks the consecutive pairs of `order` (tests unknown to the tracker are skipped, and
  // break the chain). Returns how many pairs were new.
  std::uint64_t add(const std::vector<std::string>& order);
  PairCoverage coverage() const { return coverage_; }
  bool complete() const { return coverage_.covered == coverage_.total; }

  // Up to `max` more orders, each covering as many uncovered pairs as the greedy finds,
  // priorities as above; stops early once every pair is covered. The orders are added.
  std::vector<std::vector<std::string>> next_orders(std::uint64_t seed, int max);

 private:
  // `rows`: per class, the Tuscan row it runs in this order (fixes its first and last
  // method), or nullptr once its rows are spent (then the greedy walk).
  std::vector<size_t> build_order(std::uint64_t seed, const std::vector<const std::vector<size_t>*>& rows) const;
  // The classes joined into chains by the best edges between them (pair_cover.cpp).
  struct Chains;
  Chains chain_classes(std::uint64_t seed, const std::vector<const std::vector<size_t>*>& rows) const;
  void walk_class(size_t c, std::uint64_t seed, const std::vector<const std::vector<size_t>*>& rows, const Chains& chains,
                  std::vector<bool>& used, std::vector<size_t>& order) const;
  void mark(size_t a, size_t b);

  std::vector<std::string> tests_;
  std::vector<size_t> class_of_;                  // test -> class index
  std::vector<std::vector<size_t>> members_;      // class -> tests
  std::vector<std::vector<bool>> related_;        // class x class
  std::vector<std::vector<bool>> pair_;           // test x test: covered
  std::vector<std::vector<bool>> last_before_;    // test x class: test ran last right before class
  std::vector<std::vector<bool>> first_after_;    // class x test: test ran first right after class
  std::vector<std::vector<std::vector<size_t>>> rows_;  // class -> Tuscan rows (test indices)
  std::vector<size_t> next_row_;
  size_t orders_built_ = 0;
  PairCoverage coverage_;
};

// Rows of a Tuscan square over 0..m-1: permutations in which every ordered pair of distinct
// items is adjacent somewhere; m rows for even m, m + 1 for odd m (Williams' construction,
// one item dropped), none for m < 2.
std::vector<std::vector<size_t>> tuscan_rows(size_t m);

// "a.b.Cls" -> "a.b" (empty for the default package).
std::string_view package_of(std::string_view class_name);

}  // namespace flakescan::order
