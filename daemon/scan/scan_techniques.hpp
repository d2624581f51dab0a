#pragma once
// Running a scan's techniques: which tests the scan runs (discovery, the shard's share,
// request.new_since), then each requested technique in the order of technique_table(), every
// run going through one ScanRunLog (stored before it is told). The verdicts come back merged
// per test (merge_and_decide.hpp); deciding is left to the caller.
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/test_executor.hpp"
#include "core/tools.hpp"
#include "core/verdict.hpp"
#include "scan/event_log.hpp"
#include "scan/scan_request.hpp"
#include "scan/scan_run_log.hpp"
#include "store/store.hpp"

namespace flakescan::scan {

struct SelectedTests {
  std::vector<std::string> tests;     // method ids to scan (this shard's share, new ones only)
  std::vector<core::Verdict> missing; // could_not_run: ids that name no test (in this shard)
  std::string error;                  // why the tests could not be listed ("": they could)
  bool cancelled = false;             // discovery was cancelled
};

// Expands the request's ids into method ids through the executor, keeps the shard's share and,
// with request.new_since, only the tests that branch's CI history never saw.
SelectedTests select_tests(core::TestExecutor& executor, const ScanRequest& request, const std::string& scan_id,
                           store::Store& store, EventLog& events, const std::atomic<bool>& cancel);

// The tests of `tests` that the CI history of `branch` never saw, said as a `warning` event,
// with why when every test counts.
std::vector<std::string> new_since(store::Store& store, const std::string& branch, std::vector<std::string> tests,
                                   EventLog& events, const std::string& scan_id);

struct TechniqueResults {
  std::map<std::string, core::Verdict> merged;  // by test: every technique's verdicts, merged
  std::string error;                            // "name: why" per failed technique, "; "-joined
  bool cancelled = false;                       // a technique stopped because the scan was cancelled
};

// Runs the requested techniques over `tests`; their runs are made for `target`.
TechniqueResults run_techniques(core::TestExecutor& executor, const ScanRequest& request,
                                const std::vector<std::string>& tests, const RunLogTarget& target,
                                const std::shared_ptr<core::Tools>& tools);

}  // namespace flakescan::scan
