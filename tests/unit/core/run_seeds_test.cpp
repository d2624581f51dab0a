#include <catch2/catch.hpp>

#include "core/run_seeds.hpp"

using flakescan::core::run_seeds;

TEST_CASE("run seeds: the same on every machine for one scan seed, never 0, more extend the list", "[core][seeds]") {
  // Pinned: verdict files and CI logs name these seeds, and replays find runs by them.
  CHECK(run_seeds(1, 3) == std::vector<std::uint64_t>{237081956948465ull, 70134298016602ull, 130692307971890ull});
  // Technique threads salts the scan seed: its first schedules of a scan with seed 1.
  CHECK(run_seeds(1 ^ 0x7468726561647321ull, 2) == std::vector<std::uint64_t>{50996115312526ull, 18380713049439ull});
  auto many = run_seeds(7, 50);
  CHECK(std::vector<std::uint64_t>(many.begin(), many.begin() + 5) == run_seeds(7, 5));
  for (auto s : many) {
    CHECK(s != 0);
    CHECK(s < (1ull << 48));
  }
}
