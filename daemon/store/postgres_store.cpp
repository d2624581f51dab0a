#include "store/postgres_store.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "store/migrations.hpp"
#include "store/rows.hpp"
#include "store/shuffle_columns.hpp"
#include "store/threads_columns.hpp"
#include "util/log.hpp"
#include "util/timestamp.hpp"

namespace flakescan::store {

namespace {

using util::Errc;

// Every text a test or a CI report wrote goes through storable_text: PostgreSQL refuses NUL
// and invalid UTF-8, and a run must never be lost to a byte in its output.
PgParams& add_text(PgParams& p, const std::string& v) { return p.add(storable_text(v)); }

util::Error failed(const util::Error& e, const std::string& what) {
  return util::Error{Errc::storage, what + ": " + e.message};
}

// Advisory-lock keys (transaction-scoped): one for migrations, one space for import sources.
constexpr const char* migration_lock = "SELECT pg_advisory_xact_lock(7263501)";

// One row of a PgRows, as rows.hpp's templates read it.
struct PgRow {
  const PgRows& rows;
  int i;
  std::string text(int col) const { return rows.text(i, col); }
  std::int64_t integer(int col) const { return rows.integer(i, col); }
  double real(int col) const { return rows.real(i, col); }
};

}  // namespace

util::Result<std::unique_ptr<PostgresStore>> PostgresStore::open(const std::string& uri) {
  auto conn = PgConnection::connect(uri);
  if (!conn) return std::unexpected(conn.error());
  std::unique_ptr<PostgresStore> store(new PostgresStore(std::move(*conn)));
  if (auto r = store->migrate(); !r) return std::unexpected(r.error());
  return store;
}

PostgresStore::~PostgresStore() = default;

std::string PostgresStore::describe() const { return "PostgreSQL " + db_->where(); }

util::Result<bool> PostgresStore::migrate() {
  std::lock_guard lock(mutex_);
  // Daemons that start together take turns: each migration is checked and applied under one
  // lock, in its own transaction (DDL is transactional in PostgreSQL).
  for (std::size_t i = 0; i <= postgres_migrations().size(); ++i) {
    if (auto r = db_->begin(); !r) return r;
    auto step = [&]() -> util::Result<bool> {
      if (auto r = db_->exec(migration_lock); !r) return std::unexpected(r.error());
      if (i == 0) {
        auto made = db_->exec("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
        if (!made) return std::unexpected(made.error());
        return true;
      }
      const auto& m = postgres_migrations()[i - 1];
      auto seen = db_->exec("SELECT 1 FROM schema_migrations WHERE name = $1", PgParams().add(std::string(m.name)));
      if (!seen) return std::unexpected(seen.error());
      if (seen->size() > 0) return false;
      if (auto r = db_->exec_script(std::string(m.sql)); !r)
        return util::fail(Errc::storage, "migration " + std::string(m.name) + " failed: " + r.error().message);
      auto mark = db_->exec("INSERT INTO schema_migrations(name, applied_at) VALUES ($1, $2)",
                            PgParams().add(std::string(m.name)).add(util::utc_timestamp()));
      if (!mark) return std::unexpected(failed(mark.error(), "recording migration"));
      util::logger("store")->info("applied migration {} (PostgreSQL)", m.name);
      return true;
    };
    auto r = step();
    if (!r) {
      db_->rollback();
      return r;
    }
    if (auto c = db_->commit(); !c) return c;
  }
  return true;
}

util::Result<bool> PostgresStore::create_scan(const ScanRecord& scan) {
  std::lock_guard lock(mutex_);
  PgParams p;
  p.add(scan.id).add(scan.state);
  add_text(p, scan.request).add(scan.backend).add(nlohmann::json(scan.techniques).dump()).add(scan.seed)
      .add(scan.created_at.empty() ? util::utc_timestamp() : scan.created_at).add(scan.daemon).add(scan.group)
      .add(scan.shard);
  auto r = db_->exec(
      "INSERT INTO scans(id, state, request, backend, techniques, seed, created_at, daemon, scan_group, shard) "
      "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)", p);
  if (!r) return std::unexpected(failed(r.error(), "creating scan"));
  return true;
}

util::Result<ScanRecord> PostgresStore::scan(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto r = db_->exec(std::string(scan_select) + "WHERE id = $1", PgParams().add(id));
  if (!r) return std::unexpected(failed(r.error(), "reading scan"));
  if (r->size() == 0) return util::fail(Errc::not_found, "no scan with id '" + id + "'");
  return scan_from(PgRow{*r, 0});
}

util::Result<std::vector<ScanRecord>> PostgresStore::scans(int limit) {
  std::lock_guard lock(mutex_);
  auto r = db_->exec(std::string(scan_select) + "ORDER BY created_at DESC, seq DESC LIMIT $1", PgParams().add(limit));
  if (!r) return std::unexpected(failed(r.error(), "listing scans"));
  std::vector<ScanRecord> out;
  for (int i = 0; i < r->size(); ++i) out.push_back(scan_from(PgRow{*r, i}));
  return out;
}

util::Result<std::vector<ScanRecord>> PostgresStore::scans_of_group(const std::string& group) {
  std::lock_guard lock(mutex_);
  auto r = db_->exec(std::string(scan_select) + "WHERE scan_group = $1 ORDER BY created_at, seq", PgParams().add(group));
  if (!r) return std::unexpected(failed(r.error(), "listing a group's scans"));
  std::vector<ScanRecord> out;
  for (int i = 0; i < r->size(); ++i) out.push_back(scan_from(PgRow{*r, i}));
  return out;
}

util::Result<bool> PostgresStore::set_scan_state(const std::string& id, const std::string& state,
                                                 const std::string& error) {
  std::lock_guard lock(mutex_);
  bool starting = state == "running";
  bool ending = state != "queued" && state != "running";
  PgParams p;
  p.add(state);
  add_text(p, error).add(int(starting)).add(util::utc_timestamp()).add(int(ending)).add(id);
  auto r = db_->exec(
      "UPDATE scans SET state = $1, error = COALESCE(NULLIF($2, ''), error), "
      "started_at = CASE WHEN $3::int = 1 THEN COALESCE(started_at, $4) ELSE started_at END, "
      "finished_at = CASE WHEN $5::int = 1 THEN $4 ELSE finished_at END WHERE id = $6", p);
  if (!r) return std::unexpected(failed(r.error(), "updating scan"));
  if (r->affected() == 0) return util::fail(Errc::not_found, "no scan with id '" + id + "'");
  return true;
}

util::Result<bool> PostgresStore::set_scan_progress(const std::string& id, int tests_total, int runs_planned) {
  std::lock_guard lock(mutex_);
  auto r = db_->exec("UPDATE scans SET tests_total = $1, runs_planned = $2 WHERE id = $3",
                     PgParams().add(tests_total).add(runs_planned).add(id));
  if (!r) return std::unexpected(failed(r.error(), "updating scan progress"));
  return true;
}

util::Result<bool> PostgresStore::heartbeat(const std::string& daemon) {
  std::lock_guard lock(mutex_);
  auto now = util::utc_timestamp();
  auto r = db_->exec(
      "INSERT INTO daemons(id, started_at, last_seen) VALUES ($1, $2, $2) "
      "ON CONFLICT (id) DO UPDATE SET last_seen = EXCLUDED.last_seen",
      PgParams().add(daemon).add(now));
  if (!r) return std::unexpected(failed(r.error(), "writing the daemon's heartbeat"));
  return true;
}

namespace {

const char* postgres_interrupt =
    "UPDATE scans SET state = 'interrupted', finished_at = $1, "
    "error = 'the daemon stopped while the scan ran; its finished runs are kept' "
    "WHERE state IN ('queued', 'running') AND ";

}  // namespace

util::Result<int> PostgresStore::interrupt_unfinished(const std::string& daemon) {
  std::lock_guard lock(mutex_);
  auto r = db_->exec(std::string(postgres_interrupt) + "daemon = $2", PgParams().add(util::utc_timestamp()).add(daemon));
  if (!r) return std::unexpected(failed(r.error(), "marking interrupted scans"));
  return r->affected();
}

util::Result<int> PostgresStore::interrupt_abandoned(int stale_seconds) {
  std::lock_guard lock(mutex_);
  auto r = db_->exec(std::string(postgres_interrupt) + "daemon NOT IN (SELECT id FROM daemons WHERE last_seen >= $2)",
                     PgParams().add(util::utc_timestamp()).add(util::utc_timestamp_before(stale_seconds)));
  if (!r) return std::unexpected(failed(r.error(), "marking abandoned scans"));
  return r->affected();
}

namespace {

// A run's results go in several rows per INSERT: one statement (one round trip to the server)
// per row made a 2,000-test suite round 2,000 round trips, which a CI runner far from its
// shared PostgreSQL pays in full. 11 parameters a row; a statement takes at most 65,535.
constexpr std::size_t result_rows_per_insert = 500;

std::string results_insert(std::size_t rows) {
  constexpr int columns = 11;
  std::string sql =
      "INSERT INTO results(run_id, position, test, outcome, message, exception, signature, stack, duration_ms, "
      "shuffled, threads) VALUES ";
  for (std::size_t r = 0; r < rows; ++r) {
    sql += r > 0 ? ",(" : "(";
    for (int c = 1; c <= columns; ++c) sql += (c > 1 ? ",$" : "$") + std::to_string(r * columns + c);
    sql += ')';
  }
  return sql;
}

}  // namespace

util::Result<std::int64_t> PostgresStore::record_run(const std::string& scan_id, const core::RunSpec& spec,
                                                     const core::RunReport& report) {
  std::lock_guard lock(mutex_);
  if (auto r = db_->begin(); !r) return std::unexpected(r.error());
  auto rollback = [&](const util::Error& e, const std::string& what) -> util::Result<std::int64_t> {
    db_->rollback();
    return std::unexpected(failed(e, what));
  };
  PgParams p;
  p.add(scan_id).add(spec.technique).add(spec.purpose).add(std::int64_t(spec.seed));
  add_text(p, nlohmann::json(spec.tests).dump()).add(report.exit_code).add(report.signal).add(int(report.timed_out));
  add_text(p, report.infra_reason).add(report.wall_ms);
  add_text(p, report.log_path).add(util::utc_timestamp()).add(shuffle_spec_text(spec.shuffle))
      .add(positions_text(spec.class_run_starts));
  add_text(p, schedule_column(spec.schedule));
  auto run = db_->exec(
      "INSERT INTO runs(scan_id, technique, purpose, seed, tests, exit_code, signal, timed_out, infra_reason, "
      "wall_ms, log_path, finished_at, shuffle, class_run_starts, schedule) "
      "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) RETURNING id", p);
  if (!run) return rollback(run.error(), "recording run");
  std::int64_t run_id = run->integer(0, 0);
  for (std::size_t first = 0; first < report.results.size(); first += result_rows_per_insert) {
    const std::size_t rows = std::min(result_rows_per_insert, report.results.size() - first);
    PgParams q;
    for (std::size_t i = first; i < first + rows; ++i) {
      const auto& r = report.results[i];
      q.add(run_id).add(int(i));
      add_text(q, r.test).add(std::string(core::outcome_name(r.outcome)));
      add_text(q, r.message);
      add_text(q, r.exception_type);
      add_text(q, r.signature);
      add_text(q, r.stack).add(r.duration_ms);
      add_text(q, shuffled_sites_text(r.shuffled));
      add_text(q, threads_column(r.threads));
    }
    auto res = db_->exec(results_insert(rows), q);
    if (!res) return rollback(res.error(), "recording results");
  }
  if (auto c = db_->commit(); !c) return rollback(c.error(), "committing run");
  return run_id;
}

util::Result<bool> PostgresStore::read_results(core::RecordedRun& run) {
  auto s = db_->exec(std::string(result_select) + "WHERE run_id = $1 ORDER BY position", PgParams().add(run.id));
  if (!s) return std::unexpected(failed(s.error(), "reading results"));
  for (int i = 0; i < s->size(); ++i) run.report.results.push_back(result_from(PgRow{*s, i}));
  return true;
}

util::Result<core::RecordedRun> PostgresStore::run(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto s = db_->exec(std::string(run_select) + "WHERE id = $1", PgParams().add(id));
  if (!s) return std::unexpected(failed(s.error(), "reading run"));
  if (s->size() == 0) return util::fail(Errc::not_found, "no run with id " + std::to_string(id));
  auto run = run_from(PgRow{*s, 0});
  if (auto r = read_results(run); !r) return std::unexpected(r.error());
  return run;
}

util::Result<std::vector<core::RecordedRun>> PostgresStore::runs_of_scan(const std::string& scan_id) {
  std::lock_guard lock(mutex_);
  auto s = db_->exec(std::string(run_select) + "WHERE scan_id = $1 ORDER BY id", PgParams().add(scan_id));
  if (!s) return std::unexpected(failed(s.error(), "listing runs"));
  std::vector<core::RecordedRun> out;
  for (int i = 0; i < s->size(); ++i) out.push_back(run_from(PgRow{*s, i}));
  for (auto& run : out)
    if (auto r = read_results(run); !r) return std::unexpected(r.error());
  return out;
}

util::Result<bool> PostgresStore::save_verdicts(const std::string& scan_id, const std::vector<VerdictRow>& verdicts) {
  std::lock_guard lock(mutex_);
  if (auto r = db_->begin(); !r) return r;
  for (const auto& v : verdicts) {
    // Delete, then insert: a replaced verdict takes the newest place, as SQLite's REPLACE does.
    auto del = db_->exec("DELETE FROM verdicts WHERE scan_id = $1 AND test = $2", PgParams().add(scan_id).add(v.test));
    PgParams p;
    p.add(scan_id);
    add_text(p, v.test).add(v.verdict);
    if (v.category.empty()) p.add_null();
    else p.add(v.category);
    add_text(p, v.body);
    auto ins = del ? db_->exec("INSERT INTO verdicts(scan_id, test, verdict, category, body) VALUES ($1,$2,$3,$4,$5)", p)
                   : util::Result<PgRows>(std::unexpected(del.error()));
    if (!ins) {
      db_->rollback();
      return std::unexpected(failed(ins.error(), "saving verdict"));
    }
  }
  return db_->commit();
}

util::Result<std::vector<VerdictRow>> PostgresStore::verdicts(const std::string& scan_id) {
  std::lock_guard lock(mutex_);
  auto s = db_->exec("SELECT test, verdict, COALESCE(category, ''), body FROM verdicts WHERE scan_id = $1 ORDER BY seq",
                     PgParams().add(scan_id));
  if (!s) return std::unexpected(failed(s.error(), "reading verdicts"));
  std::vector<VerdictRow> out;
  for (int i = 0; i < s->size(); ++i) out.push_back({s->text(i, 0), s->text(i, 1), s->text(i, 2), s->text(i, 3)});
  return out;
}

util::Result<CiImportRecord> PostgresStore::import_ci_results(const CiImportRecord& import,
                                                              const std::vector<CiResultRow>& results) {
  std::lock_guard lock(mutex_);
  CiImportRecord out = counted_import(import, results);
  out.imported_at = util::utc_timestamp();
  if (auto r = db_->begin(); !r) return std::unexpected(r.error());
  auto rollback = [&](const util::Error& e, const std::string& what) -> util::Result<CiImportRecord> {
    db_->rollback();
    return std::unexpected(failed(e, what));
  };
  // Two daemons importing one source at once take turns here; the second replaces the first.
  if (auto r = db_->exec("SELECT pg_advisory_xact_lock(7263502, hashtext($1))", PgParams().add(import.source)); !r)
    return rollback(r.error(), "locking the import's source");
  auto old = db_->exec("SELECT id FROM ci_imports WHERE source = $1", PgParams().add(import.source));
  if (!old) return rollback(old.error(), "looking up the import's source");
  if (old->size() > 0) {
    out.replaced = old->integer(0, 0);
    if (auto r = db_->exec("DELETE FROM ci_results WHERE import_id = $1", PgParams().add(*out.replaced)); !r)
      return rollback(r.error(), "replacing an import's results");
    if (auto r = db_->exec("DELETE FROM ci_imports WHERE id = $1", PgParams().add(*out.replaced)); !r)
      return rollback(r.error(), "replacing an import");
  }
  PgParams p;
  add_text(p, out.source);
  add_text(p, out.commit);
  add_text(p, out.branch).add(out.imported_at).add(out.tests).add(out.failed).add(out.flaky_by_rerun);
  auto ins = db_->exec(
      "INSERT INTO ci_imports(source, commit_sha, branch, imported_at, tests, failed, flaky_by_rerun) "
      "VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id", p);
  if (!ins) return rollback(ins.error(), "recording an import");
  out.id = ins->integer(0, 0);
  for (const auto& r : results) {
    PgParams q;
    q.add(out.id);
    add_text(q, r.test).add(r.outcome).add(r.duration_ms);
    add_text(q, r.message).add(r.failed_attempts);
    auto res = db_->exec(
        "INSERT INTO ci_results(import_id, test, outcome, duration_ms, message, failed_attempts) "
        "VALUES ($1,$2,$3,$4,$5,$6)", q);
    if (!res) return rollback(res.error(), "recording an imported result of " + r.test);
  }
  if (auto c = db_->commit(); !c) return rollback(c.error(), "committing an import");
  return out;
}

util::Result<Store::BranchTests> PostgresStore::tests_on_branch(const std::string& branch) {
  std::lock_guard lock(mutex_);
  BranchTests out;
  auto count = db_->exec("SELECT COUNT(*) FROM ci_imports WHERE branch = $1", PgParams().add(branch));
  if (!count) return std::unexpected(failed(count.error(), "counting a branch's imports"));
  out.imports = int(count->integer(0, 0));
  auto s = db_->exec(
      "SELECT DISTINCT r.test FROM ci_results r JOIN ci_imports i ON i.id = r.import_id WHERE i.branch = $1 "
      "ORDER BY r.test COLLATE \"C\"", PgParams().add(branch));
  if (!s) return std::unexpected(failed(s.error(), "listing a branch's tests"));
  for (int i = 0; i < s->size(); ++i) out.tests.push_back(s->text(i, 0));
  return out;
}

util::Result<int> PostgresStore::ci_import_count() {
  std::lock_guard lock(mutex_);
  auto s = db_->exec("SELECT COUNT(*) FROM ci_imports");
  if (!s) return std::unexpected(failed(s.error(), "counting imports"));
  return int(s->integer(0, 0));
}

util::Result<std::vector<CiSuspect>> PostgresStore::ci_suspects(int window, int max_evidence) {
  std::lock_guard lock(mutex_);
  SuspectList suspects;
  for (const auto& q : suspect_queries) {
    PgParams p;
    if (q.reason == SuspectList::Reason::mixed_recently) p.add(window);
    auto s = db_->exec(q.sql, p);
    if (!s) return std::unexpected(failed(s.error(), "finding suspects"));
    for (int i = 0; i < s->size(); ++i) suspects.add_reason(s->text(i, 0), q.reason, s->text(i, 1));
  }
  for (const auto& test : suspects.tests()) {
    auto s = db_->exec(suspect_results_sql, PgParams().add(test));
    if (!s) return std::unexpected(failed(s.error(), "reading a suspect's results"));
    for (int i = 0; i < s->size(); ++i) suspects.add_observation(observation_from(PgRow{*s, i}, test), max_evidence);
  }
  return suspects.sorted();
}

util::Result<std::vector<QuarantineRow>> PostgresStore::quarantine() {
  std::lock_guard lock(mutex_);
  // As SQLite's: the latest decisive verdict by scan creation, then by the scan's insertion.
  auto s = db_->exec(
      "SELECT v.test, COALESCE(v.category, ''), v.scan_id, s.created_at, v.body "
      "FROM verdicts v JOIN scans s ON s.id = v.scan_id "
      "WHERE v.verdict IN ('flaky', 'not_flaky') AND NOT EXISTS ("
      "  SELECT 1 FROM verdicts v2 JOIN scans s2 ON s2.id = v2.scan_id "
      "  WHERE v2.test = v.test AND v2.verdict IN ('flaky', 'not_flaky') "
      "    AND (s2.created_at > s.created_at OR (s2.created_at = s.created_at AND s2.seq > s.seq))) "
      "AND v.verdict = 'flaky' ORDER BY v.test");
  if (!s) return std::unexpected(failed(s.error(), "reading the quarantine"));
  std::vector<QuarantineRow> out;
  for (int i = 0; i < s->size(); ++i)
    out.push_back({s->text(i, 0), s->text(i, 1), s->text(i, 2), s->text(i, 3), s->text(i, 4)});
  return out;
}

}  // namespace flakescan::store
