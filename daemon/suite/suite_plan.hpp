#pragma once
// The plan of a whole-suite scan (technique `suite`), pure and seeded: which order each round
// runs the suite in, how a round is split over JVMs, and how many rounds a budget allows.
//
// Rounds: 0 the project's original order, 1 its reverse, 2 the original order with every test
// run twice in a row (a non-idempotent test fails its second run), then, alternating, the
// pair-coverage orders of technique `order` (order::plan_orders: each runs pairs of tests in a
// row that no earlier order did, related classes first; once every pair has run in a row,
// shuffles take their place) and shuffles: the classes shuffled (methods in their original
// order), or the classes and the methods within each class shuffled. When the caller knows which
// tests change static state (`writers`, classfile/static_writers.hpp), round 6 (the first of the
// classes shuffled, methods in their order) puts those tests last in their class: what they leave behind then reaches the next
// classes instead of being reset by their own class's later tests (a class whose @Before resets
// a factory hides its polluter unless the polluter runs last in it). A class always stays
// contiguous, as JUnit runs it. The same rounds
// serve as reruns (every test runs in every round), as order detection (each round is a new
// order) and as the NIO check.
//
// Shards: a round is split by class over `shards` JVMs (round-robin over the round's class
// sequence, so each shard keeps the round's relative order).
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace flakescan::suite {

struct Round {
  int index = 0;
  std::string kind;                                 // "original", "reverse", "each test twice", "shuffled classes", ...
  std::uint64_t seed = 0;                           // 0 for original and reverse
  bool shuffled = false;                            // on the shuffling JDK, under `seed` (original order)
  std::vector<std::vector<std::string>> shards;     // one JVM each
};

Round plan_round(const std::vector<std::string>& tests, int index, std::uint64_t scan_seed, int shards,
                 const std::set<std::string>& writers = {});
// Rounds 0..count-1, the same as plan_round gives one by one; the pair-coverage orders, each of
// which builds on the ones before it, are made once for all of them.
std::vector<Round> plan_rounds(const std::vector<std::string>& tests, int count, std::uint64_t scan_seed, int shards,
                               const std::set<std::string>& writers = {});

// A round on the shuffling JDK (technique shuffle) under `seed`, in the original order: a test
// whose outcome changes there changes it for an unspecified order of the JDK's, not for the
// order of the tests. One JVM.
Round plan_shuffled_round(const std::vector<std::string>& tests, int index, std::uint64_t seed);

// Repeats of the tests that create threads. A test that constructed a thread while it ran in a
// round (core::TestResult::threads_created) may depend on how its threads are scheduled, and
// such a test fails more often the busier the cores are: in the rounds, where every core runs a
// round, more than alone. So in the rounds after the one that showed it, each such test runs
// `times` times in a row where it would run once, in the round's order, under the rounds' load.
// `times` is `most`, or less while the repeats would add more than `share` of a round's time
// (`round_ms`, the durations of one round's tests) from the tests' durations in the rounds
// (`creators_ms`, one execution each). When even two executions of every one of them would,
// the slowest are left out: the quickest that fit repeat, `most` times or as often as they fit
// (marine-api's thread test of 600 ms, in a round of 860, had kept every other from repeating);
// 1 (no repeats) when not one fits twice. The same for the tests that draw a random number or
// read the clock (suite_rounds.cpp, RepeatedTests), `why` saying which they are.
struct ThreadRepeats {
  std::set<std::string> tests;
  int times = 1;
  std::string why = "that created threads";
};
ThreadRepeats thread_repeats(const std::map<std::string, double>& creators_ms, double round_ms, int most, double share);
// `round` with each of r.tests run r.times times in a row where it ran once (kind says so).
Round with_thread_repeats(Round round, const ThreadRepeats& r);

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

// The order a suspect's isolation starts from, narrowed by the rounds. A victim's polluters (or
// a brittle test's state-setters) came before it in every round where it failed (passed): so
// of the tests before it in `pick` (one such round), keep those that came before it in every
// round of `rounds` (the rounds with the same outcome), in pick's order, then the suspect.
// With one polluter and a few shuffled rounds, what is left is the polluter and a handful of
// bystanders instead of the thousands of tests of a whole-suite prefix. The caller checks
// that the narrowed order still gives the outcome and falls back to pick's whole prefix when
// it does not (two polluters that each suffice, or a cleaner in every other round).
struct Occurrence {
  const std::vector<std::string>* order = nullptr;  // a round's tests, in the order they ran
  size_t pos = 0;                                   // the suspect's position there
};
std::vector<std::string> narrowed_order(const std::vector<Occurrence>& rounds, const Occurrence& pick,
                                        const std::string& suspect);

// Narrows a narrowed order further with the rounds of the other outcome: drops each test that
// came before the suspect in one of `other` (the rounds where it passed, for a victim; where
// it failed, for a brittle test). A polluter that suffices alone came before it in no round
// it passed in, unless a cleaner ran between them, so with one such polluter what is left
// still holds it, usually with no bystander. Polluters that only together suffice, or a
// cleaner, can take it out: the caller runs the order to see, and goes on to `narrowed` when
// it does not give the outcome.
std::vector<std::string> without_tests_before_other_outcome(const std::vector<std::string>& narrowed,
                                                            const std::vector<Occurrence>& other,
                                                            const std::string& suspect);

}  // namespace flakescan::suite
