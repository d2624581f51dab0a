#include <catch2/catch.hpp>

#include <vector>

#include "tarpit/partition.hpp"

using namespace flakescan::tarpit;

namespace {
std::vector<std::int64_t> steps(std::size_t n) {
  std::vector<std::int64_t> t(n);
  for (std::size_t k = 0; k < n; ++k) t[k] = std::int64_t(k);
  return t;
}
}  // namespace

TEST_CASE("partition: a switch to a small unseen area is found at the last screen before it", "[tarpit][partition]") {
  // 0 1 2 3 0 1 2 3 | 4 5 4 5 4 5 4 5, one per time unit, window 5.
  std::vector<std::uint32_t> s{0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 4, 5, 4, 5, 4, 5};
  auto p = find_partition(s, steps(s.size()), 5, 6);
  REQUIRE(p);
  CHECK(p->split == 7);          // c2 = 0 (no revisits), c3 = 2*sigmoid(2/2 - 1) - 1 = 0
  CHECK(p->score == 0.0);
  CHECK(p->distinct_before == 4);
  CHECK(p->distinct_after == 2);
  CHECK(p->accepted);
}

TEST_CASE("partition: rejected when the after-part explores more than the before-part", "[tarpit][partition]") {
  // Window 5: split points t <= 4; U_end = {0,1,2,3}. Best is i = 0 (c2 = 1/9, c3 = 0) but
  // distinct(before) = 1 < distinct(after) = 4.
  std::vector<std::uint32_t> s{0, 1, 2, 3, 2, 1, 0, 1, 2, 3};
  auto p = find_partition(s, steps(s.size()), 5, 4);
  REQUIRE(p);
  CHECK(p->split == 0);
  CHECK(p->c2 == Approx(1.0 / 9));
  CHECK(p->c3 == 0.0);
  CHECK_FALSE(p->accepted);
}

TEST_CASE("partition: VET's end-window quirk reports the last split of an all-new trace", "[tarpit][partition]") {
  // Every screen new. U_end counts screens at t >= t_last - window, which includes the split
  // screen itself, so at the last split distinct(after) < |U_end| and c3 < 0.
  std::vector<std::uint32_t> s{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto p = find_partition(s, steps(s.size()), 3, 10);
  REQUIRE(p);
  CHECK(p->split == 6);
  CHECK(p->score < 0);
  CHECK(p->accepted);
}

TEST_CASE("partition: no split point in a trace shorter than the window", "[tarpit][partition]") {
  std::vector<std::uint32_t> s{0, 1, 0};
  std::vector<std::int64_t> t{0, 1, 2};
  CHECK_FALSE(find_partition(s, t, 10, 2));
}
