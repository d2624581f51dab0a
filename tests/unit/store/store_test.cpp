#include <catch2/catch.hpp>

#include <filesystem>
#include <unistd.h>

#include "store/sqlite_store.hpp"
#include "store/store.hpp"
#include "unit/store/engines.hpp"

using namespace flakescan;
namespace fs = std::filesystem;

namespace {

store::ScanRecord scan_record(const std::string& id) {
  store::ScanRecord r;
  r.id = id;
  r.state = "queued";
  r.request = "{}";
  r.backend = "local";
  r.techniques = {"rerun", "order"};
  r.seed = 7;
  return r;
}

core::RunReport report_with(core::Outcome a, core::Outcome b) {
  core::RunReport report;
  report.results.push_back({.test = "p.A#one", .outcome = a, .message = "m1", .duration_ms = 1.5});
  report.results.push_back({.test = "p.A#two", .outcome = b, .exception_type = "E", .stack = "s", .signature = "E at p.A.two:3"});
  report.wall_ms = 900;
  report.exit_code = 0;
  return report;
}

}  // namespace

TEST_CASE("the SQLite store opens in WAL mode, and each engine migrates once", "[store]") {
  {
    auto s = store::SqliteStore::open(store_test::fresh_sqlite("wal"));
    REQUIRE(s);
    CHECK((*s)->journal_mode().value() == "wal");
  }
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto location = store_test::fresh_location(engine, "migrate");
  {
    auto s = store::Store::open(location);
    REQUIRE(s);
    CHECK((*s)->describe().starts_with(engine == "sqlite" ? "SQLite " : "PostgreSQL 127.0.0.1:"));
  }
  auto again = store::Store::open(location);  // migrations already applied: must not fail
  REQUIRE(again);
}

