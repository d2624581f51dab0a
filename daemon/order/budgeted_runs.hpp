#pragma once
// The one way the `order` and `nio` techniques make runs. Policy:
// - Budget: every run counts against Budget::max_runs and Budget::max_seconds of this
//   technique; once either is spent, run() and run_all() fail with Errc::too_large or
//   Errc::timeout and nothing more is started. Cancellation of the scan gives
//   Errc::cancelled. A run handed back unrun by the scan (id 0, no results: the scan's
//   time budget) ends the budget too and is not kept.
// - History: every run made is kept (in order) so that verdicts can count runs and point
//   at store ids.
// - Prefix cache: an order-dependent outcome is decided by the tests before it in the same
//   JVM, so the outcome of test t after prefix P is remembered from any run that contained
//   exactly P then t, and outcome_after() answers from it instead of starting a JVM. The
//   cache is only consulted when asked; confirmation reruns bypass it on purpose.
// - Crashes: a run cut short by an infrastructure failure (System.exit, crash, deadline)
//   at test k is run again once or twice without test k, in a fresh JVM, so one exiting test
//   does not hide the rest of an order. The tests before k run again too: the tests after it
//   must run after the same prefix (a victim whose polluter came before the exiting test
//   would pass in a JVM that starts after it).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::order {

// Where one test's outcome was observed: run `run` of the history, entry `pos`.
struct Observation {
  size_t run = 0;
  size_t pos = 0;
  core::Outcome outcome = core::Outcome::infra;
};

class BudgetedRuns {
 public:
  BudgetedRuns(core::RunLog& log, const core::Budget& budget, std::string technique);

  // One run, no cache, with crash continuation; returns the indices of the history
  // entries it produced (the first is the run itself).
  util::Result<std::vector<size_t>> run(std::vector<std::string> tests, std::string purpose,
                                        std::uint64_t seed = 0, bool continue_after_crash = true);
  // The same for a spec of the caller's (its class_run_starts kept).
  util::Result<std::vector<size_t>> run(core::RunSpec spec, bool continue_after_crash = true);

  // Several runs in parallel (RunLog::run_all). When the budget allows only some of them,
  // the first ones run; the result has one history index per spec that ran, in spec order,
  // followed by the indices of any crash continuations.
  util::Result<std::vector<size_t>> run_all(std::vector<core::RunSpec> specs);

  // A run made before the technique started (technique `suite` hands over a suspect's runs
  // alone and the order it failed in): in the history and the prefix cache like the
  // runner's own runs, but not counted against the budget (runs_made()) nor in verdicts'
  // run counts (adopted()). Adopted runs come before the runner's own.
  size_t adopt(core::RecordedRun run);
  bool adopted(size_t index) const { return index < adopted_; }

  // Outcome of the last test of `order` when run after exactly the tests before it: from
  // the cache when observed before, else by running `order`.
  util::Result<Observation> outcome_after(const std::vector<std::string>& order, const std::string& purpose);

  const std::vector<core::RecordedRun>& history() const { return history_; }
  const core::RecordedRun& at(size_t index) const { return history_[index]; }
  int runs() const { return static_cast<int>(history_.size()); }
  int runs_made() const { return runs() - static_cast<int>(adopted_); }
  // Why no more runs can start, or nullopt while budget remains.
  std::optional<util::Error> exhausted() const;
  core::RunLog& log() { return log_; }

  // The runs of the history, other than `except`, that began with exactly `order`, made as a
  // plain run of it would be: no shuffling JDK, schedule or classpath change, and a new run of
  // a class at exactly the positions `starts` (RunSpec::class_run_starts) within it. In history
  // order. A confirmation counts them as reruns of `order` instead of making them again.
  std::vector<size_t> runs_of(const std::vector<std::string>& order, const std::vector<size_t>& starts, size_t except) const;

  // Every observation (pass/fail/error/skip...) of each test, in history order.
  std::unordered_map<std::string, std::vector<Observation>> observations() const;

 private:
  core::RunSpec spec(std::vector<std::string> tests, std::string purpose, std::uint64_t seed) const;
  size_t record(core::RecordedRun run);
  std::optional<size_t> first_cut_short(const core::RecordedRun& run) const;
  // `ran` without entry `cut` (its class runs kept), with the purpose of that run.
  static core::RunSpec without(const core::RunSpec& ran, size_t cut);
  static std::string again_purpose(const std::string& purpose, const std::string& ended);
  bool unrun(const core::RecordedRun& run);

  core::RunLog& log_;
  core::Budget budget_;
  std::string technique_;
  std::chrono::steady_clock::time_point started_;
  std::vector<core::RecordedRun> history_;
  std::unordered_map<std::uint64_t, Observation> by_prefix_;  // prefix hash -> observation
  bool scan_out_of_time_ = false;
  size_t adopted_ = 0;
};

// Hash of a test sequence, as used by the prefix cache (FNV-1a over ids and separators).
std::uint64_t sequence_hash(const std::vector<std::string>& tests, size_t count);

}  // namespace flakescan::order
