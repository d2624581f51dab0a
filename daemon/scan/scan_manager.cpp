#include "scan/scan_manager.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "rerun/outcome_tally.hpp"
#include "core/deciding.hpp"
#include "scan/scan_run_log.hpp"
#include "scan/technique_table.hpp"
#include "scan/verdict_json.hpp"
#include "util/log.hpp"
#include "util/timestamp.hpp"

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

bool finished_state(const std::string& s) { return s != "queued" && s != "running"; }

core::Verdict could_not_run(const std::string& test, const std::string& reason) {
  core::Verdict v;
  v.test = test;
  v.verdict = core::VerdictKind::could_not_run;
  v.evidence.reason = reason;
  return v;
}

}  // namespace

ScanManager::ScanManager(store::Store& store, ScanManagerConfig config) : store_(store), config_(std::move(config)) {
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
  store::ScanRecord record;
  record.id = scan->id;
  record.state = "queued";
  record.request = request.to_json().dump();
  record.backend = request.backend;
  record.techniques = request.techniques;
  record.seed = std::int64_t(request.seed);
  record.daemon = config_.daemon_id;
  record.group = request.group;
  record.shard = request.shard ? request.shard->str() : std::string();
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
          save_state(q->id, "interrupted", "the daemon stopped before the scan started");
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
    save_state(scan->id, state, error);
    json e{{"state", state}};
    if (!error.empty()) e["error"] = error;
    events.append("state", e.dump());
  };
  auto stopped_state = [&] { return scan->by_shutdown ? "interrupted" : "cancelled"; };
  set_state("running");
  log->info("scan {} started: {} ids, techniques {}", scan->id, request.tests.size(), json(request.techniques).dump());

  std::vector<core::Verdict> verdicts;
  std::string scan_error;
  auto executor = make_executor(request, scan->id);
  std::vector<std::string> tests;
  if (!executor) {
    scan_error = executor.error().message;
  } else {
    auto discovery = (*executor)->discover(request.tests, scan->cancel);
    if (!discovery && discovery.error().code == Errc::cancelled) {
      set_state(stopped_state());
      events.close();
      return;
    }
    if (!discovery) {
      scan_error = "could not list the tests: " + discovery.error().message;
    } else {
      tests = discovery->tests;
      for (const auto& [id, reason] : discovery->missing)
        if (!request.shard || core::in_shard(id, *request.shard)) verdicts.push_back(could_not_run(id, reason));
      if (request.shard) {
        tests = core::shard_share(tests, *request.shard);
        log->info("scan {}: shard {} of group {}: {} tests", scan->id, request.shard->str(), request.group, tests.size());
      }
      if (!request.new_since.empty()) tests = new_since(request.new_since, std::move(tests), events, scan->id);
    }
  }
  if (!scan_error.empty()) {
    for (const auto& id : request.tests)
      if (!request.shard || core::in_shard(id.str(), *request.shard)) verdicts.push_back(could_not_run(id.str(), scan_error));
  }
  store_.set_scan_progress(scan->id, int(tests.size()), 0);
  if (auto warning = budget_warning(request, tests.size()); !warning.empty()) {
    log->warn("scan {}: {}", scan->id, warning);
    events.append("warning", json{{"message", warning}}.dump());
  }

  std::map<std::string, core::Verdict> merged;
  if (!tests.empty()) {
    int parallelism = request.parallelism > 0 ? request.parallelism : (*executor)->parallelism();
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(request.budget.max_seconds);
    ScanRunLog runs(**executor, RunLogTarget{scan->id, store_, events, scan->cancel, scan->runs_done, scan->runs_planned},
                    parallelism, request.timeout_seconds, deadline);
    core::TechniqueInput input{tests, request.budget, request.seed, request.fresh_jvm_per_run, request.strategy};
    input.classpath = (*executor)->process_classpath();
    std::error_code cwd_error;
    input.project_dir = !request.working_dir.empty() ? request.working_dir : std::filesystem::current_path(cwd_error).string();
    input.source_roots = request.sources;
    input.shuffle_seeds = request.shuffle_seeds;
    input.shuffle_mode = request.shuffle_mode;
    input.shuffle_rounds = request.shuffle_rounds;
    input.tools = config_.tools;
    for (const auto& technique : technique_table()) {
      if (std::find(request.techniques.begin(), request.techniques.end(), technique.name) == request.techniques.end())
        continue;
      auto found = technique.run(input, runs);
      if (!found && found.error().code == Errc::cancelled) {
        set_state(stopped_state());
        events.close();
        return;
      }
      if (!found) {
        log->error("scan {}: technique {} failed: {}", scan->id, technique.name, util::describe(found.error()));
        scan_error += (scan_error.empty() ? "" : "; ") + std::string(technique.name) + ": " + found.error().message;
        continue;
      }
      input.earlier.insert(input.earlier.end(), found->begin(), found->end());  // for `repair`
      for (auto& v : *found) {
        auto it = merged.find(v.test);
        if (it == merged.end()) merged.emplace(v.test, std::move(v));
        else it->second = core::merge_verdicts(it->second, v);
      }
    }
    // Every finding is checked against every run of the scan, then the verdict is made to
    // agree with its evidence (core/deciding.hpp, core::honest_verdict).
    auto scan_runs = store_.runs_of_scan(scan->id);
    if (!scan_runs) log->error("scan {}: reading its runs back: {}", scan->id, scan_runs.error().message);
    for (const auto& test : tests) {
      auto it = merged.find(test);
      if (it == merged.end()) {
        verdicts.push_back(could_not_run(test, "no technique reached this test"));
        continue;
      }
      core::Verdict v = scan_runs ? core::check_deciding(it->second, *scan_runs) : it->second;
      verdicts.push_back(core::honest_verdict(std::move(v)));
    }
  }

  // Every verdict's pass/fail strip (evidence.run_strip) comes from the scan's runs as stored.
  auto strip_runs = store_.runs_of_scan(scan->id);
  RunLookup lookup = [&](std::int64_t id) -> std::optional<core::RecordedRun> {
    auto r = store_.run(id);
    return r ? std::optional(*r) : std::nullopt;
  };
  std::vector<store::VerdictRow> rows;
  for (const auto& v : verdicts) {
    json body = verdict_to_json(v, lookup, strip_runs ? &*strip_runs : nullptr);
    rows.push_back({v.test, std::string(core::verdict_name(v.verdict)), std::string(core::category_name(v.category)), body.dump()});
    events.append("verdict", body.dump());
  }
  if (auto r = store_.save_verdicts(scan->id, rows); !r) scan_error += "; saving verdicts: " + r.error().message;
  store_.set_scan_progress(scan->id, int(tests.size()), scan->runs_planned);
  bool nothing_ran = tests.empty() || scan->runs_done == 0;
  set_state(nothing_ran && !scan_error.empty() ? "failed" : "completed", scan_error);
  log->info("scan {} finished: {} verdicts, {} runs", scan->id, verdicts.size(), scan->runs_done.load());
  events.close();
}

