#include "store/sqlite_store.hpp"

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>
#include <sqlite3.h>

#include "store/migrations.hpp"
#include "store/rows.hpp"
#include "store/shuffle_columns.hpp"
#include "store/threads_columns.hpp"
#include "util/log.hpp"
#include "util/timestamp.hpp"

namespace flakescan::store {

namespace {

using util::Errc;

util::Error sql_error(sqlite3* db, const std::string& what) {
  return util::Error{Errc::storage, what + ": " + sqlite3_errmsg(db)};
}

// A prepared statement with positional binds; finalised on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  bool ok() const { return stmt_ != nullptr; }

  Statement& bind(const std::string& v) { sqlite3_bind_text(stmt_, ++n_, v.data(), int(v.size()), SQLITE_TRANSIENT); return *this; }
  Statement& bind(std::int64_t v) { sqlite3_bind_int64(stmt_, ++n_, v); return *this; }
  Statement& bind(int v) { sqlite3_bind_int(stmt_, ++n_, v); return *this; }
  Statement& bind(double v) { sqlite3_bind_double(stmt_, ++n_, v); return *this; }
  Statement& bind_null() { sqlite3_bind_null(stmt_, ++n_); return *this; }

  int step() { return sqlite3_step(stmt_); }
  // Ready for the next row's values: a statement prepared once serves every row of a loop
  // (preparing it anew for each of a round's 2,000 results was a third of the commit's CPU).
  Statement& reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    n_ = 0;
    return *this;
  }
  std::string text(int col) const {
    auto p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, col)) : std::string{};
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int n_ = 0;
};

}  // namespace


util::Result<std::unique_ptr<SqliteStore>> SqliteStore::open(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return util::fail(Errc::storage, "cannot open store " + path.string() + ": " + msg);
  }
  sqlite3_busy_timeout(db, 5000);
  std::unique_ptr<SqliteStore> store(new SqliteStore(db, path));
  // WAL with synchronous=NORMAL: a committed transaction survives a crash or kill of the
  // process (only a power loss could lose the last ones). Switching a new file to WAL reads,
  // then takes the file for itself; when two daemons open one new file at once, SQLite refuses
  // one of them at once (SQLITE_BUSY without waiting, since both waiting would deadlock), and
  // that one asks again once the other has switched.
  if (auto r = store->exec_when_free("PRAGMA journal_mode=WAL"); !r) return std::unexpected(r.error());
  for (const char* pragma : {"PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON"}) {
    if (auto r = store->exec(pragma); !r) return std::unexpected(r.error());
  }
  if (auto r = store->migrate(); !r) return std::unexpected(r.error());
  return store;
}

SqliteStore::~SqliteStore() { sqlite3_close(db_); }

util::Result<bool> SqliteStore::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    return util::fail(Errc::storage, msg);
  }
  return true;
}

util::Result<bool> SqliteStore::exec_when_free(const std::string& sql) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (true) {
    char* err = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    if (rc == SQLITE_OK) return true;
    if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline) return util::fail(Errc::storage, msg);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

util::Result<bool> SqliteStore::migrate() {
  std::lock_guard lock(mutex_);
  // In a write transaction: created outside one, the table's check (a read) and its creation
  // (a write) could meet another daemon's and be refused at once, as the WAL switch can.
  if (auto r = exec("BEGIN IMMEDIATE"); !r) return r;
  if (auto r = exec("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"); !r) {
    exec("ROLLBACK");
    return r;
  }
  if (auto r = exec("COMMIT"); !r) return r;
  for (const auto& m : sqlite_migrations()) {
    // Checked inside the write transaction: two daemons opening one new file take turns.
    if (auto r = exec("BEGIN IMMEDIATE"); !r) return r;
    bool done_before;
    {
      Statement seen(db_, "SELECT 1 FROM schema_migrations WHERE name = ?");
      seen.bind(std::string(m.name));
      done_before = seen.step() == SQLITE_ROW;
    }
    if (done_before) {
      if (auto r = exec("COMMIT"); !r) return r;
      continue;
    }
    auto applied = exec(std::string(m.sql));
    if (applied) {
      Statement mark(db_, "INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)");
      mark.bind(std::string(m.name)).bind(util::utc_timestamp());
      if (mark.step() != SQLITE_DONE) applied = std::unexpected(sql_error(db_, "recording migration"));
    }
    if (!applied) {
      exec("ROLLBACK");
      return util::fail(Errc::storage, "migration " + std::string(m.name) + " failed: " + applied.error().message);
    }
    if (auto r = exec("COMMIT"); !r) return r;
    util::logger("store")->info("applied migration {}", m.name);
  }
  return true;
}

