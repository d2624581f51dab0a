#pragma once
// The embedded store: one SQLite database in WAL mode. Policy:
// - every finished run is committed in its own transaction before anyone hears of it, so a
//   daemon killed at any moment keeps every finished run and never half of one;
// - scans that were queued or running when the daemon stopped are marked `interrupted`
//   when it starts again (their finished runs stay);
// - one connection guarded by a mutex: calls are short, and they run on worker threads,
//   never on the network threads.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "util/error.hpp"

struct sqlite3;

namespace flakescan::store {

struct ScanRecord {
  std::string id;
  std::string state;        // queued, running, completed, failed, cancelled, interrupted
  std::string request;      // JSON text of the request
  std::string backend;
  std::vector<std::string> techniques;
  std::int64_t seed = 0;
  std::string created_at;
  std::string started_at;
  std::string finished_at;
  std::string error;
  int tests_total = 0;
  int runs_planned = 0;
  int runs_done = 0;        // counted from the runs table
};

struct VerdictRow {
  std::string test;
  std::string verdict;
  std::string category;
  std::string body;         // JSON text
};

class Store {
 public:
  static util::Result<std::unique_ptr<Store>> open(const std::filesystem::path& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  util::Result<bool> create_scan(const ScanRecord& scan);
  util::Result<ScanRecord> scan(const std::string& id);
  util::Result<std::vector<ScanRecord>> scans(int limit);
  // Sets state (and error, and started/finished time as the state implies).
  util::Result<bool> set_scan_state(const std::string& id, const std::string& state, const std::string& error = {});
  util::Result<bool> set_scan_progress(const std::string& id, int tests_total, int runs_planned);
  // Marks every queued/running scan interrupted; returns how many.
  util::Result<int> interrupt_unfinished();

  util::Result<std::int64_t> record_run(const std::string& scan_id, const core::RunSpec& spec,
                                        const core::RunReport& report);
  util::Result<core::RecordedRun> run(std::int64_t id);
  util::Result<std::vector<core::RecordedRun>> runs_of_scan(const std::string& scan_id);

  util::Result<bool> save_verdicts(const std::string& scan_id, const std::vector<VerdictRow>& verdicts);
  util::Result<std::vector<VerdictRow>> verdicts(const std::string& scan_id);

  util::Result<std::string> journal_mode();

 private:
  explicit Store(sqlite3* db) : db_(db) {}
  util::Result<bool> migrate();
  util::Result<bool> exec(const std::string& sql);

  sqlite3* db_;
  std::mutex mutex_;
};

// UTC time as ISO 8601 with milliseconds, the store's one time format.
std::string now_iso8601();

}  // namespace flakescan::store