std::vector<std::string> ScanManager::new_since(const std::string& branch, std::vector<std::string> tests,
                                               EventLog& events, const std::string& scan_id) {
  auto known = store_.tests_on_branch(branch);
  std::string message;
  if (!known) {
    message = "could not read the CI history of branch '" + branch + "' (" + known.error().message +
              "): every selected test counts as new";
  } else if (known->imports == 0) {
    message = "no CI results of branch '" + branch + "' in the history (flakescan import-results --branch " + branch +
              "): every selected test counts as new";
  } else {
    std::set<std::string> seen(known->tests.begin(), known->tests.end());
    std::vector<std::string> fresh;
    for (auto& t : tests)
      if (!seen.contains(t)) fresh.push_back(std::move(t));
    message = std::to_string(fresh.size()) + " of the selected tests are new since branch '" + branch + "' (" +
              std::to_string(known->imports) + " imports of it): only they are scanned";
    tests = std::move(fresh);
  }
  util::logger("scan")->info("scan {}: {}", scan_id, message);
  events.append("warning", json{{"message", message}}.dump());
  return tests;
}

void ScanManager::save_state(const std::string& id, const std::string& state, const std::string& error) {
  std::lock_guard write(state_write_mutex_);
  auto saved = store_.set_scan_state(id, state, error);
  std::lock_guard lock(mutex_);
  if (saved) {
    unsaved_.erase(id);
    return;
  }
  util::logger("scan")->error("scan {}: the store did not take its state '{}': {}", id, state, util::describe(saved.error()));
  // What a client reads must say why the store holds something else.
  std::string why = "the store could not record this state: " + saved.error().message;
  unsaved_[id] = UnsavedState{state, error.empty() ? why : error + "; " + why, util::utc_timestamp()};
}

