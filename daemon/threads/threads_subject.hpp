#pragma once
// What technique `threads` learnt about one test, filled as its schedules run
// (threads_technique.cpp), and the verdict made from it (threads_verdict.cpp). Every pointer
// points into `runs`, a deque, which does not move its elements when it grows.
#include <deque>
#include <optional>
#include <string>

#include "core/run.hpp"
#include "core/technique.hpp"
#include "core/verdict.hpp"

namespace flakescan::threads {

struct Subject {
  std::string test;
  std::deque<core::RecordedRun> runs;  // every run of it, the replay last
  int schedules = 0;                   // exploring runs made (the replay not counted)
  const core::RecordedRun* failing = nullptr;  // the first failing schedule (one with a readable record, if any)
  const core::RecordedRun* passing = nullptr;  // the first passing schedule
  const core::RecordedRun* replay = nullptr;   // the failing decisions replayed
  // The test run once without control after every schedule failed: when it passes, the real
  // scheduler picks an interleaving that passes where every controlled one failed (a sleep
  // used as a wait that the JVM's clock happens to cover), and it is the passing run.
  const core::RecordedRun* uncontrolled = nullptr;
  // The failing decisions replayed on real time, when the failing schedule's clock was virtual
  // and a thread kept real time beside it (clocks_disagreed); why not, when it was not made.
  const core::RecordedRun* real_time = nullptr;
  std::string no_real_time;
  bool single_thread = false;   // the first schedule ran one controlled thread (core::ThreadSchedule::single_threaded)
  int steps_estimate = 0;       // PCT's k for the later schedules: the first schedule's steps_together
  int unobserved_in_a_row = 0;  // schedules in a row that ended with no pass or failure (infra, skipped)
  bool budget_ended = false;    // the scan's budget stopped it before `schedules` were made
  std::string not_replayed;     // why the failing schedule was not replayed
  bool confirm_planned = false;  // its confirming runs were asked for (or why not was said)

  bool explored() const { return failing && passing; }  // both outcomes seen
  bool passed_uncontrolled_only() const { return passing && passing == uncontrolled; }
};

// The i-th entry's result of a run of one test, or nullptr when the run did not reach it.
inline const core::TestResult* result_of(const core::RecordedRun& run) {
  return run.report.results.empty() ? nullptr : &run.report.results.front();
}
inline bool failed(const core::RecordedRun& run) { return core::is_failure(run.report.outcome_at(0)); }
inline bool passed(const core::RecordedRun& run) { return run.report.outcome_at(0) == core::Outcome::pass; }
// The run's schedule record, when it has one that could be read.
inline const core::ThreadSchedule* record_of(const core::RecordedRun& run) {
  const auto* r = result_of(run);
  return r && r->threads && r->threads->record_error.empty() ? &*r->threads : nullptr;
}

// The failing schedule ran on virtual time, its clock moved, and a thread came under control
// when real time chose (core::ThreadSchedule::timed_from_outside), not in a deadlock: the
// failure may come from the two clocks, so the same decisions are tried on real time once.
bool clocks_disagreed(const Subject& s);

// The replay brought the failure back: the same failure signature.
bool replay_confirms(const Subject& s);

// Every schedule of `s` that failed ended in a deadlock (a DeadlockError; not a deadlock noticed
// behind a timed wait, after which the test went on), and at least one did. A run without
// control would most likely hang until the run deadline, and the deadlock is a finding already.
bool deadlocked_every_time(const Subject& s);

// The verdict about `s` from its runs; `unavailable`: why no controlled run could be made.
core::Verdict threads_verdict(const Subject& s, const core::TechniqueInput& input, const std::string& unavailable);

}  // namespace flakescan::threads
