#include "scan/scan_manager.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>

#include "scan/scan_json.hpp"
#include "scan/scan_replay.hpp"
#include "scan/scan_run_log.hpp"
#include "scan/scan_techniques.hpp"
#include "scan/merge_and_decide.hpp"
#include "util/log.hpp"

namespace flakescan::scan {

using nlohmann::json;
using util::Errc;

struct LiveScan {
  std::string id;
  ScanRequest request;
  std::shared_ptr<EventLog> events = std::make_shared<EventLog>();
  std::atomic<bool> cancel{false};
  std::atomic<bool> by_shutdown{false};
  std::atomic<int> runs_done{0};
  std::atomic<int> runs_planned{0};
};

namespace {

std::string new_scan_id() {
  static std::mutex m;
  static std::mt19937_64 engine{std::random_device{}()};
  std::lock_guard lock(m);
  static const char* hex = "0123456789abcdef";
  std::string id = "s";
  auto v = engine();
  for (int i = 0; i < 12; ++i) id += hex[(v >> (4 * i)) & 0xf];
  return id;
}

store::ScanRecord queued_record(const std::string& id, const ScanRequest& request, const std::string& daemon_id) {
  store::ScanRecord record;
  record.id = id;
  record.state = "queued";
  record.request = request.to_json().dump();
  record.backend = request.backend;
  record.techniques = request.techniques;
  record.seed = std::int64_t(request.seed);
  record.daemon = daemon_id;
  record.group = request.group;
  record.shard = request.shard ? request.shard->str() : std::string();
  return record;
}

}  // namespace

ScanManager::ScanManager(store::Store& store, ScanManagerConfig config)
    : store_(store), config_(std::move(config)), states_(store) {
  for (int i = 0; i < std::max(1, config_.max_concurrent_scans); ++i) workers_.emplace_back([this] { worker_loop(); });
}

ScanManager::~ScanManager() { shutdown(); }

void ScanManager::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && workers_.empty()) return;
    stopping_ = true;
    for (auto& [id, scan] : live_) {
      scan->by_shutdown = true;
      scan->cancel = true;
    }
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
  workers_.clear();
}

util::Result<store::ScanRecord> ScanManager::submit(const ScanRequest& request) {
  if (!config_.backends.contains(request.backend))
    return util::fail(Errc::unsupported, "the '" + request.backend + "' backend is not available in this daemon");
  if (auto check = config_.checks.find(request.backend); check != config_.checks.end())
    if (auto ok = check->second(request); !ok) return std::unexpected(ok.error());
  auto scan = std::make_shared<LiveScan>();
  scan->id = new_scan_id();
  scan->request = request;
  store::ScanRecord record = queued_record(scan->id, request, config_.daemon_id);
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return util::fail(Errc::cancelled, "the daemon is shutting down");
    if (auto r = store_.create_scan(record); !r) return std::unexpected(r.error());
    live_[scan->id] = scan;
    queue_.push_back(scan);
  }
  scan->events->append("state", json{{"state", "queued"}}.dump());
  wake_.notify_one();
  return store_.scan(scan->id);
}

bool ScanManager::busy() {
  std::lock_guard lock(mutex_);
  return !live_.empty();
}

void ScanManager::worker_loop() {
  for (;;) {
    std::shared_ptr<LiveScan> scan;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) {
        auto queued = std::move(queue_);
        queue_.clear();
        lock.unlock();
        for (auto& q : queued) {
          states_.save(q->id, "interrupted", "the daemon stopped before the scan started");
          q->events->close();
        }
        return;
      }
      scan = queue_.front();
      queue_.pop_front();
    }
    run_scan(scan);
    std::lock_guard lock(mutex_);
    live_.erase(scan->id);
  }
}

util::Result<std::unique_ptr<core::TestExecutor>> ScanManager::make_executor(const ScanRequest& request,
                                                                             const std::string& id) {
  auto it = config_.backends.find(request.backend);
  if (it == config_.backends.end()) return util::fail(Errc::unsupported, "no backend '" + request.backend + "'");
  return it->second(request, config_.data_dir / "scans" / id);
}

