#pragma once
// Step 2 of technique `suite` (suite_rounds.hpp): the isolated runs of one suspect, and the
// lanes that let several suspects be isolated at the same time.
//
// A suspect, in one lane:
//   1. alone in fresh JVMs (technique rerun, 3 runs, or 2 when those answer: below),
//      kExecutionsAlone times in a row in each (twice when the rounds saw it take longer
//      than kQuickExecutionMs): the first execution
//      is the run alone (rerun::first_execution), the second is for step 3, all of them after
//      the first for the check that ends step 2 before it starts;
//   2. when it only passed alone (or only failed alone): the round order it failed (passed) in,
//      where it had not run before (a second run in one JVM is the NIO check's): first the
//      polluters another suspect's isolation found, when they ran before it in every round it
//      failed in (KnownPolluters); then the order narrowed by the rounds of both outcomes, then
//      by those of its outcome alone (suite_plan.hpp); then the whole prefix of the round
//      where it had the fewest tests before it (any prefix that gave the outcome holds what
//      gave it; a shorter one costs less to run and confirm). The first order
//      that gives that outcome again goes to technique `order`, together with the runs alone
//      and the run that reproduced it (OrderOptions::observed), so that
//      `order` confirms, classifies, minimises and looks for a cleaner without running its
//      detection orders again. Skipped for a suspect that only passed (or only failed) alone
//      but whose k-th execution in its fresh JVMs failed in one and passed in another: one
//      order (itself, k-1 times before) gave both outcomes, so no order decides its outcome
//      (details.order says so);
//   3. the NIO check (technique nio, isolated-method) on the runs alone: when one passed then
//      failed, nio takes them as its first pass and confirmations (no run of its own); when
//      none did, they answered it (no): a NIO test fails the second time in a fresh JVM.
// The findings are merged into one verdict; checking them against every run the scan made
// (core/deciding.hpp) is left to the caller, once every suspect is done.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <semaphore>
#include <set>
#include <string>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::suite {

// Where a test was observed in the rounds: the run and its position there.
struct Seen {
  const core::RecordedRun* run = nullptr;
  size_t pos = 0;
  core::Outcome outcome = core::Outcome::infra;
};

// The scan's JVMs as the lanes of one isolation step share them: every run of every lane
// holds one of `jvms` slots while it runs, so the lanes together never run more JVMs at once
// than the scan may. A lane's run_all starts as many runs at once as its share of them: all
// of them divided by the suspects being isolated at that moment, so that a lane whose
// neighbours have no suspect left uses their JVMs too (the last suspects of a scan, or fewer
// suspects than JVMs), instead of leaving them idle. (Runs of one test alone never overlap:
// core::run_in_parallel.)
class JvmSlots {
 public:
  explicit JvmSlots(int jvms) : jvms_(std::max(1, jvms)), free_(jvms_) {}
  void acquire() { free_.acquire(); }
  void release() { free_.release(); }
  // A lane's share of the JVMs while `isolating` suspects are being isolated.
  int share() const { return std::max(1, jvms_ / std::max(1, isolating.load())); }
  std::atomic<int> isolating{0};

 private:
  const int jvms_;
  std::counting_semaphore<> free_;
};

// The RunLog of one suspect's isolation: runs go to the scan's log, each holding a slot of
// `slots`, run_all starting the lane's share of them at once; they count against a run
// budget every lane shares (past it a run fails with Errc::too_large, which every technique
// takes as the end of its budget). Every run made is kept. Lanes run side by side, one thread
// each; run_all's own threads share a lane safely.
class Lane final : public core::RunLog {
 public:
  Lane(core::RunLog& scan, JvmSlots& slots, std::atomic<int>& made, int max_runs)
      : scan_(scan), slots_(slots), made_(made), max_runs_(max_runs) {}

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override;
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override;
  util::Result<core::RecordedRun> run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) override;
  int parallelism() const override { return slots_.share(); }
  bool cancelled() const override { return scan_.cancelled(); }
  void plan(int n) override { scan_.plan(n); }

  const std::vector<core::RecordedRun>& kept() const { return kept_; }
  std::vector<core::RecordedRun> take_kept() { return std::move(kept_); }

 private:
  util::Result<void> claim();
  util::Result<core::RecordedRun> keep(util::Result<core::RecordedRun> run);

  core::RunLog& scan_;
  JvmSlots& slots_;
  std::atomic<int>& made_;
  int max_runs_;
  std::mutex kept_mutex_;
  std::vector<core::RecordedRun> kept_;
};

// A suspect's runs alone run it this many times in a row when it is quick: for a random test
// that passed its three runs alone, each later execution is one more chance for the same
// order to show both outcomes, which spares the order search (tests before it, up to a whole
// round's prefix, then its confirmations) that step 2 would make for nothing. With a failure
// rate of 20 % (15 %), the chance that 5 repeated executions, each seen in 3 runs, never show
// both is about 4 % (9 %); with the second execution alone it was 52 % (62 %).
inline constexpr int kExecutionsAlone = 6;
// Quick: no execution in the rounds took longer (so the extra executions cost at most about
// 0.4 s a run alone, less than the JVM it runs in).
inline constexpr double kQuickExecutionMs = 100;
// Its third run alone is made only when the first two leave a question open (enough_alone in
// suite_isolation.cpp): a random test whose two runs alone already showed that no order decides
// its outcome costs two JVMs, not three.
inline constexpr int kRunsAloneBeforeEnough = 2;

struct Suspect {
  std::string test;
  core::Verdict from_rounds;  // flaky: its outcome differed between rounds
  std::vector<Seen> seen;     // its observations in the rounds
};

// The polluters the isolations found so far, shared by the lanes. A suspect that failed only
// after one of these in every round tries it first (polluter, suspect: one run), so suspects
// of one polluter cost one search, not one each.
class KnownPolluters {
 public:
  void add(std::vector<std::string> polluters);
  std::vector<std::vector<std::string>> all() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::vector<std::string>> lists_;
};

// Steps 1 to 3 for one suspect; `sub` is the scan's input with the budget left for it.
// Errors only when the scan was cancelled; a budget that ends midway keeps what was found.
// `writers`: the tests known to change static state (OrderOptions::writers).
util::Result<core::Verdict> isolate(const Suspect& suspect, const core::TechniqueInput& sub, Lane& lane, KnownPolluters& known,
                                    const std::set<std::string>& writers);

}  // namespace flakescan::suite
