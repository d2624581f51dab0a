#include "ui_crawl/crawl_manager.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <set>

#include "backend/adb/apk.hpp"
#include "backend/adb/config_json.hpp"
#include "backend/adb/adb_executor.hpp"
#include "backend/adb/monkey.hpp"
#include "backend/adb/shell_command.hpp"
#include "ui_crawl/guidance.hpp"
#include "util/log.hpp"
#include "util/timestamp.hpp"

namespace flakescan::ui_crawl {

namespace fs = std::filesystem;
using nlohmann::json;
using util::Errc;

namespace {

constexpr const char* status_file = "exploration.json";


std::string new_exploration_id() {
  static std::mutex m;
  static std::mt19937_64 engine{std::random_device{}()};
  std::lock_guard lock(m);
  std::uint64_t v = engine();
  static const char* hex = "0123456789abcdef";
  std::string id = "e";
  for (int i = 0; i < 12; ++i) id += hex[(v >> (4 * i)) & 0xf];
  return id;
}

bool running(const json& status) { return status.value("state", "") == "running"; }

// The screens a run recorded, read back from its trace: the monkey ends every step that got a
// dump with one line of actions.jsonl. A line cut by a kill has no newline and is not counted.
// (The tarpit importer keeps one screen per millisecond, so its count can be lower.)
std::size_t recorded_screens(const fs::path& trace) {
  std::ifstream in(trace / "actions.jsonl", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t lines = 0, begin = 0;
  for (auto nl = text.find('\n'); nl != std::string::npos; begin = nl + 1, nl = text.find('\n', begin))
    if (text.find_first_not_of(" \t\r", begin) < nl) ++lines;
  return lines;
}

void set_counts(json& status, const backend::adb::CrawlResult& r) {
  status["steps"] = r.steps;
  status["screens"] = r.screens;
  status["restarts"] = r.restarts;
  status["crashes"] = r.crashes;
  status["events"] = r.events;
  status["problems"] = r.problems;
}

// The APK's bytes, installed as the scan executor installs them.
util::Result<void> install_apk(const backend::adb::Lease& lease, const std::string& apk_path, const core::CancelFlag& cancel) {
  std::ifstream in(apk_path, std::ios::binary);
  if (!in) return util::fail(Errc::io, "cannot read " + apk_path);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return backend::adb::install_apk(lease, apk_path, bytes, backend::adb::wire::after(std::chrono::minutes(5)), cancel);
}

// A lease on the requested device, or on any free one. acquire() only knows exclusions, so
// every other device it has seen is excluded; one plugged in meanwhile is given back.
util::Result<backend::adb::Lease> lease_device(backend::adb::DeviceRegistry& registry, const std::string& serial,
                                               std::chrono::milliseconds wait, const core::CancelFlag& cancel) {
  std::set<std::string> exclude;
  auto until = std::chrono::steady_clock::now() + wait;
  for (;;) {
    if (!serial.empty())
      for (const auto& d : registry.snapshot())
        if (d.serial != serial) exclude.insert(d.server + "/" + d.serial);
    auto left = std::max(std::chrono::milliseconds(0),
                         std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()));
    auto lease = registry.acquire(exclude, left, &cancel);
    if (!lease) {
      if (!serial.empty() && lease.error().code == Errc::not_found)
        return util::fail(Errc::not_found, "device " + serial + " is not connected in state `device`");
      if (!serial.empty() && lease.error().code == Errc::timeout)
        return util::fail(Errc::timeout, "device " + serial + " stayed busy");
      return std::unexpected(lease.error());
    }
    if (serial.empty() || lease->serial() == serial) return std::move(*lease);
    exclude.insert(lease->key());
  }
}

}  // namespace

CrawlManager::CrawlManager(CrawlManagerConfig config) : config_(std::move(config)) { load_stored(); }

CrawlManager::~CrawlManager() { shutdown(); }

fs::path CrawlManager::dir_of(const std::string& id) const { return config_.data_dir / "explorations" / id; }

util::Result<void> CrawlManager::persist(const std::string& id, const json& status) const {
  fs::path dir = dir_of(id);
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path tmp = dir / (std::string(status_file) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << status.dump(2) << "\n";
    out.flush();
    if (!out) return util::fail(Errc::io, "cannot write " + tmp.string());
  }
  fs::rename(tmp, dir / status_file, ec);
  if (ec) return util::fail(Errc::io, "cannot rename " + tmp.string() + ": " + ec.message());
  return {};
}

void CrawlManager::load_stored() {
  auto log = util::logger("exploration");
  std::error_code ec;
  fs::path root = config_.data_dir / "explorations";
  if (!fs::is_directory(root, ec)) return;
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    std::string id = entry.path().filename().string();
    if (!valid_crawl_id(id)) continue;
    std::ifstream in(entry.path() / status_file);
    json status = json::parse(in, nullptr, false);
    if (status.is_discarded() || !status.is_object() || status.value("id", "") != id) {
      log->warn("exploration {}: no readable {}; skipped", id, status_file);
      continue;
    }
    auto e = std::make_shared<Crawl>();
    e->id = id;
    e->finished = true;
    if (running(status)) {
      // The daemon died while it ran: keep what it recorded and analyse that much.
      status["state"] = "interrupted";
      status["error"] = "the daemon stopped while the exploration ran";
      status["finished_at"] = util::utc_timestamp();
      const json& request = status.contains("request") ? status["request"] : json::object();
      auto options = analysis_options(request.value("mode", "standard"), request.value("analysis", json::object()));
      fs::path trace = entry.path() / "trace";
      if (options && fs::exists(trace / "actions.jsonl")) {
        status["screens"] = recorded_screens(trace);
        if (auto v = analyze_exploration_trace(trace, id, *options)) {
          status["tarpits"] = v->report;
          status["guidance"] = {{"restart_at", restart_at_json(v->restart_at)}};
        }
      }
      if (auto r = persist(id, status); !r) log->error("exploration {}: {}", id, util::describe(r.error()));
      log->warn("exploration {} was running when the daemon last stopped; marked interrupted", id);
    }
    e->status = std::move(status);
    crawls_[id] = std::move(e);
  }
}

