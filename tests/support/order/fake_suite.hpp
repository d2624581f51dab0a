#pragma once
// A scripted stand-in for a JVM test run, for unit tests of the `order` and `nio`
// techniques: outcomes follow a simulated shared-state model instead of real code.
// Policy (one "run" = one fresh JVM, state starts empty):
// - a victim fails when one of its polluters (all of them, if `needs_all`) ran earlier in
//   the run and no cleaner of it ran between the last such polluter and it;
// - a brittle passes only when one of its state-setters ran earlier in the run;
// - a NIO test fails when it already ran earlier in the same run;
// - a NOD test fails in every other run that contains it, counting across runs (like a
//   counter kept in a file), so it is flaky but not order-dependent;
// - a timed test follows its script, one outcome per execution counted across runs (like a
//   thread-timing test whose failures fall where they fall), and passes once it runs out;
// - a broken test always fails; an exiting test ends the JVM: it and every later test get
//   Outcome::infra;
// - everything else passes.
// Run ids count from 1. run_all runs the specs one after another. Thread-safe: technique
// `suite` isolates parallelism() suspects at once, each from a thread of its own; the
// counters of NOD and timed tests are then shared by those threads, so a test whose
// outcomes must not depend on how they interleave sets parallelism 1 or plants neither.
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::test_support {

struct FakeVictim {
  std::vector<std::string> polluters;
  std::vector<std::string> cleaners;
  bool needs_all = false;
};

struct FakeSuite {
  std::map<std::string, FakeVictim> victims;
  std::map<std::string, std::vector<std::string>> brittles;  // test -> state-setters
  std::set<std::string> nio;
  std::set<std::string> nod;
  std::map<std::string, std::vector<core::Outcome>> timed;  // test -> outcome of each execution
  std::set<std::string> broken;
  std::set<std::string> exiting;
  std::map<std::string, double> duration_ms;  // test -> how long each of its executions takes (0 if not listed)
  std::set<std::string> thread_creators;      // tests that construct a thread in each execution
};

class FakeRunLog : public core::RunLog {
 public:
  explicit FakeRunLog(FakeSuite suite) : suite_(std::move(suite)) {}

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override;
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override;
  int parallelism() const override { return parallelism_; }
  void set_parallelism(int n) { parallelism_ = n; }
  bool cancelled() const override { return cancel_after_ >= 0 && runs_ >= cancel_after_; }
  // The most runs that were under way at the same time.
  int most_at_once() const { return most_at_once_; }
  void plan(int n) override { planned_ += n; }

  int runs() const { return runs_; }
  int planned() const { return planned_; }
  const std::vector<core::RecordedRun>& made() const { return made_; }
  // Makes cancelled() true once this many runs were made.
  void cancel_after(int runs) { cancel_after_ = runs; }
  // Like the scan's time budget: once this many runs were made, runs come back unrun
  // (id 0, no results).
  void unrun_after(int runs) { unrun_after_ = runs; }
  // Outcome of `test` at the end of `order` under the model, without counting a run.
  core::Outcome predict(const std::vector<std::string>& order);

 private:
  core::Outcome outcome(const std::vector<std::string>& tests, size_t i, bool count_nod);

  FakeSuite suite_;
  int parallelism_ = 2;
  std::mutex mutex_;
  std::atomic<int> at_once_{0}, most_at_once_{0};
  std::atomic<int> runs_{0};
  int planned_ = 0;
  int cancel_after_ = -1;
  int unrun_after_ = -1;
  std::map<std::string, int> nod_count_;
  std::map<std::string, size_t> timed_count_;
  std::vector<core::RecordedRun> made_;
};

}  // namespace flakescan::test_support
