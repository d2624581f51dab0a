#pragma once
// The verdict records of verdicts.json (schema/verdicts.schema.json). The passing and
// failing runs named as evidence are embedded with their order and failure, so that the file
// alone explains each verdict.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run.hpp"
#include "core/run_index.hpp"
#include "core/verdict.hpp"

namespace flakescan::scan {

// Looks up a stored run by id (nullopt when it is not there).
using RunLookup = std::function<std::optional<core::RecordedRun>(std::int64_t)>;

// The strip holds at most this many runs (the first ones).
inline constexpr std::size_t max_strip_runs = 1000;

// `scan_runs`, when given, index every run of the scan in the order they ran: those that
// reached the test become evidence.run_strip (run id, the test's outcome, technique), and the
// passing and failing runs are taken from them (`lookup` reads the others from the store).
// A run embedded as passing_run or failing_run carries its `order` only when the verdict is
// flaky or failing, and then only up to and including the test: that is the evidence. The
// order of a not_flaky test's passing run explains nothing, and embedding whole orders made
// the file grow with tests x suite size (116 MB for a 2,000-test suite scan).
nlohmann::json verdict_to_json(const core::Verdict& verdict, const RunLookup& lookup,
                               const core::RunIndex* scan_runs = nullptr);

}  // namespace flakescan::scan
