#pragma once
// What flakescan keeps: scans, their runs and results, verdicts, and CI history, in records
// that do not depend on the engine; and the Store interface both engines implement.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "util/error.hpp"

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
  std::string daemon;       // the --daemon-id of the daemon that runs it
  std::string group;        // a sharded scan's group ('' when not sharded)
  std::string shard;        // "I/N" ('' when not sharded)
};

struct VerdictRow {
  std::string test;
  std::string verdict;
  std::string category;
  std::string body;         // JSON text
};

// CI history (schema/migrations/*/002_ci_results.sql): test results imported from CI runs'
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

// The store's one interface, two engines behind it: SQLite (sqlite_store.hpp), the embedded
// default, and PostgreSQL (postgres_store.hpp), the history that many daemons share. Both keep
// the same rules:
// - every finished run is committed in its own transaction before anyone hears of it, so a
//   daemon killed at any moment keeps every finished run and never half of one;
// - a scan belongs to the daemon that runs it (ScanRecord::daemon); a daemon that starts marks
//   interrupted its own scans that were queued or running, and those of daemons that stopped
//   beating (their finished runs stay), never those of another live daemon;
// - calls are short and run on worker threads, never on the network threads.
class Store {
 public:
  // `location` is a PostgreSQL connection URI (postgresql://... or postgres://...) or the path
  // of an SQLite file (made with its folders when missing). Migrations are applied on open.
  static util::Result<std::unique_ptr<Store>> open(const std::string& location);
  virtual ~Store() = default;

  // What the store is, for logs and `flakescand` start-up lines (no password).
  virtual std::string describe() const = 0;

  virtual util::Result<bool> create_scan(const ScanRecord& scan) = 0;
  virtual util::Result<ScanRecord> scan(const std::string& id) = 0;
  virtual util::Result<std::vector<ScanRecord>> scans(int limit) = 0;
  // Every scan of a group, oldest first.
  virtual util::Result<std::vector<ScanRecord>> scans_of_group(const std::string& group) = 0;
  // Sets state (and error, and started/finished time as the state implies).
  virtual util::Result<bool> set_scan_state(const std::string& id, const std::string& state,
                                            const std::string& error = {}) = 0;
  virtual util::Result<bool> set_scan_progress(const std::string& id, int tests_total, int runs_planned) = 0;

  // Writes that `daemon` is alive now (its first beat also sets its start time).
  virtual util::Result<bool> heartbeat(const std::string& daemon) = 0;
  // Marks interrupted every queued/running scan of `daemon` (at its start); returns how many.
  virtual util::Result<int> interrupt_unfinished(const std::string& daemon) = 0;
  // Marks interrupted every queued/running scan of a daemon whose last beat is older than
  // `stale_seconds`, or that never beat; returns how many.
  virtual util::Result<int> interrupt_abandoned(int stale_seconds) = 0;

  virtual util::Result<std::int64_t> record_run(const std::string& scan_id, const core::RunSpec& spec,
                                                const core::RunReport& report) = 0;
  virtual util::Result<core::RecordedRun> run(std::int64_t id) = 0;
  virtual util::Result<std::vector<core::RecordedRun>> runs_of_scan(const std::string& scan_id) = 0;

  // Saves (or replaces) verdicts of a scan in one transaction; verdicts() lists them in the
  // order they were saved.
  virtual util::Result<bool> save_verdicts(const std::string& scan_id, const std::vector<VerdictRow>& verdicts) = 0;
  virtual util::Result<std::vector<VerdictRow>> verdicts(const std::string& scan_id) = 0;

  // Imports one CI run's results under `import.source` (its id, commit, branch are used; the
  // counts are computed here). A source imported before is replaced in the same
  // transaction: its old results go, the new import gets a new id (the newest) and
  // `replaced` names the old one. Two imports of one source at once end as one.
  virtual util::Result<CiImportRecord> import_ci_results(const CiImportRecord& import,
                                                         const std::vector<CiResultRow>& results) = 0;
  virtual util::Result<int> ci_import_count() = 0;
  // The tests with an imported result on `branch` (any outcome), and how many imports of the
  // branch there are: what a pull request's base branch already knows.
  struct BranchTests {
    int imports = 0;
    std::vector<std::string> tests;  // sorted
  };
  virtual util::Result<BranchTests> tests_on_branch(const std::string& branch) = 0;
  // Suspects from CI history: same commit with both outcomes, passed on rerun, or both
  // outcomes within the last `window` imports. Sorted by test id; `max_evidence` caps each
  // suspect's evidence list.
  virtual util::Result<std::vector<CiSuspect>> ci_suspects(int window, int max_evidence = 50) = 0;

  // Tests whose latest flaky-or-not_flaky verdict (by scan creation) is flaky; verdicts
  // could_not_run say nothing and are passed over. Sorted by test id.
  virtual util::Result<std::vector<QuarantineRow>> quarantine() = 0;

 protected:
  Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
};

// True for a PostgreSQL connection URI (postgresql:// or postgres://).
bool is_postgres_location(const std::string& location);

}  // namespace flakescan::store
