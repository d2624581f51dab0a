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
#include "core/verdict.hpp"

namespace flakescan::scan {

// Looks up a stored run by id (nullopt when it is not there).
using RunLookup = std::function<std::optional<core::RecordedRun>(std::int64_t)>;

// The strip holds at most this many runs (the first ones).
inline constexpr std::size_t max_strip_runs = 1000;

// `scan_runs`, when given, are every run of the scan in the order they ran: those that reached
// the test become evidence.run_strip (run id, the test's outcome, technique).
nlohmann::json verdict_to_json(const core::Verdict& verdict, const RunLookup& lookup,
                               const std::vector<core::RecordedRun>* scan_runs = nullptr);

}  // namespace flakescan::scan
