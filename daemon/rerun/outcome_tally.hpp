#pragma once
// Tallies what runs observed for each test and turns a tally into a verdict. Shared by the
// techniques that decide by repetition (rerun, its noise mode, replays): a test is flaky
// when at least one observed pass and one observed failure exist; infra outcomes and skips
// are counted but never decide.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "core/verdict.hpp"

namespace flakescan::rerun {

struct Tally {
  core::RunCounts counts;
  std::vector<core::FailureGroup> failures;  // by signature, in first-seen order
  std::int64_t first_pass = 0;
  std::int64_t first_failure = 0;
  std::string last_problem;                  // not_found / infra / skip message, for could_not_run
};

class OutcomeTally {
 public:
  // Adds every result of the run to the tally of its test.
  void add(const core::RecordedRun& run);
  const std::map<std::string, Tally>& tallies() const { return tallies_; }
  const Tally* find(const std::string& test) const;

 private:
  std::map<std::string, Tally> tallies_;
};

// The verdict a tally supports, for technique `technique`. Flaky verdicts get the category
// given (rerun alone cannot tell why a test is flaky: `unknown`).
core::Verdict verdict_from_tally(const std::string& test, const Tally* tally, const std::string& technique,
                                 core::Category flaky_category = core::Category::unknown);

}  // namespace flakescan::rerun
