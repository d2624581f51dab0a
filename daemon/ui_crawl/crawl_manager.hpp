#pragma once
// Crawl runs started through the API (POST /v1/explorations): each runs on its own
// thread, leases one device from the shared DeviceRegistry (so it never overlaps a scan's run
// or another exploration on that device), installs the APK when asked, drives Monkey
// (backend::adb::run_monkey_crawl) and, when it ends, analyses its own trace for
// tarpits and derives the guidance for the next run.
//
// Policy and invariants:
// - Everything about one exploration lives in <data_dir>/explorations/<id>/: `trace/` (the
//   recorded trace) and `exploration.json` (its status, the same JSON GET answers). The file is
//   written (temp + rename, never half-written) when the exploration starts and when it ends.
// - On start-up every stored exploration is loaded; one still marked running was cut by a
//   daemon that died: it becomes `interrupted`, and its partial trace is analysed.
// - States: running -> done | failed | cancelled | interrupted (daemon shutdown). Only the
//   runner thread changes an exploration's state; DELETE only raises its cancel flag.
// - At most `max_running` explorations run at once (more is a conflict, not a queue).
// - One mutex guards the table and every status; the runner never holds it during device I/O.
#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/adb/device_registry.hpp"
#include "ui_crawl/crawl_request.hpp"
#include "util/error.hpp"

namespace flakescan::ui_crawl {

struct CrawlManagerConfig {
  std::filesystem::path data_dir;                               // explorations/<id>/ below it
  std::vector<backend::adb::wire::ServerAddress> default_servers;  // the daemon's --adb-server list
  std::size_t max_running = 8;
};

class CrawlManager {
 public:
  explicit CrawlManager(CrawlManagerConfig config);
  ~CrawlManager();
  CrawlManager(const CrawlManager&) = delete;
  CrawlManager& operator=(const CrawlManager&) = delete;

  // Validates the body (parse_crawl_request), resolves `guided_by` and starts the run.
  // invalid_argument for a bad body or an unknown guided_by id; conflict when guided_by names
  // an exploration without analysis yet, or too many run.
  util::Result<nlohmann::json> submit(const nlohmann::json& body);
  util::Result<nlohmann::json> get(const std::string& id) const;
  // The 100 most recent, newest first, without their tarpit reports.
  nlohmann::json list() const;
  // Raises the cancel flag; the exploration ends `cancelled` shortly. conflict once it ended.
  util::Result<nlohmann::json> cancel(const std::string& id);
  // Cancels every running exploration (they end `interrupted`) and waits for their threads.
  void shutdown();
  // True while an exploration runs.
  bool busy() const;

  const std::vector<backend::adb::wire::ServerAddress>& default_servers() const { return config_.default_servers; }

 private:
  struct Crawl {
    std::string id;
    nlohmann::json status;  // what GET answers; guarded by mutex_
    std::atomic<bool> cancel{false};
    std::thread thread;
    bool finished = false;  // the runner thread is done (joinable without waiting)
  };

  void load_stored();
  void run(std::shared_ptr<Crawl> e, CrawlRequest request);
  void finish(Crawl& e, const std::string& state, const std::string& error, const tarpit::Options& options);
  util::Result<void> persist(const std::string& id, const nlohmann::json& status) const;
  std::filesystem::path dir_of(const std::string& id) const;
  void reap_finished();  // needs mutex_ held

  CrawlManagerConfig config_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Crawl>> crawls_;
  bool shutting_down_ = false;
};

}  // namespace flakescan::ui_crawl
