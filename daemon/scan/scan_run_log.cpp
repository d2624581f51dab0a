#include "scan/scan_run_log.hpp"

#include <algorithm>

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
  return core::run_in_parallel(specs, parallelism_, [this](const core::RunSpec& spec) { return run(spec); });
}

}  // namespace flakescan::scan
