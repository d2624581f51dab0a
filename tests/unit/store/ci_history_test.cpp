// The CI history tables (migration 002): the migration on a database a v1 daemon wrote,
// imports and their replacement, the suspects query, and the quarantine query over verdicts.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <sqlite3.h>
#include <unistd.h>

#include "store/migrations.hpp"
#include "store/store.hpp"
#include "unit/store/engines.hpp"

using namespace flakescan;
namespace fs = std::filesystem;

namespace {

fs::path fresh_history_db(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("flakescan-ci-history-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path db = dir / (name + ".db");
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db.string() + suffix);
  return db;
}

void exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  INFO((err ? err : ""));
  sqlite3_free(err);
  REQUIRE(rc == SQLITE_OK);
}

// A database exactly as a v1 daemon left it: 001 applied and recorded, a scan with a verdict.
void write_v1_database(const fs::path& path) {
  const auto& all = store::sqlite_migrations();
  REQUIRE(all.size() >= 2);
  REQUIRE(all[0].name == "001_initial.sql");
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)");
  exec(db, std::string(all[0].sql));
  exec(db, "INSERT INTO schema_migrations VALUES ('001_initial.sql', '2024-01-01T00:00:00.000Z')");
  exec(db, "INSERT INTO scans(id, state, request, backend, techniques, seed, created_at) "
           "VALUES ('old', 'completed', '{}', 'local', '[\"rerun\"]', 1, '2024-01-01T00:00:00.000Z')");
  exec(db, "INSERT INTO verdicts(scan_id, test, verdict, category, body) "
           "VALUES ('old', 'p.Old#flaky', 'flaky', 'unknown', '{\"test\":\"p.Old#flaky\"}')");
  sqlite3_close(db);
}

store::CiResultRow row(std::string test, std::string outcome, int failed_attempts = 0, std::string message = {}) {
  return {.test = std::move(test), .outcome = std::move(outcome), .duration_ms = 1, .message = std::move(message),
          .failed_attempts = failed_attempts};
}

store::CiImportRecord import_of(std::string source, std::string commit) {
  return {.source = std::move(source), .commit = std::move(commit), .branch = "main"};
}

std::map<std::string, store::CiSuspect> by_test(const std::vector<store::CiSuspect>& suspects) {
  std::map<std::string, store::CiSuspect> out;
  for (const auto& s : suspects) out[s.test] = s;
  return out;
}

void add_scan(store::Store& s, const std::string& id, const std::string& created_at,
              const std::vector<store::VerdictRow>& verdicts) {
  store::ScanRecord r{.id = id, .state = "completed", .request = "{}", .backend = "local", .techniques = {"rerun"},
                      .created_at = created_at};
  REQUIRE(s.create_scan(r));
  REQUIRE(s.save_verdicts(id, verdicts));
}

store::VerdictRow verdict(std::string test, std::string kind, std::string category = {}) {
  return {.test = std::move(test), .verdict = std::move(kind), .category = std::move(category), .body = "{}"};
}

}  // namespace

