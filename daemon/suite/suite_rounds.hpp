#pragma once
// Technique `suite` (issue 16; docs/suite.md): a whole-suite scan at the speed of the suite.
//
// 1. Rounds: the whole selection runs once per round in one shared JVM, `parallelism` rounds
//    at a time, each round in a new seeded order (suite_plan.hpp). A run cut
//    short by a test that takes its JVM down is continued with the tests after it in a fresh
//    JVM, so one exiting test hides nothing.
// 2. Suspects: tests whose outcome differed between rounds. Only they get isolated runs: alone
//    in fresh JVMs (rerun), the order they failed in (or passed in, when they fail alone) handed
//    to the `order` technique (confirmation, victim or brittle, minimal polluters or
//    state-setters, cleaners), and the NIO check (`nio`, one JVM per test); `parallelism`
//    suspects at a time, each in a lane of its own (suite_isolation.hpp). Every finding is
//    kept in the test's verdict and checked against every run of the scan once all are done.
//    A test whose outcome never differed between rounds but did in a suspect's isolated runs
//    becomes a suspect too, those runs among its observations (again while that finds more).
// 3. Tests that never differed: not_flaky with the number of rounds they passed (failing when
//    they failed every round).
// Budget: the first round measures what a round costs; the rounds that fit in 70% of the
// seconds and runs budgets run, the rest is kept for the suspects. What the budget left
// undone is said in the verdicts (`details.rounds`, `details.rounds_wanted`,
// `details.unscanned`), never cut silently.
#include <vector>

#include "core/technique.hpp"

namespace flakescan::suite {

util::Result<std::vector<core::Verdict>> run_suite(const core::TechniqueInput& input, core::RunLog& runs);

}  // namespace flakescan::suite