util::Result<bool> SqliteStore::create_scan(const ScanRecord& scan) {
  std::lock_guard lock(mutex_);
  Statement s(db_,
              "INSERT INTO scans(id, state, request, backend, techniques, seed, created_at, daemon, scan_group, shard) "
              "VALUES (?,?,?,?,?,?,?,?,?,?)");
  s.bind(scan.id).bind(scan.state).bind(scan.request).bind(scan.backend)
      .bind(nlohmann::json(scan.techniques).dump()).bind(scan.seed)
      .bind(scan.created_at.empty() ? util::utc_timestamp() : scan.created_at).bind(scan.daemon).bind(scan.group)
      .bind(scan.shard);
  if (s.step() != SQLITE_DONE) return std::unexpected(sql_error(db_, "creating scan"));
  return true;
}

util::Result<ScanRecord> SqliteStore::scan(const std::string& id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(scan_select) + "WHERE id = ?").c_str());
  s.bind(id);
  int rc = s.step();
  if (rc == SQLITE_ROW) return scan_from(s);
  if (rc == SQLITE_DONE) return util::fail(Errc::not_found, "no scan with id '" + id + "'");
  return std::unexpected(sql_error(db_, "reading scan"));
}

util::Result<std::vector<ScanRecord>> SqliteStore::scans(int limit) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(scan_select) + "ORDER BY created_at DESC LIMIT ?").c_str());
  s.bind(limit);
  std::vector<ScanRecord> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out.push_back(scan_from(s));
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "listing scans"));
  return out;
}

util::Result<std::vector<ScanRecord>> SqliteStore::scans_of_group(const std::string& group) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(scan_select) + "WHERE scan_group = ? ORDER BY created_at, rowid").c_str());
  s.bind(group);
  std::vector<ScanRecord> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out.push_back(scan_from(s));
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "listing a group's scans"));
  return out;
}

util::Result<bool> SqliteStore::set_scan_state(const std::string& id, const std::string& state, const std::string& error) {
  std::lock_guard lock(mutex_);
  bool starting = state == "running";
  bool ending = state != "queued" && state != "running";
  Statement s(db_,
              "UPDATE scans SET state = ?, error = COALESCE(NULLIF(?, ''), error), "
              "started_at = CASE WHEN ? THEN COALESCE(started_at, ?) ELSE started_at END, "
              "finished_at = CASE WHEN ? THEN ? ELSE finished_at END WHERE id = ?");
  std::string now = util::utc_timestamp();
  s.bind(state).bind(error).bind(int(starting)).bind(now).bind(int(ending)).bind(now).bind(id);
  if (s.step() != SQLITE_DONE) return std::unexpected(sql_error(db_, "updating scan"));
  if (sqlite3_changes(db_) == 0) return util::fail(Errc::not_found, "no scan with id '" + id + "'");
  return true;
}

util::Result<bool> SqliteStore::set_scan_progress(const std::string& id, int tests_total, int runs_planned) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "UPDATE scans SET tests_total = ?, runs_planned = ? WHERE id = ?");
  s.bind(tests_total).bind(runs_planned).bind(id);
  if (s.step() != SQLITE_DONE) return std::unexpected(sql_error(db_, "updating scan progress"));
  return true;
}