bool CrawlManager::busy() const {
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : crawls_)
    if (!e->finished) return true;
  return false;
}

void CrawlManager::reap_finished() {
  for (auto& [id, e] : crawls_)
    if (e->finished && e->thread.joinable()) e->thread.join();
}

util::Result<json> CrawlManager::submit(const json& body) {
  auto request = parse_crawl_request(body, config_.default_servers);
  if (!request) return std::unexpected(request.error());
  auto options = analysis_options(request->mode, request->analysis);
  if (!options) return std::unexpected(options.error());

  std::lock_guard lock(mutex_);
  if (shutting_down_) return util::fail(Errc::conflict, "the daemon is stopping");
  reap_finished();
  if (!request->guided_by.empty()) {
    auto it = crawls_.find(request->guided_by);
    if (it == crawls_.end())
      return util::fail(Errc::invalid_argument, "'guided_by' names no exploration: " + request->guided_by);
    const json& earlier = it->second->status;
    if (running(earlier))
      return util::fail(Errc::conflict, "exploration " + request->guided_by + " is still running; its guidance comes when it ends");
    if (!earlier.contains("guidance") || !earlier["guidance"].is_object())
      return util::fail(Errc::conflict, "exploration " + request->guided_by + " has no tarpit analysis to guide by (it " +
                                            earlier.value("state", "ended") + " before recording a trace)");
    auto screens = parse_restart_at(earlier["guidance"]["restart_at"], "guidance of " + request->guided_by);
    if (!screens) return std::unexpected(screens.error());
    request->restart_at = std::move(*screens);
  }
  std::size_t live = std::count_if(crawls_.begin(), crawls_.end(), [](const auto& kv) { return running(kv.second->status); });
  if (live >= config_.max_running)
    return util::fail(Errc::conflict, std::to_string(live) + " explorations are running (the most at once); wait or cancel one");

  auto e = std::make_shared<Crawl>();
  do e->id = new_exploration_id();
  while (crawls_.contains(e->id));
  json status{{"id", e->id},
              {"state", "running"},
              {"created_at", util::utc_timestamp()},
              {"started_at", nullptr},
              {"finished_at", nullptr},
              {"error", nullptr},
              {"package", request->package},
              {"device", nullptr},
              {"guided_by", request->guided_by.empty() ? json(nullptr) : json(request->guided_by)},
              {"restart_at", restart_at_json(request->restart_at)},
              {"trace_dir", (dir_of(e->id) / "trace").string()},
              {"tarpits", nullptr},
              {"guidance", nullptr},
              {"request", request->to_json()},
              {"links", {{"self", "/v1/explorations/" + e->id}}}};
  set_counts(status, {});
  if (auto r = persist(e->id, status); !r) return std::unexpected(r.error());
  e->status = status;
  crawls_[e->id] = e;
  e->thread = std::thread([this, e, req = std::move(*request)]() mutable { run(e, std::move(req)); });
  return status;
}

