#pragma once
// Entry points of the techniques `order` and `nio` (docs/order.md and docs/repair.md).
//
// order: run the original order, the reverse order, orders that cover consecutive test
// pairs (pair_cover.hpp: same-package pairs first) and, once every pair is covered, seeded
// random orders (classes shuffled, then methods within classes), one JVM each; every
// verdict's details give the pair coverage reached (pair_coverage, related_pair_coverage:
// "covered/total"); a test whose outcome changes is a
// candidate; rerun its failing order (twice) to tell order-dependent (same outcome every
// time) from non-order-dependent flakiness; run each order-dependent candidate alone:
// passes alone -> victim, fails alone -> brittle; delta-debug the tests before it in the
// failing (victim) or passing (brittle) order down to the minimal polluters or
// state-setters; for victims, look for cleaners among the other tests by group testing.
//
// nio: run every test twice in a row in one JVM (entire-suite by default), then confirm
// each hit in a JVM of its own (t, t). A NIO test passes the first time and fails the
// second.
//
// Both return one verdict per test they ran. A flaky verdict always carries a reproducer
// (the exact test list of one JVM) that failed and a passing order that passed, both
// observed; tests flagged by these techniques that never failed in their reproducer are not
// called flaky.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::order {

struct OrderOptions {
  int confirm_reruns = 2;     // reruns of a failing order; all must fail for order-dependence
  bool find_cleaners = true;  // search cleaners for each victim
  int max_cleaners = 3;       // stop after this many cleaners per victim
  // Not empty: only these tests are candidates (technique `suite` hands over one suspect and
  // the order it failed in; other tests of that order whose outcome changed are not its
  // business here).
  std::vector<std::string> only;
  // Not empty: runs already made that found the candidates (technique `suite`: the suspect
  // alone, and the order it failed or passed in). The detection orders are not run; the
  // candidates come from these runs (BudgetedRuns::adopt).
  std::vector<core::RecordedRun> observed;
  // Tests known to change static state (classfile/static_writers.hpp; technique `suite` reads
  // them from the class directories). A polluter or state-setter leaves state behind, static
  // fields being the usual place: minimisation first tries the writers among the tests before
  // the suspect, alone, and delta-debugs those when they give the outcome (else all of them).
  std::set<std::string> writers;
  // A candidate that already passed confirm_reruns + 1 runs alone (a victim by the runs handed
  // over) has its failing order confirmed by its minimal order instead: no reruns of the
  // failing order before minimisation, and the minimal order is rerun confirm_reruns times as
  // always. Only when the minimal order does not confirm is the failing order rerun, to tell an
  // order-dependent test without a named polluter from one that is not order-dependent.
  // Technique `suite` asks for it: its failing order already failed twice (in a round, and again
  // when `suite` ran it), so the reruns before minimisation mostly repeat what the minimal
  // order's reruns show.
  bool confirm_by_minimal_order = false;
};

util::Result<std::vector<core::Verdict>> detect_order_dependent(const core::TechniqueInput& input, core::RunLog& log,
                                                                const OrderOptions& options = {});

enum class NioMode { isolated_method, isolated_class, entire_suite };

std::string_view nio_mode_name(NioMode mode);
std::optional<NioMode> parse_nio_mode(std::string_view name);  // "isolated-method", ...

// In modes other than isolated-method, every hit is confirmed in isolated-method mode.
// `observed` (isolated-method only): runs the caller made before, each running one test twice
// in a row first in a fresh JVM (technique suite's runs alone). A test with such a run that
// passed then failed takes it as its first-pass hit, with no first-pass run made for it, and
// the others as its confirmations: only the confirmations still missing are run. They are not
// counted in the verdicts' runs (whoever made them counted them). Other tests get their first
// pass as usual.
util::Result<std::vector<core::Verdict>> detect_nio(const core::TechniqueInput& input, core::RunLog& log,
                                                    NioMode mode = NioMode::entire_suite,
                                                    const std::vector<core::RecordedRun>& observed = {});

// For the scan layer's technique table.
core::TechniqueFn order_technique(OrderOptions options = {});
core::TechniqueFn nio_technique(NioMode mode = NioMode::entire_suite);

}  // namespace flakescan::order