util::Result<bool> SqliteStore::heartbeat(const std::string& daemon) {
  std::lock_guard lock(mutex_);
  Statement s(db_,
              "INSERT INTO daemons(id, started_at, last_seen) VALUES (?, ?, ?) "
              "ON CONFLICT(id) DO UPDATE SET last_seen = excluded.last_seen");
  std::string now = util::utc_timestamp();
  s.bind(daemon).bind(now).bind(now);
  if (s.step() != SQLITE_DONE) return std::unexpected(sql_error(db_, "writing the daemon's heartbeat"));
  return true;
}

namespace {

const char* sqlite_interrupt =
    "UPDATE scans SET state = 'interrupted', finished_at = ?, "
    "error = 'the daemon stopped while the scan ran; its finished runs are kept' "
    "WHERE state IN ('queued', 'running') AND ";

}  // namespace

util::Result<int> SqliteStore::interrupt_unfinished(const std::string& daemon) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(sqlite_interrupt) + "daemon = ?").c_str());
  s.bind(util::utc_timestamp()).bind(daemon);
  if (s.step() != SQLITE_DONE) return std::unexpected(sql_error(db_, "marking interrupted scans"));
  return sqlite3_changes(db_);
}

util::Result<int> SqliteStore::interrupt_abandoned(int stale_seconds) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(sqlite_interrupt) + "daemon NOT IN (SELECT id FROM daemons WHERE last_seen >= ?)").c_str());
  s.bind(util::utc_timestamp()).bind(util::utc_timestamp_before(stale_seconds));
  if (s.step() != SQLITE_DONE) return std::unexpected(sql_error(db_, "marking abandoned scans"));
  return sqlite3_changes(db_);
}

util::Result<std::int64_t> SqliteStore::record_run(const std::string& scan_id, const core::RunSpec& spec,
                                             const core::RunReport& report) {
  std::lock_guard lock(mutex_);
  if (auto r = exec("BEGIN IMMEDIATE"); !r) return std::unexpected(r.error());
  auto rollback = [&](util::Error e) -> util::Result<std::int64_t> {
    exec("ROLLBACK");
    return std::unexpected(std::move(e));
  };
  Statement run(db_,
                "INSERT INTO runs(scan_id, technique, purpose, seed, tests, exit_code, signal, timed_out, infra_reason, "
                "wall_ms, log_path, finished_at, shuffle, class_run_starts, schedule) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  run.bind(scan_id).bind(spec.technique).bind(spec.purpose).bind(std::int64_t(spec.seed))
      .bind(nlohmann::json(spec.tests).dump()).bind(report.exit_code).bind(report.signal).bind(int(report.timed_out))
      .bind(report.infra_reason).bind(report.wall_ms).bind(report.log_path).bind(util::utc_timestamp())
      .bind(shuffle_spec_text(spec.shuffle))
      .bind(positions_text(spec.class_run_starts))
      .bind(schedule_column(spec.schedule));
  if (run.step() != SQLITE_DONE) return rollback(sql_error(db_, "recording run"));
  std::int64_t run_id = sqlite3_last_insert_rowid(db_);
  Statement res(db_,
                "INSERT INTO results(run_id, position, test, outcome, message, exception, signature, stack, duration_ms, "
                "shuffled, threads) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
  for (size_t i = 0; i < report.results.size(); ++i) {
    const auto& r = report.results[i];
    res.reset().bind(run_id).bind(int(i)).bind(r.test).bind(std::string(core::outcome_name(r.outcome))).bind(r.message)
        .bind(r.exception_type).bind(r.signature).bind(r.stack).bind(r.duration_ms).bind(shuffled_sites_text(r.shuffled))
        .bind(threads_column(r.threads));
    if (res.step() != SQLITE_DONE) return rollback(sql_error(db_, "recording result"));
  }
  if (auto r = exec("COMMIT"); !r) return rollback(r.error());
  return run_id;
}

namespace {

util::Result<bool> read_results(sqlite3* db, core::RecordedRun& run) {
  Statement s(db, (std::string(result_select) + "WHERE run_id = ? ORDER BY position").c_str());
  s.bind(run.id);
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) run.report.results.push_back(result_from(s));
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db, "reading results"));
  return true;
}

}  // namespace

