#include "integration/explore/local_run_log.hpp"

namespace flakescan::test_support {

util::Result<core::RecordedRun> LocalRunLog::keep(const core::RunSpec& spec, util::Result<core::RunReport> report) {
  if (!report) return std::unexpected(report.error());
  std::lock_guard lock(mutex_);
  core::RecordedRun run{std::int64_t(runs_.size() + 1), spec, std::move(*report)};
  runs_.push_back(run);
  return run;
}

util::Result<core::RecordedRun> LocalRunLog::run(const core::RunSpec& spec) { return keep(spec, executor_.run(spec, cancel_)); }

util::Result<std::vector<core::RecordedRun>> LocalRunLog::run_all(const std::vector<core::RunSpec>& specs) {
  std::vector<core::RecordedRun> out;
  for (const auto& s : specs) {
    auto r = run(s);
    if (!r) return std::unexpected(r.error());
    out.push_back(std::move(*r));
  }
  return out;
}

util::Result<core::RecordedRun> LocalRunLog::run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) {
  return keep(spec, executor_.run_debugged(spec, cancel_, drive));
}

std::vector<core::RecordedRun> LocalRunLog::recorded() const {
  std::lock_guard lock(mutex_);
  return runs_;
}

const core::RecordedRun* LocalRunLog::find(std::int64_t id) const {
  std::lock_guard lock(mutex_);
  for (const auto& r : runs_)
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace flakescan::test_support