TEST_CASE("a store location names its engine", "[store]") {
  CHECK(store::is_postgres_location("postgresql://u@h:5432/db"));
  CHECK(store::is_postgres_location("postgres://h/db"));
  CHECK_FALSE(store::is_postgres_location("/var/lib/flakescan/flakescan.db"));
  CHECK_FALSE(store::is_postgres_location("postgresql.db"));
  CHECK(store::Store::open("").error().code == util::Errc::invalid_argument);
  auto refused = store::Store::open("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == util::Errc::storage);
  CHECK(refused.error().message.find("cannot connect to the PostgreSQL store") != std::string::npos);
}

TEST_CASE("runs round-trip with their results in order", "[store]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "runs")).value();
  REQUIRE(s->create_scan(scan_record("s1")));
  core::RunSpec spec{.tests = {"p.A#one", "p.A#two"}, .technique = "order", .purpose = "reverse", .seed = 42};
  auto id = s->record_run("s1", spec, report_with(core::Outcome::pass, core::Outcome::fail));
  REQUIRE(id);
  auto run = s->run(*id);
  REQUIRE(run);
  CHECK(run->spec.tests == spec.tests);
  CHECK(run->spec.seed == 42u);
  CHECK(run->spec.technique == "order");
  REQUIRE(run->report.results.size() == 2);
  CHECK(run->report.results[1].outcome == core::Outcome::fail);
  CHECK(run->report.results[1].signature == "E at p.A.two:3");
  CHECK(run->report.results[0].duration_ms == Approx(1.5));
  CHECK(s->runs_of_scan("s1")->size() == 1);
  CHECK(s->scan("s1")->runs_done == 1);
  CHECK(s->run(*id + 100).error().code == util::Errc::not_found);
}

TEST_CASE("a run of more results than one statement writes keeps them all, in order", "[store]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "many_results")).value();
  REQUIRE(s->create_scan(scan_record("s1")));
  // 1,234: two full batches of the PostgreSQL store and a part of one.
  core::RunSpec spec{.technique = "suite", .purpose = "suite round 1 (original)"};
  core::RunReport report;
  for (int i = 0; i < 1234; ++i) {
    spec.tests.push_back("p.C" + std::to_string(i / 10) + "#t" + std::to_string(i % 10));
    core::TestResult r;
    r.test = spec.tests.back();
    r.outcome = i % 7 == 3 ? core::Outcome::fail : core::Outcome::pass;
    if (r.outcome == core::Outcome::fail) r.message = "failure " + std::to_string(i);
    r.duration_ms = i / 4.0;
    report.results.push_back(r);
  }
  auto id = s->record_run("s1", spec, report);
  REQUIRE(id);
  auto run = s->run(*id).value();
  REQUIRE(run.report.results.size() == 1234);
  for (std::size_t i = 0; i < 1234; ++i) {
    INFO(i);
    CHECK(run.report.results[i].test == spec.tests[i]);
    CHECK(run.report.results[i].outcome == report.results[i].outcome);
    CHECK(run.report.results[i].message == report.results[i].message);
    CHECK(run.report.results[i].duration_ms == Approx(report.results[i].duration_ms));
  }
}

TEST_CASE("a shuffled run keeps its shuffle, and its results the sites they permuted", "[store][shuffle]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "shuffled")).value();
  REQUIRE(s->create_scan(scan_record("s1")));
  core::RunSpec spec{.tests = {"p.A#one"}, .technique = "shuffle", .purpose = "seed 1/3", .seed = 18446744073709551557ull};
  spec.shuffle = core::ShuffleSpec{.seed = 18446744073709551557ull, .mode = "one", .sites = {"HashSet iteration at p.A.one(A.java:9)"}};
  auto report = report_with(core::Outcome::fail, core::Outcome::pass);
  report.results.resize(1);
  report.results[0].shuffled = {{.key = "HashSet iteration at p.A.one(A.java:9)", .api = "HashSet iteration",
                                 .via = {"java.util.AbstractCollection.toString"}, .frames = {"p.A.one(A.java:9)"},
                                 .seen = 3, .shuffled = 1, .size = 4}};
  auto id = s->record_run("s1", spec, report);
  REQUIRE(id);
  auto plain = s->record_run("s1", core::RunSpec{.tests = {"p.A#one"}, .technique = "shuffle"}, report_with(core::Outcome::pass, core::Outcome::pass));
  REQUIRE(plain);
  auto run = s->run(*id);
  REQUIRE(run);
  REQUIRE(run->spec.shuffle);
  CHECK(run->spec.shuffle->seed == 18446744073709551557ull);
  CHECK(run->spec.shuffle->mode == "one");
  CHECK(run->spec.shuffle->sites == spec.shuffle->sites);
  REQUIRE(run->report.results.size() == 1);
  REQUIRE(run->report.results[0].shuffled.size() == 1);
  const auto& site = run->report.results[0].shuffled[0];
  CHECK(site.key == "HashSet iteration at p.A.one(A.java:9)");
  CHECK(site.via == std::vector<std::string>{"java.util.AbstractCollection.toString"});
  CHECK(site.seen == 3);
  CHECK(site.shuffled == 1);
  CHECK(site.size == 4);
  CHECK_FALSE(s->run(*plain)->spec.shuffle);
  CHECK(s->run(*plain)->report.results[0].shuffled.empty());
}

TEST_CASE("scan states carry times and errors", "[store]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "states")).value();
  REQUIRE(s->create_scan(scan_record("s2")));
  REQUIRE(s->set_scan_state("s2", "running"));
  auto running = s->scan("s2").value();
  CHECK(running.state == "running");
  CHECK_FALSE(running.started_at.empty());
  CHECK(running.finished_at.empty());
  REQUIRE(s->set_scan_state("s2", "failed", "java not found"));
  auto failed = s->scan("s2").value();
  CHECK(failed.error == "java not found");
  CHECK_FALSE(failed.finished_at.empty());
  CHECK(failed.techniques == std::vector<std::string>{"rerun", "order"});
  CHECK(s->set_scan_state("nope", "running").error().code == util::Errc::not_found);
  CHECK(s->scan("nope").error().code == util::Errc::not_found);
}

TEST_CASE("a daemon's unfinished scans are marked interrupted when it starts again, and keep their runs", "[store]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto path = store_test::fresh_location(engine, "interrupt");
  auto owned = [](const std::string& id, const std::string& daemon) {
    auto r = scan_record(id);
    r.daemon = daemon;
    return r;
  };
  {
    auto s = store::Store::open(path).value();
    REQUIRE(s->heartbeat("a"));
    REQUIRE(s->heartbeat("b"));
    REQUIRE(s->create_scan(owned("done", "a")));
    REQUIRE(s->create_scan(owned("live", "a")));
    REQUIRE(s->create_scan(owned("other", "b")));  // daemon b is alive: a must not touch it
    REQUIRE(s->set_scan_state("done", "completed"));
    REQUIRE(s->set_scan_state("live", "running"));
    REQUIRE(s->set_scan_state("other", "running"));
    REQUIRE(s->record_run("live", {.tests = {"p.A#one", "p.A#two"}}, report_with(core::Outcome::pass, core::Outcome::pass)));
  }
  auto s = store::Store::open(path).value();
  CHECK(s->scan("live")->daemon == "a");
  CHECK(s->interrupt_unfinished("a").value() == 1);
  CHECK(s->scan("live")->state == "interrupted");
  CHECK(s->scan("done")->state == "completed");
  CHECK(s->scan("other")->state == "running");
  CHECK(s->runs_of_scan("live")->size() == 1);
  CHECK(s->interrupt_abandoned(60).value() == 0);  // b beat just now
}

TEST_CASE("the scans of a daemon that stopped beating are marked interrupted by any daemon", "[store]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "abandoned")).value();
  auto owned = [](const std::string& id, const std::string& daemon) {
    auto r = scan_record(id);
    r.daemon = daemon;
    return r;
  };
  REQUIRE(s->heartbeat("alive"));
  REQUIRE(s->heartbeat("killed"));
  REQUIRE(s->create_scan(owned("kept", "alive")));
  REQUIRE(s->create_scan(owned("left", "killed")));
  REQUIRE(s->create_scan(owned("old", "")));  // a scan from before daemons beat
  REQUIRE(s->record_run("left", {.tests = {"p.A#one"}}, report_with(core::Outcome::pass, core::Outcome::pass)));
  // Both beat at most a second ago: nobody is stale at 60 s; everyone is at -1 s (in the future).
  CHECK(s->interrupt_abandoned(60).value() == 1);  // only the scan of no daemon
  CHECK(s->scan("old")->state == "interrupted");
  CHECK(s->scan("left")->state == "queued");
  REQUIRE(s->heartbeat("alive"));
  CHECK(s->interrupt_abandoned(-1).value() == 2);
  CHECK(s->scan("left")->state == "interrupted");
  CHECK(s->scan("left")->error.find("finished runs are kept") != std::string::npos);
  CHECK(s->runs_of_scan("left")->size() == 1);
}

TEST_CASE("verdicts are saved and replaced per test", "[store]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  auto s = store::Store::open(store_test::fresh_location(engine, "verdicts")).value();
  REQUIRE(s->create_scan(scan_record("s3")));
  REQUIRE(s->save_verdicts("s3", {{"p.A#one", "flaky", "unknown", "{\"a\":1}"}, {"p.A#two", "not_flaky", "", "{}"}}));
  REQUIRE(s->save_verdicts("s3", {{"p.A#one", "flaky", "nio", "{\"a\":2}"}}));
  auto v = s->verdicts("s3").value();
  REQUIRE(v.size() == 2);
  auto one = std::find_if(v.begin(), v.end(), [](auto& r) { return r.test == "p.A#one"; });
  CHECK(one->category == "nio");
  CHECK(one->body == "{\"a\":2}");
  // The schema refuses values outside its sets.
  CHECK_FALSE(s->save_verdicts("s3", {{"p.A#x", "maybe", "", "{}"}}));
}
