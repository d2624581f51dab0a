#pragma once
// Replays (POST /v1/scans/{id}/replays): runs a stored verdict's reproducer again, blocking,
// and says how often the test failed. The runs are stored under the scan like its own runs.
// A technique whose reproducer is more than a test list (explore's schedule) replays through
// its technique_table() entry; every other verdict runs its reproducer, or its failing run's
// order, as a plain run.
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/test_executor.hpp"
#include "scan/scan_request.hpp"
#include "store/store.hpp"

namespace flakescan::scan {

// Builds the executor that replays (its work folder chosen by the caller).
using ReplayExecutorFactory = std::function<util::Result<std::unique_ptr<core::TestExecutor>>(const ScanRequest&)>;

// Body: {"test": "p.C#m", "runs": 3}. Answer: {scan, test, reproducer, runs: [{id, outcome,
// same_failure?, schedule?}], failed, total, reproduced, schedule_followed?}. `same_failure`: a
// failing run's signature equals the verdict's failing run's. `schedule` (replayed schedules of
// technique threads): {exact, followed, diverged_at}; `schedule_followed`: every run followed
// the recorded decisions to the end.
util::Result<nlohmann::json> replay_verdict(store::Store& store, const std::string& scan_id, const nlohmann::json& body,
                                            const ReplayExecutorFactory& make_executor);

}  // namespace flakescan::scan
