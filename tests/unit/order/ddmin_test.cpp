#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "order/ddmin.hpp"

using namespace flakescan;
using flakescan::order::ddmin;

namespace {
bool contains(const std::vector<size_t>& s, size_t x) { return std::find(s.begin(), s.end(), x) != s.end(); }
}

TEST_CASE("ddmin finds a single culprit in few probes", "[order][ddmin]") {
  for (size_t culprit : {0u, 17u, 63u, 99u}) {
    auto m = ddmin(100, [&](const std::vector<size_t>& s) -> util::Result<bool> { return contains(s, culprit); });
    CHECK(m.complete);
    CHECK(m.items == std::vector<size_t>{culprit});
    CHECK(m.probes <= 2 * 7 + 2);  // about two probes per halving
  }
}

TEST_CASE("ddmin keeps every element of a conjunction", "[order][ddmin]") {
  auto m = ddmin(40, [](const std::vector<size_t>& s) -> util::Result<bool> { return contains(s, 3) && contains(s, 31); });
  CHECK(m.items == std::vector<size_t>{3, 31});
}

TEST_CASE("ddmin result is 1-minimal with alternative culprits", "[order][ddmin]") {
  // Either 5 or 20 alone reproduces: one of them is enough.
  auto m = ddmin(30, [](const std::vector<size_t>& s) -> util::Result<bool> { return contains(s, 5) || contains(s, 20); });
  REQUIRE(m.items.size() == 1);
  CHECK((m.items[0] == 5 || m.items[0] == 20));
}

TEST_CASE("ddmin stops on a probe error and keeps the best set so far", "[order][ddmin]") {
  int calls = 0;
  auto m = ddmin(64, [&](const std::vector<size_t>& s) -> util::Result<bool> {
    if (++calls > 3) return util::fail(util::Errc::too_large, "budget");
    return contains(s, 50);
  });
  CHECK_FALSE(m.complete);
  REQUIRE(m.stopped);
  CHECK(m.stopped->code == util::Errc::too_large);
  CHECK(contains(m.items, 50));
  CHECK(m.items.size() < 64);
}

TEST_CASE("ddmin of one or zero candidates asks nothing", "[order][ddmin]") {
  int calls = 0;
  auto probe = [&](const std::vector<size_t>&) -> util::Result<bool> { ++calls; return true; };
  CHECK(ddmin(1, probe).items == std::vector<size_t>{0});
  CHECK(ddmin(0, probe).items.empty());
  CHECK(calls == 0);
}