TEST_CASE("migration 002 applies to a v1 database and keeps its data", "[store][ci_history]") {
  auto path = fresh_history_db("v1");
  write_v1_database(path);
  {
    auto s = store::Store::open(path);
    REQUIRE(s);
    CHECK((*s)->scan("old")->state == "completed");
    CHECK((*s)->verdicts("old")->at(0).test == "p.Old#flaky");
    // The new tables work, and the old verdict is in the quarantine.
    auto imported = (*s)->import_ci_results(import_of("ci-1", "abc"), {row("p.A#x", "pass")});
    REQUIRE(imported);
    CHECK(imported->id > 0);
    REQUIRE((*s)->quarantine()->size() == 1);
    // Migration 003 rebuilt the verdicts table: the old rows stay, `failing` is accepted.
    add_scan(**s, "new", "2026-11-25T00:00:00Z", {verdict("p.New#broken", "failing"), verdict("p.New#ok", "not_flaky")});
    CHECK((*s)->verdicts("new")->at(0).verdict == "failing");
    CHECK((*s)->verdicts("old")->size() == 1);
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT name FROM schema_migrations ORDER BY name", -1, &st, nullptr) == SQLITE_OK);
  std::vector<std::string> applied;
  while (sqlite3_step(st) == SQLITE_ROW) applied.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  CHECK(applied == std::vector<std::string>{"001_initial.sql", "002_ci_results.sql", "003_failing_verdicts.sql", "004_shuffled_runs.sql",
                                              "005_skipped_verdicts.sql", "006_class_run_starts.sql", "007_scan_owners.sql",
                                              "008_scan_groups.sql", "009_scheduled_runs.sql"});
  // Opening again applies nothing twice.
  auto again = store::Store::open(path);
  REQUIRE(again);
  CHECK((*again)->ci_import_count().value() == 1);
}

TEST_CASE("an import counts failures and reruns, and importing its source again replaces it", "[store][ci_history]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "imports")).value();
  auto first = s->import_ci_results(import_of("run-7", "abc"),
                                    {row("p.A#ok", "pass"), row("p.A#bad", "fail", 2, "boom"), row("p.A#err", "error"),
                                     row("p.A#rerun", "pass", 1, "flaked"), row("p.A#skip", "skipped")});
  REQUIRE(first);
  CHECK(first->tests == 5);
  CHECK(first->failed == 2);
  CHECK(first->flaky_by_rerun == 1);
  CHECK_FALSE(first->replaced);
  CHECK(first->branch == "main");
  CHECK_FALSE(first->imported_at.empty());

  auto again = s->import_ci_results(import_of("run-7", "abc"), {row("p.A#ok", "pass")});
  REQUIRE(again);
  REQUIRE(again->replaced);
  CHECK(*again->replaced == first->id);
  CHECK(again->id > first->id);
  CHECK(again->tests == 1);
  CHECK(s->ci_import_count().value() == 1);
  // The replaced import's rerun no longer makes a suspect: nothing was counted twice or kept.
  CHECK(s->ci_suspects(20)->empty());
}

TEST_CASE("suspects: same commit, passed on rerun, both outcomes in the recent window", "[store][ci_history]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "suspects")).value();
  // Old history: p.A#commit fails and passes on commit c1; p.A#old mixes outcomes on two
  // commits long ago.
  REQUIRE(s->import_ci_results(import_of("r1", "c1"), {row("p.A#commit", "fail", 0, "expected 1"), row("p.A#old", "fail"),
                                                        row("p.A#stable", "pass")}));
  REQUIRE(s->import_ci_results(import_of("r2", "c1"), {row("p.A#commit", "pass"), row("p.A#stable", "pass")}));
  REQUIRE(s->import_ci_results(import_of("r3", "c2"), {row("p.A#old", "pass"), row("p.A#stable", "pass")}));
  // Recent: p.A#rerun passes after a failed rerun; p.A#recent fails then passes on other
  // commits; p.A#broken always fails; p.A#skipped passes or is skipped.
  REQUIRE(s->import_ci_results(import_of("r4", "c3"), {row("p.A#rerun", "pass", 2, "timeout"), row("p.A#recent", "fail"),
                                                        row("p.A#broken", "error"), row("p.A#skipped", "skipped")}));
  REQUIRE(s->import_ci_results(import_of("r5", ""), {row("p.A#recent", "pass"), row("p.A#broken", "fail"),
                                                      row("p.A#skipped", "pass")}));
  // Without a commit, imports never make a same-commit pair.
  REQUIRE(s->import_ci_results(import_of("r6", ""), {row("p.A#broken", "fail")}));

  auto wide = by_test(s->ci_suspects(20).value());
  CHECK(wide.size() == 4);
  CHECK_FALSE(wide.contains("p.A#stable"));
  CHECK_FALSE(wide.contains("p.A#broken"));
  CHECK_FALSE(wide.contains("p.A#skipped"));

  const auto& commit = wide["p.A#commit"];
  CHECK(commit.same_commit);
  CHECK(commit.commits == std::vector<std::string>{"c1"});
  CHECK(commit.mixed_recently);  // within 20 imports too
  CHECK_FALSE(commit.passed_on_rerun);
  CHECK(commit.passed == 1);
  CHECK(commit.failed == 1);
  REQUIRE(commit.evidence.size() == 2);
  CHECK(commit.evidence[0].source == "r2");  // newest first
  CHECK(commit.evidence[1].source == "r1");
  CHECK(commit.evidence[1].result.message == "expected 1");

  const auto& rerun = wide["p.A#rerun"];
  CHECK(rerun.passed_on_rerun);
  CHECK_FALSE(rerun.same_commit);
  CHECK_FALSE(rerun.mixed_recently);
  CHECK(rerun.flaky_by_rerun == 1);
  CHECK(rerun.evidence.at(0).result.failed_attempts == 2);

  CHECK(wide["p.A#old"].mixed_recently);
  CHECK_FALSE(wide["p.A#old"].same_commit);

  // The last 3 imports (r4..r6): p.A#old's mixed outcomes fall out of the window, while the
  // same-commit and rerun evidence holds whatever the window.
  auto narrow = by_test(s->ci_suspects(3).value());
  CHECK(narrow.size() == 3);
  CHECK_FALSE(narrow.contains("p.A#old"));
  CHECK(narrow["p.A#commit"].same_commit);
  CHECK_FALSE(narrow["p.A#commit"].mixed_recently);
  CHECK(narrow["p.A#recent"].mixed_recently);
  CHECK(narrow["p.A#rerun"].passed_on_rerun);

  // Evidence is capped.
  CHECK(by_test(s->ci_suspects(20, 1).value())["p.A#commit"].evidence.size() == 1);
}

TEST_CASE("quarantine: each test's latest decisive verdict across scans", "[store][ci_history]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "quarantine")).value();
  add_scan(*s, "s1", "2024-05-01T10:00:00.000Z",
           {verdict("p.A#fixed", "flaky", "concurrency"), verdict("p.A#still", "flaky", "order_dependent"),
            verdict("p.A#unrun", "flaky", "unknown"), verdict("p.A#clean", "not_flaky")});
  add_scan(*s, "s2", "2024-05-02T10:00:00.000Z",
           {verdict("p.A#fixed", "not_flaky"), verdict("p.A#unrun", "could_not_run"), verdict("p.A#clean", "not_flaky"),
            verdict("p.A#new", "flaky", "nio")});
  // Created in the same millisecond as s2 but stored after it: later.
  add_scan(*s, "s3", "2024-05-02T10:00:00.000Z", {verdict("p.A#new", "not_flaky"), verdict("p.A#late", "flaky", "unknown")});

  auto q = s->quarantine();
  REQUIRE(q);
  std::map<std::string, store::QuarantineRow> rows;
  for (const auto& r : *q) rows[r.test] = r;
  CHECK(rows.size() == 3);
  CHECK_FALSE(rows.contains("p.A#fixed"));  // a later scan found it not flaky
  CHECK_FALSE(rows.contains("p.A#clean"));
  CHECK_FALSE(rows.contains("p.A#new"));    // s3 is later than s2
  CHECK(rows["p.A#still"].category == "order_dependent");
  CHECK(rows["p.A#still"].scan_id == "s1");
  CHECK(rows["p.A#unrun"].scan_id == "s1");  // could_not_run later says nothing
  CHECK(rows["p.A#late"].scan_id == "s3");
  CHECK((*q)[0].test == "p.A#late");  // sorted by test id
}