util::Result<core::RecordedRun> SqliteStore::run(std::int64_t id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(run_select) + "WHERE id = ?").c_str());
  s.bind(id);
  int rc = s.step();
  if (rc == SQLITE_DONE) return util::fail(Errc::not_found, "no run with id " + std::to_string(id));
  if (rc != SQLITE_ROW) return std::unexpected(sql_error(db_, "reading run"));
  auto run = run_from(s);
  if (auto r = read_results(db_, run); !r) return std::unexpected(r.error());
  return run;
}

util::Result<std::vector<core::RecordedRun>> SqliteStore::runs_of_scan(const std::string& scan_id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string(run_select) + "WHERE scan_id = ? ORDER BY id").c_str());
  s.bind(scan_id);
  std::vector<core::RecordedRun> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out.push_back(run_from(s));
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "listing runs"));
  for (auto& run : out)
    if (auto r = read_results(db_, run); !r) return std::unexpected(r.error());
  return out;
}

util::Result<bool> SqliteStore::save_verdicts(const std::string& scan_id, const std::vector<VerdictRow>& verdicts) {
  std::lock_guard lock(mutex_);
  if (auto r = exec("BEGIN IMMEDIATE"); !r) return r;
  Statement s(db_, "INSERT OR REPLACE INTO verdicts(scan_id, test, verdict, category, body) VALUES (?,?,?,?,?)");
  for (const auto& v : verdicts) {
    s.reset().bind(scan_id).bind(v.test).bind(v.verdict);
    if (v.category.empty()) s.bind_null();
    else s.bind(v.category);
    s.bind(v.body);
    if (s.step() != SQLITE_DONE) {
      auto e = sql_error(db_, "saving verdict");
      exec("ROLLBACK");
      return std::unexpected(e);
    }
  }
  return exec("COMMIT");
}

util::Result<std::vector<VerdictRow>> SqliteStore::verdicts(const std::string& scan_id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "SELECT test, verdict, COALESCE(category, ''), body FROM verdicts WHERE scan_id = ? ORDER BY rowid");
  s.bind(scan_id);
  std::vector<VerdictRow> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out.push_back({s.text(0), s.text(1), s.text(2), s.text(3)});
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "reading verdicts"));
  return out;
}

util::Result<CiImportRecord> SqliteStore::import_ci_results(const CiImportRecord& import, const std::vector<CiResultRow>& results) {
  std::lock_guard lock(mutex_);
  CiImportRecord out = counted_import(import, results);
  out.imported_at = util::utc_timestamp();
  if (auto r = exec("BEGIN IMMEDIATE"); !r) return std::unexpected(r.error());
  auto rollback = [&](util::Error e) -> util::Result<CiImportRecord> {
    exec("ROLLBACK");
    return std::unexpected(std::move(e));
  };
  {
    Statement old(db_, "SELECT id FROM ci_imports WHERE source = ?");
    old.bind(import.source);
    int rc = old.step();
    if (rc == SQLITE_ROW) out.replaced = old.integer(0);
    else if (rc != SQLITE_DONE) return rollback(sql_error(db_, "looking up the import's source"));
  }
  if (out.replaced) {
    Statement del_results(db_, "DELETE FROM ci_results WHERE import_id = ?");
    del_results.bind(*out.replaced);
    if (del_results.step() != SQLITE_DONE) return rollback(sql_error(db_, "replacing an import's results"));
    Statement del_import(db_, "DELETE FROM ci_imports WHERE id = ?");
    del_import.bind(*out.replaced);
    if (del_import.step() != SQLITE_DONE) return rollback(sql_error(db_, "replacing an import"));
  }
  Statement ins(db_,
                "INSERT INTO ci_imports(source, commit_sha, branch, imported_at, tests, failed, flaky_by_rerun) "
                "VALUES (?,?,?,?,?,?,?)");
  ins.bind(out.source).bind(out.commit).bind(out.branch).bind(out.imported_at).bind(out.tests).bind(out.failed)
      .bind(out.flaky_by_rerun);
  if (ins.step() != SQLITE_DONE) return rollback(sql_error(db_, "recording an import"));
  out.id = sqlite3_last_insert_rowid(db_);
  Statement res(db_,
                "INSERT INTO ci_results(import_id, test, outcome, duration_ms, message, failed_attempts) "
                "VALUES (?,?,?,?,?,?)");
  for (const auto& r : results) {
    res.reset().bind(out.id).bind(r.test).bind(r.outcome).bind(r.duration_ms).bind(r.message).bind(r.failed_attempts);
    if (res.step() != SQLITE_DONE) return rollback(sql_error(db_, "recording an imported result of " + r.test));
  }
  if (auto r = exec("COMMIT"); !r) return rollback(r.error());
  return out;
}

