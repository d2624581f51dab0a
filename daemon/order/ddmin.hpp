#pragma once
// Delta debugging (Zeller and Hildebrandt's ddmin) over candidate indices 0..n-1, used to
// find the minimal polluters of a victim and the minimal state-setters of a brittle
// (iFixFlakies). The probe answers "does this subset, kept in its original relative order,
// still reproduce the outcome?"; each answer is a real run (or a cached one) owned by the
// caller. Precondition: the full set reproduces. The result is 1-minimal: removing any one
// element stops reproducing (as far as the probe is deterministic).
//
// A probe may fail (budget exhausted, cancelled); ddmin then stops and returns the smallest
// set known to reproduce so far with `complete` false and the error.
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "util/error.hpp"

namespace flakescan::order {

using Probe = std::function<util::Result<bool>(const std::vector<size_t>& subset)>;

struct Minimised {
  std::vector<size_t> items;          // ascending indices, known to reproduce
  int probes = 0;                     // how many times the probe was asked
  bool complete = true;               // false: stopped early, items may not be minimal
  std::optional<util::Error> stopped; // why it stopped early
};

Minimised ddmin(size_t n, const Probe& probe);

}  // namespace flakescan::order
