#pragma once
// A core::RunLog straight over an executor, for technique tests without the store: runs
// get increasing ids and are kept in memory.
#include <atomic>
#include <mutex>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::test_support {

class LocalRunLog final : public core::RunLog {
 public:
  LocalRunLog(core::TestExecutor& executor, int parallelism = 1) : executor_(executor), parallelism_(parallelism) {}

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override;
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override;
  util::Result<core::RecordedRun> run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) override;
  int parallelism() const override { return parallelism_; }
  bool cancelled() const override { return false; }
  void plan(int) override {}

  std::vector<core::RecordedRun> recorded() const;
  const core::RecordedRun* find(std::int64_t id) const;

 private:
  util::Result<core::RecordedRun> keep(const core::RunSpec& spec, util::Result<core::RunReport> report);
  core::TestExecutor& executor_;
  int parallelism_;
  core::CancelFlag cancel_{false};
  mutable std::mutex mutex_;
  std::vector<core::RecordedRun> runs_;
};

}  // namespace flakescan::test_support
