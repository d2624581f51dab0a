#pragma once
// Turning the runs a technique made into the counts and failure groups of a verdict.
#include <string>
#include <vector>

#include "core/verdict.hpp"
#include "order/budgeted_runs.hpp"

namespace flakescan::order {

// Counts every entry of `test` in every run made (a test repeated in one run counts twice);
// adopted runs were counted by whoever made them.
core::RunCounts count_runs(const BudgetedRuns& runner, const std::string& test);

// Failures of `test` grouped by signature, with the store id of an example run (adopted runs left out).
std::vector<core::FailureGroup> failure_groups(const BudgetedRuns& runner, const std::string& test);

// Verdicts for tests that had nothing to flag: not_flaky when every observation agreed,
// could_not_run when none was a pass or a failure.
core::Verdict plain_verdict(const BudgetedRuns& runner, const std::string& test, const std::string& technique);

std::string join(const std::vector<std::string>& items, const char* separator = ", ");

}  // namespace flakescan::order
