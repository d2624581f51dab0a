#pragma once
// The scan layer's facade: the queue and each scan's lifecycle. Takes validated requests, runs
// them on worker threads (never on the network threads) and serves status, events, verdicts,
// cancellation and replays. The work of one scan lives beside it, one job per file:
// scan_techniques.* (which tests, running the techniques), merge_and_decide.* (merging and
// deciding), scan_states.* (states the store refused), scan_replay.*, scan_json.*.
//
// Policy and invariants:
// - a scan is queued, then running, then completed | failed | cancelled | interrupted;
//   at most `max_concurrent_scans` run at once; the rest wait in FIFO order;
// - every run goes through ScanRunLog, which writes it to the store before it reports it,
//   so events and verdicts only ever name runs that are stored;
// - cancel (DELETE) and shutdown set the scan's cancel flag: executors kill their processes,
//   techniques stop; a scan stopped by shutdown is `interrupted`, by DELETE `cancelled`;
// - a state change the store cannot take (disk full, read-only file system) is kept (ScanStates) and
//   served instead of the store's stale state (a scan never looks `running` after it ended),
//   and written as soon as the store takes writes again; a daemon that stops first leaves
//   the scan to be marked `interrupted` at its next start;
// - the scan's time budget (budget.max_seconds) makes later runs come back unrun (id 0, no
//   results) instead of failing the technique, so the verdicts of what ran are kept.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/test_executor.hpp"
#include "core/tools.hpp"
#include "scan/event_log.hpp"
#include "scan/scan_request.hpp"
#include "scan/scan_states.hpp"
#include "store/store.hpp"

namespace flakescan::scan {

// Builds the executor for one scan (its own work folder for files and logs).
using ExecutorFactory = std::function<util::Result<std::unique_ptr<core::TestExecutor>>(
    const ScanRequest&, const std::filesystem::path& work_dir)>;

struct ScanManagerConfig {
  std::filesystem::path data_dir;                  // scans/<id>/ holds each scan's files
  std::map<std::string, ExecutorFactory> backends; // "local", "adb"
  // Per backend, what it checks of a request before the scan is queued (the local one: the
  // classpath exists); its error is the request's answer (invalid_argument: a 400).
  std::map<std::string, std::function<util::Result<void>(const ScanRequest&)>> checks;
  int max_concurrent_scans = 1;
  std::shared_ptr<core::Tools> tools;              // for the techniques (javac, a load); null: none
  std::string daemon_id;                           // written on each scan (store::ScanRecord::daemon)
};

struct LiveScan;

class ScanManager {
 public:
  ScanManager(store::Store& store, ScanManagerConfig config);
  ~ScanManager();

  util::Result<store::ScanRecord> submit(const ScanRequest& request);
  util::Result<store::ScanRecord> get(const std::string& id);
  util::Result<std::vector<store::ScanRecord>> list(int limit);
  // The verdict file of a scan (schema/verdicts.schema.json); conflict while it runs. As text,
  // the stored verdicts spliced in as they are (GET /v1/scans/ID/verdicts serves it so);
  // as JSON, that text parsed.
  util::Result<std::string> verdict_file_text(const std::string& id);
  util::Result<nlohmann::json> verdict_file(const std::string& id);
  util::Result<store::ScanRecord> cancel(const std::string& id);
  // True while a scan is queued or running.
  bool busy();
  // The scan's event log; for a scan that is not live any more, a closed log holding its
  // final state and verdicts.
  util::Result<std::shared_ptr<EventLog>> events(const std::string& id);
  // Re-runs a verdict's reproducer (blocking). Body: {"test": "p.C#m", "runs": 3}.
  util::Result<nlohmann::json> replay(const std::string& id, const nlohmann::json& body);

  // Stops accepting, cancels running scans (they end `interrupted`) and joins the workers.
  void shutdown();

 private:
  void worker_loop();
  // One scan from `running` to its end (the data flow is in docs/design.md).
  void run_scan(const std::shared_ptr<LiveScan>& scan);
  util::Result<std::unique_ptr<core::TestExecutor>> make_executor(const ScanRequest& request, const std::string& id);

  store::Store& store_;
  ScanManagerConfig config_;
  ScanStates states_;  // states the store refused (scan_states.hpp); its own lock is taken after mutex_
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<LiveScan>> queue_;
  std::map<std::string, std::shared_ptr<LiveScan>> live_;
  std::vector<std::thread> workers_;
  bool stopping_ = false;
};

}  // namespace flakescan::scan
