#include "scan/scan_run_log.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

namespace flakescan::scan {

ScanRunLog::ScanRunLog(core::TestExecutor& executor, RunLogTarget target, int parallelism, int timeout_seconds,
                       std::chrono::steady_clock::time_point deadline)
    : executor_(executor), target_(target), parallelism_(std::max(1, parallelism)),
      timeout_seconds_(timeout_seconds), deadline_(deadline) {}

void ScanRunLog::plan(int n) {
  int total = target_.runs_planned += n;
  target_.events.append("progress", nlohmann::json{{"runs_planned", total}, {"runs_done", target_.runs_done.load()}}.dump());
}

util::Result<core::RecordedRun> ScanRunLog::run(const core::RunSpec& requested) { return execute(requested, nullptr); }

util::Result<core::RecordedRun> ScanRunLog::run_debugged(const core::RunSpec& requested,
                                                         const core::TestExecutor::DriveFn& drive) {
  return execute(requested, &drive);
}

util::Result<core::RecordedRun> ScanRunLog::execute(const core::RunSpec& requested,
                                                    const core::TestExecutor::DriveFn* drive) {
  if (cancelled()) return util::fail(util::Errc::cancelled, "scan cancelled");
  core::RecordedRun out;
  out.spec = requested;
  out.spec.timeout_ms = 1000 * (timeout_seconds_ > 0 ? timeout_seconds_ : 60 + 10 * int(requested.tests.size()));
  if (std::chrono::steady_clock::now() >= deadline_) {
    out.report.infra_reason = "not run: the scan's time budget ran out";
    return out;  // id 0: never executed, never stored
  }
  target_.events.append("run_started", nlohmann::json{{"technique", out.spec.technique}, {"purpose", out.spec.purpose},
                                                      {"tests", out.spec.tests.size()}}.dump());
  auto report = drive ? executor_.run_debugged(out.spec, target_.cancel, *drive) : executor_.run(out.spec, target_.cancel);
  if (!report) return std::unexpected(report.error());
  out.report = std::move(*report);
  auto id = target_.store.record_run(target_.scan_id, out.spec, out.report);
  if (!id) return std::unexpected(id.error());
  out.id = *id;
  int done = ++target_.runs_done;
  int passed = 0, failed = 0, infra = 0;
  for (const auto& r : out.report.results) {
    passed += r.outcome == core::Outcome::pass;
    failed += core::is_failure(r.outcome);
    infra += r.outcome == core::Outcome::infra;
  }
  nlohmann::json finished{{"run", out.id}, {"technique", out.spec.technique}, {"purpose", out.spec.purpose},
                          {"passed", passed}, {"failed", failed}, {"infra", infra},
                          {"wall_ms", out.report.wall_ms}, {"runs_done", done},
                          {"runs_planned", target_.runs_planned.load()}};
  if (out.spec.tests.size() == 1 && !out.report.results.empty())
    finished["outcome"] = core::outcome_name(out.report.results[0].outcome);
  if (!out.report.infra_reason.empty()) finished["infra_reason"] = out.report.infra_reason;
  target_.events.append("run_finished", finished.dump());
  return out;
}

util::Result<std::vector<core::RecordedRun>> ScanRunLog::run_all(const std::vector<core::RunSpec>& specs) {
  std::vector<core::RecordedRun> out(specs.size());
  std::atomic<size_t> next{0};
  std::mutex error_mutex;
  std::optional<util::Error> first_error;
  auto work = [&] {
    for (size_t i = next++; i < specs.size(); i = next++) {
      {
        std::lock_guard lock(error_mutex);
        if (first_error) return;
      }
      auto r = run(specs[i]);
      if (!r) {
        std::lock_guard lock(error_mutex);
        if (!first_error) first_error = r.error();
        return;
      }
      out[i] = std::move(*r);
    }
  };
  size_t n = std::min<size_t>(size_t(parallelism_), specs.size());
  std::vector<std::thread> threads;
  for (size_t t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (first_error) return std::unexpected(*first_error);
  return out;
}

}  // namespace flakescan::scan
