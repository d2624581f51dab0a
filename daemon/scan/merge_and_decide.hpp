#pragma once
// Merging and deciding: from the techniques' verdicts to the scan's one verdict per test, and
// from those verdicts to the stored rows and the `verdict` events.
//
// Per test the techniques' verdicts are merged (core::merge_verdicts, every finding kept);
// each order or NIO finding is then checked against every stored run of the scan
// (core::check_deciding), the test's outcomes in runs made for other tests are taken in
// (core::check_other_runs), and the verdict is made to agree with its runs
// (core::honest_verdict: a test seen to fail is never `not_flaky`); a `not_flaky` verdict then
// says how many executions it passed and what failure rate they rule out
// (core::with_detection_bound).
#include <map>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "core/run_index.hpp"
#include "core/verdict.hpp"
#include "scan/event_log.hpp"
#include "store/store.hpp"

namespace flakescan::scan {

// The verdict of a test that no technique could run, and why.
core::Verdict could_not_run(const std::string& test, const std::string& reason);

// Merges one technique's verdicts into `merged` (by test), leaving `found` moved from.
void merge_found(std::map<std::string, core::Verdict>& merged, std::vector<core::Verdict>& found);

// One verdict per test of `tests`, in that order: the merged one, checked against `scan_runs`
// (an index of every run of the scan; null when they could not be read: no check) and made honest;
// could_not_run for a test no technique reached.
std::vector<core::Verdict> decide_verdicts(const std::vector<std::string>& tests,
                                           const std::map<std::string, core::Verdict>& merged,
                                           const core::RunIndex* scan_runs);

// Renders each verdict (verdict_json.hpp; its run strip from `scan_runs`, when given), appends
// it as a `verdict` event and returns the rows Store::save_verdicts takes.
std::vector<store::VerdictRow> publish_verdicts(const std::vector<core::Verdict>& verdicts, store::Store& store,
                                                const core::RunIndex* scan_runs, EventLog& events);

}  // namespace flakescan::scan