void ScanManager::run_scan(const std::shared_ptr<LiveScan>& scan) {
  auto log = util::logger("scan");
  auto& events = *scan->events;
  const auto& request = scan->request;
  auto set_state = [&](const std::string& state, const std::string& error = {}) {
    states_.save(scan->id, state, error);
    json e{{"state", state}};
    if (!error.empty()) e["error"] = error;
    events.append("state", e.dump());
  };
  auto stop = [&] {
    set_state(scan->by_shutdown ? "interrupted" : "cancelled");
    events.close();
  };
  set_state("running");
  log->info("scan {} started: {} ids, techniques {}", scan->id, request.tests.size(), json(request.techniques).dump());

  // Which tests: discovery, the shard's share, new_since (scan_techniques.hpp).
  auto executor = make_executor(request, scan->id);
  SelectedTests selected;
  if (!executor) selected.error = executor.error().message;
  else selected = select_tests(**executor, request, scan->id, store_, events, scan->cancel);
  if (selected.cancelled) return stop();
  const std::vector<std::string>& tests = selected.tests;
  std::vector<core::Verdict> verdicts = std::move(selected.missing);
  std::string scan_error = selected.error;
  if (!scan_error.empty()) {
    for (const auto& id : request.tests)
      if (!request.shard || core::in_shard(id.str(), *request.shard)) verdicts.push_back(could_not_run(id.str(), scan_error));
  }
  store_.set_scan_progress(scan->id, int(tests.size()), 0);
  if (auto warning = budget_warning(request, tests.size()); !warning.empty()) {
    log->warn("scan {}: {}", scan->id, warning);
    events.append("warning", json{{"message", warning}}.dump());
  }

  // The techniques, then the verdicts (merge_and_decide.hpp).
  TechniqueResults found;
  if (!tests.empty()) {
    found = run_techniques(**executor, request, tests,
                           RunLogTarget{scan->id, store_, events, scan->cancel, scan->runs_done, scan->runs_planned},
                           config_.tools);
    if (found.cancelled) {
      executor->reset();  // its JVMs (those started ahead too) die before the scan says it ended
      return stop();
    }
    if (!found.error.empty()) scan_error += (scan_error.empty() ? "" : "; ") + found.error;
  }
  // No run is made after the techniques: the executor goes now, and with it any JVM it keeps
  // started ahead (local backend), before anyone hears that the scan ended.
  if (executor) executor->reset();
  // Read once, after the techniques returned: no run of this scan is made after that. Deciding
  // checks each finding against them, and each verdict's run strip is drawn from them.
  auto scan_runs = store_.runs_of_scan(scan->id);
  if (!scan_runs && !tests.empty()) log->error("scan {}: reading its runs back: {}", scan->id, scan_runs.error().message);
  std::optional<core::RunIndex> index;
  if (scan_runs) index.emplace(*scan_runs);
  const core::RunIndex* stored_runs = index ? &*index : nullptr;
  if (!tests.empty()) {
    auto decided = decide_verdicts(tests, found.merged, stored_runs);
    verdicts.insert(verdicts.end(), std::make_move_iterator(decided.begin()), std::make_move_iterator(decided.end()));
  }
  auto rows = publish_verdicts(verdicts, store_, stored_runs, events);
  if (auto r = store_.save_verdicts(scan->id, rows); !r) scan_error += "; saving verdicts: " + r.error().message;
  store_.set_scan_progress(scan->id, int(tests.size()), scan->runs_planned);
  bool nothing_ran = tests.empty() || scan->runs_done == 0;
  set_state(nothing_ran && !scan_error.empty() ? "failed" : "completed", scan_error);
  log->info("scan {} finished: {} verdicts, {} runs", scan->id, verdicts.size(), scan->runs_done.load());
  events.close();
}

util::Result<store::ScanRecord> ScanManager::get(const std::string& id) {
  states_.flush();
  auto record = store_.scan(id);
  if (!record) return record;
  states_.overlay(*record);
  std::lock_guard lock(mutex_);
  if (auto it = live_.find(id); it != live_.end()) record->runs_planned = it->second->runs_planned;
  return record;
}

util::Result<std::vector<store::ScanRecord>> ScanManager::list(int limit) {
  states_.flush();
  auto records = store_.scans(limit);
  if (records)
    for (auto& r : *records) states_.overlay(r);
  return records;
}

util::Result<std::string> ScanManager::verdict_file_text(const std::string& id) {
  auto record = get(id);
  if (!record) return std::unexpected(record.error());
  if (!finished_state(record->state))
    return util::fail(Errc::conflict, "scan '" + id + "' is still " + record->state + "; verdicts come when it finishes");
  auto rows = store_.verdicts(id);
  if (!rows) return std::unexpected(rows.error());
  // Each stored body is the JSON of one verdict already: parsing and dumping them again cost
  // about 0.5 s of CPU for a 2,000-test scan, after its last run. Keys in the order a json
  // object dumps them.
  std::size_t size = 512;  // the scan object and the brackets
  for (const auto& row : *rows) size += row.body.size() + 1;
  std::string out;
  out.reserve(size);
  out += R"({"scan":)" + verdict_file_scan_json(*record).dump() + R"(,"schema_version":1,"verdicts":[)";
  for (std::size_t i = 0; i < rows->size(); ++i) {
    if (i > 0) out += ',';
    out += (*rows)[i].body;
  }
  out += "]}";
  return out;
}

util::Result<nlohmann::json> ScanManager::verdict_file(const std::string& id) {
  auto text = verdict_file_text(id);
  if (!text) return std::unexpected(text.error());
  return json::parse(*text);
}

util::Result<store::ScanRecord> ScanManager::cancel(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    auto it = live_.find(id);
    if (it != live_.end()) {
      it->second->cancel = true;
      auto queued = std::find(queue_.begin(), queue_.end(), it->second);
      if (queued != queue_.end()) {
        queue_.erase(queued);
        if (auto saved = store_.set_scan_state(id, "cancelled"); !saved)
          states_.keep_refused(id, "cancelled", "", saved.error());
        it->second->events->append("state", json{{"state", "cancelled"}}.dump());
        it->second->events->close();
        live_.erase(it);
      }
    }
  }
  return get(id);
}

util::Result<std::shared_ptr<EventLog>> ScanManager::events(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = live_.find(id); it != live_.end()) return it->second->events;
  }
  auto record = get(id);
  if (!record) return std::unexpected(record.error());
  auto log = std::make_shared<EventLog>();
  auto rows = store_.verdicts(id);
  if (rows)
    for (const auto& row : *rows) log->append("verdict", row.body);
  json state{{"state", record->state}, {"runs_done", record->runs_done}};
  if (!record->error.empty()) state["error"] = record->error;
  log->append("state", state.dump());
  log->close();
  return log;
}

util::Result<nlohmann::json> ScanManager::replay(const std::string& id, const nlohmann::json& body) {
  return replay_verdict(store_, id, body, [&](const ScanRequest& request) { return make_executor(request, id + "/replay"); });
}

}  // namespace flakescan::scan
