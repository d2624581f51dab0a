#pragma once
// Technique `shuffle` (docs/shuffle.md): implementation-dependent (ID) tests, the ones that
// assume an order the Java API leaves unspecified (HashMap iteration, HashSet.toString(),
// Class.getDeclaredMethods(), File.list(), ...). They pass on this JDK in every order and
// every rerun, and fail on the next JDK, another vendor or another hash seed.
//
// Per test, each run a fresh JVM:
//   1. clean: the test alone on the plain JDK. A test that fails clean is not ID (it is
//      failing, or flaky for another reason) and is not shuffled.
//   2. seeds: the test alone on the shuffling JDK under N seeds (default 3, as NonDex), derived
//      from the scan's seed. Under a seed, every call from code outside the JDK and the test
//      runner to an API with an unspecified order returns a permutation that differs from
//      the plain order (mode `full`: a new one per call; `one`: one per call site and size).
//   3. confirm: a test that failed under a seed runs once more under that seed and once more
//      clean; only when the seed fails again and clean passes again is it `flaky`, category
//      `implementation_dependent` (a test that fails at random fails under seeds too).
//   4. locate (site_location.hpp): delta debugging over the call sites the failing run
//      shuffled finds the site (or the few sites together) whose shuffle alone fails it, and
//      the first frame of it in the project's own sources.
//   5. fix (order_fix.hpp): the smallest known repairs of that line (a LinkedHashMap or
//      LinkedHashSet at the allocation, a sorted copy, collections compared as collections),
//      each compiled with javac and kept only when the test then passes clean and under every
//      seed it failed with and two new ones. Never a patch that was not verified.
// Evidence details of an ID verdict: seed, mode, seeds, failing_seeds, api, site, site_frame,
// user_frame, via, frames, located, locate_runs, sites_seen, shuffle_jdk, and when a fix
// verified: fix, patch, patch_file, verified_by_run (or fix_refused: what was tried).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::shuffle {

struct ShuffleOptions {
  bool locate = true;
  bool fix = true;
  int max_locate_runs = 24;  // per test
  int max_fixes_tried = 8;   // candidate fixes compiled and verified per test
  // Not empty: the seeds to shuffle under instead of those of the scan's seed (technique
  // `suite` hands over the seeds of the shuffled rounds a test failed in).
  std::vector<std::uint64_t> seeds;
  // Not empty: the tests a fix must not break, instead of the scan's tests that passed clean
  // (technique `suite` hands over the whole selection).
  std::vector<std::string> bystanders;
};

// The seeds a scan with seed `scan_seed` shuffles under: n of them, the same for the same scan
// seed (so a CI run's seed names its shuffles), none equal to 0.
std::vector<std::uint64_t> shuffle_seeds(std::uint64_t scan_seed, int n);

util::Result<std::vector<core::Verdict>> detect_implementation_dependent(const core::TechniqueInput& input, core::RunLog& log,
                                                                         const ShuffleOptions& options = {});

core::TechniqueFn shuffle_technique(ShuffleOptions options = {});

// Runs the test once more under the verdict's failing seed and mode (details "seed", "mode").
util::Result<core::RecordedRun> replay_shuffle(const std::string& test, const std::map<std::string, std::string>& details,
                                               core::RunLog& runs);

}  // namespace flakescan::shuffle
