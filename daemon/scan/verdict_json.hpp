#pragma once
// The verdict records of verdicts.json (schema/verdicts.schema.json). The passing and
// failing runs named as evidence are embedded with their order and failure, so that the file
// alone explains each verdict.
#include <cstdint>
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/run.hpp"
#include "core/verdict.hpp"

namespace flakescan::scan {

// Looks up a stored run by id (nullopt when it is not there).
using RunLookup = std::function<std::optional<core::RecordedRun>(std::int64_t)>;

nlohmann::json verdict_to_json(const core::Verdict& verdict, const RunLookup& lookup);

}  // namespace flakescan::scan
