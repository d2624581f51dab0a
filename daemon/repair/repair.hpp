#pragma once
// Technique `repair` (docs/repair.md, ODRepair without Randoop: the live JVM is the
// generator). For each order-dependent victim and each NIO test that an earlier technique of
// the scan found (or that `order` and `nio`, run here, find):
//   1. capture the static state right before the test in its failing order and in its passing
//      order (with the failing run's project classes loaded), and diff it per field;
//   2. confirm the polluted field: restore the differing fields right before the test to the
//      values they had before the first test of the failing order (deep copies kept in the
//      JVM), and delta-debug them down to the ones whose restoring makes the test pass;
//   3. search a cleaner: reset methods read from the class files (cleaner_calls.hpp), called
//      right before the test in the failing order, one candidate per run, best first;
//   4. write the cleaner as statements at the start of the test method, compile the file with
//      javac against the test classpath, and verify: the failing order and the passing order
//      both pass with the patched class. A patch that did not verify is not offered.
// Runs that change the program (2, 3, 4) are recorded as core::intervention_technique.
// Evidence details: polluted_field, polluted_fields_diff, cleaner, patch, patch_file,
// verified_by_run, repair (the sentence), repair_runs.
#include "core/technique.hpp"

namespace flakescan::repair {

struct RepairOptions {
  int max_cleaner_runs = 10;  // candidate calls tried per victim
  int max_targets = 50;       // victims repaired per scan
};

util::Result<std::vector<core::Verdict>> repair_tests(const core::TechniqueInput& input, core::RunLog& log,
                                                      const RepairOptions& options = {});

core::TechniqueFn repair_technique(RepairOptions options = {});

}  // namespace flakescan::repair
