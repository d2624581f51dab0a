#pragma once
// The core::RunLog of one scan: executes runs through the scan's executor, writes each to
// the store before anyone hears of it, and publishes run events.
#include <atomic>
#include <chrono>
#include <string>

#include "core/test_executor.hpp"
#include "core/technique.hpp"
#include "scan/event_log.hpp"
#include "store/store.hpp"

namespace flakescan::scan {

struct RunLogTarget {
  std::string scan_id;
  store::Store& store;
  EventLog& events;
  const std::atomic<bool>& cancel;
  std::atomic<int>& runs_done;
  std::atomic<int>& runs_planned;
};

class ScanRunLog final : public core::RunLog {
 public:
  ScanRunLog(core::TestExecutor& executor, RunLogTarget target, int parallelism, int timeout_seconds,
             std::chrono::steady_clock::time_point deadline);

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override;
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override;
  util::Result<core::RecordedRun> run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) override;
  int parallelism() const override { return parallelism_; }
  bool cancelled() const override { return target_.cancel.load(); }
  void plan(int n) override;

 private:
  util::Result<core::RecordedRun> execute(const core::RunSpec& spec, const core::TestExecutor::DriveFn* drive);
  void publish_finished(const core::RecordedRun& out);  // the run_finished event
  // One line per run on logger "steps" (debug): where its time went (core::RunSteps).
  static void log_steps(const core::RecordedRun& out);

  core::TestExecutor& executor_;
  RunLogTarget target_;
  int parallelism_;
  int timeout_seconds_;  // 0: 60 s + 10 s per test of the run
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace flakescan::scan