void CrawlManager::run(std::shared_ptr<Crawl> e, CrawlRequest request) {
  auto log = util::logger("exploration");
  auto options = analysis_options(request.mode, request.analysis);  // validated at submit
  {
    std::lock_guard lock(mutex_);
    e->status["started_at"] = util::utc_timestamp();
  }
  std::string state = "done", error;
  {
    auto registry = backend::adb::shared_registry(request.servers);
    auto lease = lease_device(*registry, request.serial, std::chrono::seconds(request.device_wait_seconds), e->cancel);
    if (!lease) {
      finish(*e, lease.error().code == Errc::cancelled ? "cancelled" : "failed", "no device: " + lease.error().message, *options);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      e->status["device"] = {{"server", lease->key().substr(0, lease->key().size() - lease->serial().size() - 1)},
                             {"serial", lease->serial()}};
    }
    log->info("exploration {}: {} on {}", e->id, request.package, lease->key());
    if (!request.apk.empty()) {
      if (auto r = install_apk(*lease, request.apk, e->cancel); !r) {
        finish(*e, r.error().code == Errc::cancelled ? "cancelled" : "failed", r.error().message, *options);
        return;
      }
    }
    backend::adb::MonkeyOptions monkey;
    monkey.package = request.package;
    monkey.seed = request.seed;
    monkey.throttle_ms = request.throttle_ms;
    monkey.events_per_step = request.events_per_step;
    monkey.budget = std::chrono::seconds(request.budget_seconds);
    monkey.max_steps = request.max_steps;
    monkey.restart_at = request.restart_at;
    monkey.out_dir = (dir_of(e->id) / "trace").string();
    monkey.on_step = [&](const backend::adb::CrawlResult& progress) {
      std::lock_guard lock(mutex_);
      set_counts(e->status, progress);
    };
    auto result = backend::adb::run_monkey_crawl(lease->client(), lease->serial(), monkey, e->cancel);
    if (result) {
      std::lock_guard lock(mutex_);
      set_counts(e->status, *result);
    } else {
      state = "failed";
      error = result.error().message;
      if (lease->lost()) error = "the device went away: " + error;
    }
    if (e->cancel) state = "cancelled", error = {};
  }  // the lease ends here: the device is free while the trace is analysed
  finish(*e, state, error, *options);
}

void CrawlManager::finish(Crawl& e, const std::string& state, const std::string& error, const tarpit::Options& options) {
  auto log = util::logger("exploration");
  fs::path trace = dir_of(e.id) / "trace";
  std::optional<TraceVerdict> verdict;
  std::string analysis_problem;
  if (fs::exists(trace / "actions.jsonl")) {
    auto v = analyze_exploration_trace(trace, e.id, options);
    if (v) verdict = std::move(*v);
    else analysis_problem = "tarpit analysis: " + v.error().message;
  }
  json snapshot;
  {
    std::lock_guard lock(mutex_);
    json& s = e.status;
    bool stopping = shutting_down_ && state == "cancelled";
    s["state"] = stopping ? "interrupted" : state;
    s["error"] = stopping ? json("the daemon stopped while the exploration ran") : error.empty() ? json(nullptr) : json(error);
    s["finished_at"] = util::utc_timestamp();
    if (verdict) {
      s["tarpits"] = verdict->report;
      s["guidance"] = {{"restart_at", restart_at_json(verdict->restart_at)}};
    }
    if (!analysis_problem.empty()) s["problems"].push_back(analysis_problem);
    snapshot = s;
  }
  if (auto r = persist(e.id, snapshot); !r) log->error("exploration {}: {}", e.id, util::describe(r.error()));
  log->info("exploration {}: {}{}{}", e.id, snapshot["state"].get<std::string>(), error.empty() ? "" : ": ", error);
  std::lock_guard lock(mutex_);
  e.finished = true;
}

util::Result<json> CrawlManager::get(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = crawls_.find(id);
  if (it == crawls_.end()) return util::fail(Errc::not_found, "no exploration " + id);
  return it->second->status;
}

json CrawlManager::list() const {
  std::vector<json> all;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, e] : crawls_) {
      json s = e->status;
      s.erase("tarpits");
      all.push_back(std::move(s));
    }
  }
  std::sort(all.begin(), all.end(), [](const json& a, const json& b) {
    return a.value("created_at", "") > b.value("created_at", "");
  });
  if (all.size() > 100) all.resize(100);
  return json{{"explorations", all}};
}

util::Result<json> CrawlManager::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = crawls_.find(id);
  if (it == crawls_.end()) return util::fail(Errc::not_found, "no exploration " + id);
  if (!running(it->second->status))
    return util::fail(Errc::conflict, "exploration " + id + " already ended (" + it->second->status.value("state", "") + ")");
  it->second->cancel = true;
  return it->second->status;
}

void CrawlManager::shutdown() {
  std::vector<std::shared_ptr<Crawl>> all;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    for (auto& [id, e] : crawls_) {
      e->cancel = true;
      all.push_back(e);
    }
  }
  for (auto& e : all)
    if (e->thread.joinable()) e->thread.join();
}

}  // namespace flakescan::ui_crawl