void ScanManager::flush_unsaved() {
  {
    std::lock_guard lock(mutex_);
    if (unsaved_.empty()) return;  // the usual case: no store write, no wait
  }
  std::lock_guard write(state_write_mutex_);
  std::map<std::string, UnsavedState> pending;
  {
    std::lock_guard lock(mutex_);
    pending = unsaved_;
  }
  for (const auto& [id, u] : pending) {
    if (!store_.set_scan_state(id, u.state, u.error)) return;  // still refused: try at the next read
    std::lock_guard lock(mutex_);
    if (auto it = unsaved_.find(id); it != unsaved_.end() && it->second.state == u.state && it->second.at == u.at)
      unsaved_.erase(it);
  }
}

void ScanManager::overlay_unsaved(store::ScanRecord& record) {
  std::lock_guard lock(mutex_);
  auto it = unsaved_.find(record.id);
  if (it == unsaved_.end()) return;
  const UnsavedState& u = it->second;
  record.state = u.state;
  if (!u.error.empty()) record.error = u.error;
  if (u.state == "running" && record.started_at.empty()) record.started_at = u.at;
  if (finished_state(u.state)) record.finished_at = u.at;
}

util::Result<store::ScanRecord> ScanManager::get(const std::string& id) {
  flush_unsaved();
  auto record = store_.scan(id);
  if (!record) return record;
  overlay_unsaved(*record);
  std::lock_guard lock(mutex_);
  if (auto it = live_.find(id); it != live_.end()) record->runs_planned = it->second->runs_planned;
  return record;
}

util::Result<std::vector<store::ScanRecord>> ScanManager::list(int limit) {
  flush_unsaved();
  auto records = store_.scans(limit);
  if (records)
    for (auto& r : *records) overlay_unsaved(r);
  return records;
}

util::Result<nlohmann::json> ScanManager::verdict_file(const std::string& id) {
  auto record = get(id);
  if (!record) return std::unexpected(record.error());
  if (!finished_state(record->state))
    return util::fail(Errc::conflict, "scan '" + id + "' is still " + record->state + "; verdicts come when it finishes");
  auto rows = store_.verdicts(id);
  if (!rows) return std::unexpected(rows.error());
  json verdicts = json::array();
  for (const auto& row : *rows) verdicts.push_back(json::parse(row.body));
  return json{{"schema_version", 1}, {"scan", scan_json(*record)}, {"verdicts", verdicts}};
}

