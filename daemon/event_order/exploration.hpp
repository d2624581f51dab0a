#pragma once
// What one test's exploration carries across its strategies (explore.cpp, internal): the
// runs made and their tally, the first passing run, and the per-test budget (runs and
// seconds) that ends the search. A strategy that finds a failing schedule returns it as a
// Found; the verdict is made from the tally and the Found in explore.cpp.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/technique.hpp"
#include "rerun/outcome_tally.hpp"

namespace flakescan::event_order {

struct ExploreOptions;

struct Exploration {
  std::string test;
  const ExploreOptions& options;
  core::RunLog& runs;
  int run_budget = 40;
  std::chrono::steady_clock::time_point deadline;
  std::uint64_t seed = 1;
  rerun::OutcomeTally tally;
  std::int64_t passing_run = 0;
  int runs_made = 0;
  bool budget_ended = false;  // the budget, not the search, ended a strategy

  // Room for another run; when there is none, remembers that the budget ended the search.
  bool can_run();
  void note(const core::RecordedRun& run);
  core::RunSpec spec(const std::string& purpose) const;
};

// A schedule that made the test fail in a realised run.
struct Found {
  std::int64_t failing_run = 0;
  std::string reason;
  std::map<std::string, std::string> details;  // includes "strategy"
};

core::Outcome outcome_of(const core::RecordedRun& run);
// Why a strategy's traced run is no ground to explore from: it gave no outcome.
std::string no_outcome_reason(const core::RecordedRun& traced);

// A strategy's traced run: `record(vm, trace)` fills the trace in one debugged run, which is
// noted in the exploration and whose outcome becomes trace.outcome.
template <class Trace, class Record>
util::Result<core::RecordedRun> traced_run(Exploration& x, const std::string& purpose, Trace& trace, const Record& record) {
  auto traced = x.runs.run_debugged(x.spec(purpose), [&](core::Vm& vm) { return record(vm, trace); });
  if (!traced) return traced;
  x.note(*traced);
  trace.outcome = outcome_of(*traced);
  return traced;
}

}  // namespace flakescan::event_order
