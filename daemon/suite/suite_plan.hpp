#pragma once
// The plan of a whole-suite scan (technique `suite`), pure and seeded: which order each round
// runs the suite in, how a round is split over JVMs, and how many rounds a budget allows.
//
// Rounds: 0 the project's original order, 1 its reverse, 2 the original order with every test
// run twice in a row (a non-idempotent test fails its second run), then, alternating, the
// classes shuffled (methods in their original order) and the classes and the methods within
// each class shuffled. A class always stays contiguous, as JUnit runs it. The same rounds
// serve as reruns (every test runs in every round), as order detection (each round is a new
// order) and as the NIO check.
//
// Shards: a round is split by class over `shards` JVMs (round-robin over the round's class
// sequence, so each shard keeps the round's relative order).
#include <cstdint>
#include <string>
#include <vector>

namespace flakescan::suite {

struct Round {
  int index = 0;
  std::string kind;                                 // "original", "reverse", "each test twice", "shuffled classes", ...
  std::uint64_t seed = 0;                           // 0 for original and reverse
  std::vector<std::vector<std::string>> shards;     // one JVM each
};

Round plan_round(const std::vector<std::string>& tests, int index, std::uint64_t scan_seed, int shards);

// The budget's split: rounds first, isolation of suspects after. Given what one round cost
// (seconds and runs), how many of the `wanted` rounds fit while `reserve` of each budget is
// kept for the suspects' isolated runs. At least `done` (rounds already run) and at most
// `wanted`.
struct BudgetLeft {
  double seconds = 0;
  int runs = 0;
};
int rounds_that_fit(int wanted, int done, double seconds_per_round, int runs_per_round, BudgetLeft total,
                    BudgetLeft spent, double reserve);

}  // namespace flakescan::suite
