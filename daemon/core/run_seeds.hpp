#pragma once
// The seeds of a technique's seeded runs (shuffles, thread schedules), derived from the scan's
// seed: n of them, the same for the same scan seed on every machine (so a CI run's seed names
// its runs), none 0, at most 48 bits (short enough to read and type). A technique that wants
// seeds of its own mixes a constant into the scan seed first.
#include <cstdint>
#include <vector>

namespace flakescan::core {

std::vector<std::uint64_t> run_seeds(std::uint64_t scan_seed, int n);
// SplitMix64's finaliser: every bit of the input reaches every bit of the output.
std::uint64_t mix64(std::uint64_t z);

}  // namespace flakescan::core