util::Result<Store::BranchTests> SqliteStore::tests_on_branch(const std::string& branch) {
  std::lock_guard lock(mutex_);
  BranchTests out;
  Statement count(db_, "SELECT COUNT(*) FROM ci_imports WHERE branch = ?");
  count.bind(branch);
  if (count.step() != SQLITE_ROW) return std::unexpected(sql_error(db_, "counting a branch's imports"));
  out.imports = int(count.integer(0));
  Statement s(db_,
              "SELECT DISTINCT r.test FROM ci_results r JOIN ci_imports i ON i.id = r.import_id WHERE i.branch = ? "
              "ORDER BY r.test");
  s.bind(branch);
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out.tests.push_back(s.text(0));
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "listing a branch's tests"));
  return out;
}

util::Result<int> SqliteStore::ci_import_count() {
  std::lock_guard lock(mutex_);
  Statement s(db_, "SELECT COUNT(*) FROM ci_imports");
  if (s.step() != SQLITE_ROW) return std::unexpected(sql_error(db_, "counting imports"));
  return int(s.integer(0));
}

util::Result<std::vector<CiSuspect>> SqliteStore::ci_suspects(int window, int max_evidence) {
  std::lock_guard lock(mutex_);
  SuspectList suspects;
  for (const auto& q : suspect_queries) {
    Statement s(db_, q.sql);
    if (q.reason == SuspectList::Reason::mixed_recently) s.bind(window);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) suspects.add_reason(s.text(0), q.reason, s.text(1));
    if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "finding suspects"));
  }
  for (const auto& test : suspects.tests()) {
    Statement s(db_, suspect_results_sql);
    s.bind(test);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) suspects.add_observation(observation_from(s, test), max_evidence);
    if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "reading a suspect's results"));
  }
  return suspects.sorted();
}

util::Result<std::vector<QuarantineRow>> SqliteStore::quarantine() {
  std::lock_guard lock(mutex_);
  // A verdict is a test's latest when no decisive verdict of it comes from a later scan
  // (by creation time, then by insertion order for scans created in the same millisecond).
  Statement s(db_,
              "SELECT v.test, COALESCE(v.category, ''), v.scan_id, s.created_at, v.body "
              "FROM verdicts v JOIN scans s ON s.id = v.scan_id "
              "WHERE v.verdict IN ('flaky', 'not_flaky') AND NOT EXISTS ("
              "  SELECT 1 FROM verdicts v2 JOIN scans s2 ON s2.id = v2.scan_id "
              "  WHERE v2.test = v.test AND v2.verdict IN ('flaky', 'not_flaky') "
              "    AND (s2.created_at > s.created_at OR (s2.created_at = s.created_at AND s2.rowid > s.rowid))) "
              "AND v.verdict = 'flaky' ORDER BY v.test");
  std::vector<QuarantineRow> out;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) out.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4)});
  if (rc != SQLITE_DONE) return std::unexpected(sql_error(db_, "reading the quarantine"));
  return out;
}

std::string SqliteStore::describe() const { return "SQLite " + path_.string(); }

util::Result<std::string> SqliteStore::journal_mode() {
  std::lock_guard lock(mutex_);
  Statement s(db_, "PRAGMA journal_mode");
  if (s.step() != SQLITE_ROW) return std::unexpected(sql_error(db_, "reading journal mode"));
  return s.text(0);
}

}  // namespace flakescan::store
