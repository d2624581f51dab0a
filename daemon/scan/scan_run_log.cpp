#include "scan/scan_run_log.hpp"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "util/log.hpp"

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
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  auto t = clock::now();
  target_.events.append("run_started", nlohmann::json{{"technique", out.spec.technique}, {"purpose", out.spec.purpose},
                                                      {"tests", out.spec.tests.size()}}.dump());
  const double started_event_ms = ms_since(t);
  auto report = drive ? executor_.run_debugged(out.spec, target_.cancel, *drive) : executor_.run(out.spec, target_.cancel);
  if (!report) return std::unexpected(report.error());
  out.report = std::move(*report);
  t = clock::now();
  auto id = target_.store.record_run(target_.scan_id, out.spec, out.report);  // committed before anyone is told
  if (!id) return std::unexpected(id.error());
  out.report.steps.store_ms = ms_since(t);
  out.id = *id;
  t = clock::now();
  publish_finished(out);
  out.report.steps.events_ms = started_event_ms + ms_since(t);
  log_steps(out);
  return out;
}

void ScanRunLog::publish_finished(const core::RecordedRun& out) {
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
  if (out.report.prestarted) finished["jvm"] = "prestarted";
  target_.events.append("run_finished", finished.dump());
}

void ScanRunLog::log_steps(const core::RecordedRun& out) {
  static auto log = util::logger("steps");
  const auto& s = out.report.steps;
  log->debug("run {} steps: launch_ms={:.2f} jvm_ms={:.2f} results_ms={:.2f} store_ms={:.2f} events_ms={:.2f} jvm={}", out.id,
             s.launch_ms, s.jvm_ms, s.results_ms, s.store_ms, s.events_ms, out.report.prestarted ? "prestarted" : "started");
}

util::Result<std::vector<core::RecordedRun>> ScanRunLog::run_all(const std::vector<core::RunSpec>& specs) {
  return core::run_in_parallel(specs, parallelism_, [this](const core::RunSpec& spec) { return run(spec); });
}

}  // namespace flakescan::scan
