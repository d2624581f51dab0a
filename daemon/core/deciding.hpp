#pragma once
// A category is given only when its condition decides the outcome. For an order-dependent
// or NIO finding the condition is an order: the test fails at the end of the failing order
// (`reproducer`) and passes at the end of the passing order (`passing_order`). Every run of
// the scan that began with one of those orders is looked at, whatever technique made it
// (rerun's runs of the test alone are the passing or failing order of many findings): one
// run in which the failing order passed, or the passing order failed, shows that the order
// does not decide, and the finding is marked `not_deciding` (its category is then not given;
// core::honest_verdict picks the primary category again).
// An implementation-dependent finding (technique `shuffle`) is decided by the shuffle: the test
// alone passes on the plain JDK and fails under the failing seed; a plain run of it alone that
// failed, or a run under that seed that passed, marks it `not_deciding`. Shuffled runs change
// the JDK's orders, so they never count as runs of an order.
// Runs that change the program on purpose (technique `repair` restoring a field, calling a
// cleaner, or running a patched class) are recorded under intervention_technique and left
// out: their outcome says what the change did, not what the order decides.
#include <string>
#include <vector>

#include "core/run.hpp"
#include "core/run_index.hpp"
#include "core/verdict.hpp"

namespace flakescan::core {

inline constexpr const char* intervention_technique = "repair-intervention";

Verdict check_deciding(Verdict v, const std::vector<RecordedRun>& runs);

// A test's outcome in a run made for another test (the prefix of another suspect's order, a
// class mate's isolation) is an observation of it too, though no technique counted it for
// this test. A `not_flaky` verdict with such a failure, or a `failing` one with such a pass,
// becomes `flaky`, category `unknown`, naming that run; its earlier findings stay, and the
// runs found are added to its counts. The same runs are left out as above (intervention,
// shuffled, scheduled). Any other verdict is returned as it is.
Verdict check_other_runs(Verdict v, const RunIndex& runs);

// What a `not_flaky` verdict rules out. A test that fails a share p of its executions at random,
// whatever ran before it, passes n of them with probability (1 - p)^n, so n passes rule out
// every rate from 1 - 0.05^(1/n) up at 95 % confidence (n = 21: 13.3 %). The verdict gets n,
// its passing executions in the scan's runs whatever technique made them (the runs left out
// above are left out here too), as `details.passed_executions`, and that rate as
// `details.rules_out`, so a reader sees what the scan could not have missed and what more runs
// would buy. It says nothing of an order the scan never ran. Any other verdict, or one with
// no such execution, is returned as it is.
Verdict with_detection_bound(Verdict v, const RunIndex& runs);
// The rate n passing executions rule out at 95 % confidence, in percent, rounded up (to a
// whole percent from 10 % up, else to a tenth), so that the claim never says more than the
// runs: "14 %" for n = 21. Empty for n < 1.
std::string ruled_out_rate(int passing_executions);
// The summary's line for a scan's `not_flaky` verdicts: `counted` of the `total` have
// `details.passed_executions`, the fewest `fewest`; the rest ran only in runs left out above,
// and the line says so rather than "each". Empty when none is counted.
std::string rules_out_summary(int fewest, int counted, int total);

}  // namespace flakescan::core