json ScanManager::scan_json(const store::ScanRecord& r) {
  return json{{"id", r.id}, {"state", r.state}, {"backend", r.backend}, {"techniques", r.techniques},
              {"seed", r.seed}, {"created_at", r.created_at},
              {"finished_at", r.finished_at.empty() ? json(nullptr) : json(r.finished_at)},
              {"error", r.error.empty() ? json(nullptr) : json(r.error)}};
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
          unsaved_[id] = UnsavedState{"cancelled", "the store could not record this state: " + saved.error().message,
                                      util::utc_timestamp()};
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
  auto asked = parse_replay_request(body);
  if (!asked) return std::unexpected(asked.error());
  const std::string test = asked->test;
  const int runs_wanted = asked->runs;
  auto record = store_.scan(id);
  if (!record) return std::unexpected(record.error());
  auto rows = store_.verdicts(id);
  if (!rows) return std::unexpected(rows.error());
  auto row = std::find_if(rows->begin(), rows->end(), [&](const store::VerdictRow& r) { return r.test == test; });
  if (row == rows->end()) return util::fail(Errc::not_found, "scan '" + id + "' has no verdict for " + test);
  json verdict = json::parse(row->body);
  const json& evidence = verdict["evidence"];
  std::vector<std::string> reproducer;
  if (evidence.contains("reproducer")) reproducer = evidence["reproducer"].get<std::vector<std::string>>();
  else if (evidence.contains("failing_run") && evidence["failing_run"].contains("order"))
    reproducer = evidence["failing_run"]["order"].get<std::vector<std::string>>();
  if (reproducer.empty())
    return util::fail(Errc::conflict, "the verdict for " + test + " has no failing run to replay");

  auto request = parse_scan_request(json::parse(record->request), technique_names());
  if (!request) return util::fail(Errc::conflict, "the scan can no longer run: " + request.error().message);
  auto executor = make_executor(*request, id + "/replay");
  if (!executor) return std::unexpected(executor.error());
  std::atomic<bool> cancel{false};
  std::atomic<int> done{0}, planned{0};
  EventLog scratch;
  ScanRunLog runs(**executor, RunLogTarget{id, store_, scratch, cancel, done, planned}, (*executor)->parallelism(),
                  request->timeout_seconds, std::chrono::steady_clock::time_point::max());
  // Where the reproducer runs a class again (nio-isolated-class: "1" for t | t).
  std::vector<size_t> class_run_starts;
  if (evidence.contains("details") && evidence["details"].contains("class_run_starts") &&
      evidence["details"]["class_run_starts"].is_string()) {
    std::string text = evidence["details"]["class_run_starts"].get<std::string>();
    for (size_t at = 0; at < text.size();) {
      size_t comma = text.find(',', at);
      if (comma == std::string::npos) comma = text.size();
      size_t pos = 0;
      auto [end, ec] = std::from_chars(text.data() + at, text.data() + comma, pos);
      if (ec == std::errc{} && end == text.data() + comma && pos > 0 && pos < reproducer.size()) class_run_starts.push_back(pos);
      at = comma + 1;
    }
  }
  std::vector<core::RunSpec> specs(static_cast<size_t>(runs_wanted));
  for (int i = 0; i < runs_wanted; ++i) {
    specs[i].tests = reproducer;
    specs[i].class_run_starts = class_run_starts;
    specs[i].technique = "replay";
    specs[i].purpose = "replay " + std::to_string(i + 1) + "/" + std::to_string(runs_wanted) + " of " + test;
    specs[i].seed = request->seed;
  }
  // A technique whose reproducer is a schedule (explore) replays through its table entry.
  std::string technique = verdict.value("technique", "");
  auto entry = std::find_if(technique_table().begin(), technique_table().end(),
                            [&](const TechniqueEntry& t) { return t.name == technique && t.replay; });
  util::Result<std::vector<core::RecordedRun>> finished = std::vector<core::RecordedRun>{};
  if (entry != technique_table().end()) {
    auto details = evidence.value("details", json::object()).get<std::map<std::string, std::string>>();
    for (int i = 0; i < runs_wanted && finished; ++i) {
      auto run = entry->replay(test, details, runs);
      if (run) finished->push_back(std::move(*run));
      else finished = std::unexpected(run.error());
    }
  } else {
    finished = runs.run_all(specs);
  }
  if (!finished) return std::unexpected(finished.error());
  rerun::OutcomeTally tally;
  json run_list = json::array();
  for (const auto& run : *finished) {
    tally.add(run);
    std::string outcome = "infra";
    for (const auto& r : run.report.results) {
      if (r.test != test) continue;
      // The test's last occurrence decides (a NIO reproducer runs it twice; the second fails).
      outcome = std::string(core::outcome_name(r.outcome));
    }
    run_list.push_back(json{{"id", run.id}, {"outcome", outcome}});
  }
  int failed = 0;
  for (const auto& r : run_list) failed += r["outcome"] == "fail" || r["outcome"] == "error";
  return json{{"scan", id}, {"test", test}, {"reproducer", reproducer}, {"runs", run_list},
              {"failed", failed}, {"total", runs_wanted}, {"reproduced", failed > 0}};
}

}  // namespace flakescan::scan
