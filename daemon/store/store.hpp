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

// CI history (schema/migrations/002_ci_results.sql): test results imported from CI runs'
// JUnit XML reports, one import per `source` (a CI run id).
struct CiResultRow {
  std::string test;          // pkg.Class#method
  std::string outcome;       // pass, fail, error, skipped
  double duration_ms = 0;
  std::string message;       // first line of the failure message
  int failed_attempts = 0;   // failed attempts before the final outcome (reruns)
};

struct CiImportRecord {
  std::int64_t id = 0;
  std::string source;
  std::string commit;
  std::string branch;
  std::string imported_at;
  int tests = 0;
  int failed = 0;            // final outcome fail or error
  int flaky_by_rerun = 0;    // final outcome pass after failed attempts
  std::optional<std::int64_t> replaced;  // the id of the earlier import of the same source
};

struct CiObservation {
  std::int64_t import_id = 0;
  std::string source;
  std::string commit;
  std::string branch;
  std::string imported_at;
  CiResultRow result;
};

// A test that looks flaky from CI history alone, and why.
struct CiSuspect {
  std::string test;
  bool same_commit = false;      // failed and passed on one commit (any imports)
  bool passed_on_rerun = false;  // passed only after failed reruns (any import)
  bool mixed_recently = false;   // failed and passed within the last `window` imports
  std::vector<std::string> commits;  // the commits on which it both failed and passed
  int passed = 0, failed = 0, skipped = 0, flaky_by_rerun = 0;  // over all its imported results
  std::vector<CiObservation> evidence;  // its pass/fail results, newest import first, capped
};

// The latest decisive (flaky or not_flaky) verdict of a test across scans, when it is flaky.
struct QuarantineRow {
  std::string test;
  std::string category;
  std::string scan_id;
  std::string scan_created_at;
  std::string body;          // the verdict as written to verdicts.json (JSON)
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

  // Imports one CI run's results under `import.source` (its id, commit, branch are used; the
  // counts are computed here). A source imported before is replaced in the same
  // transaction: its old results go, the new import gets a new id (the newest) and
  // `replaced` names the old one.
  util::Result<CiImportRecord> import_ci_results(const CiImportRecord& import, const std::vector<CiResultRow>& results);
  util::Result<int> ci_import_count();
  // Suspects from CI history: same commit with both outcomes, passed on rerun, or both
  // outcomes within the last `window` imports. Sorted by test id; `max_evidence` caps each
  // suspect's evidence list.
  util::Result<std::vector<CiSuspect>> ci_suspects(int window, int max_evidence = 50);

  // Tests whose latest flaky-or-not_flaky verdict (by scan creation) is flaky; verdicts
  // could_not_run say nothing and are passed over. Sorted by test id.
  util::Result<std::vector<QuarantineRow>> quarantine();

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
