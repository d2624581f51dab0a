#include "integration/event_order/local_run_log.hpp"

#include <thread>

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
  std::vector<util::Result<core::RecordedRun>> done(specs.size(), util::fail(util::Errc::cancelled, "not run"));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < specs.size(); i = next++) done[i] = run(specs[i]);
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < parallelism_; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  std::vector<core::RecordedRun> out;
  for (auto& r : done) {
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
