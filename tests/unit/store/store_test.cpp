#include <catch2/catch.hpp>

#include <filesystem>
#include <unistd.h>

#include "store/store.hpp"

using namespace flakescan;
namespace fs = std::filesystem;

namespace {

fs::path fresh_db(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("flakescan-store-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path db = dir / (name + ".db");
  fs::remove(db);
  fs::remove(db.string() + "-wal");
  fs::remove(db.string() + "-shm");
  return db;
}

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

TEST_CASE("the store opens in WAL mode and migrates once", "[store]") {
  auto path = fresh_db("wal");
  {
    auto s = store::Store::open(path);
    REQUIRE(s);
    CHECK((*s)->journal_mode().value() == "wal");
  }
  auto again = store::Store::open(path);  // migrations already applied: must not fail
  REQUIRE(again);
}

TEST_CASE("runs round-trip with their results in order", "[store]") {
  auto s = store::Store::open(fresh_db("runs")).value();
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

TEST_CASE("a shuffled run keeps its shuffle, and its results the sites they permuted", "[store][shuffle]") {
  auto s = store::Store::open(fresh_db("shuffled")).value();
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
  auto s = store::Store::open(fresh_db("states")).value();
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

TEST_CASE("unfinished scans are marked interrupted and keep their runs", "[store]") {
  auto path = fresh_db("interrupt");
  {
    auto s = store::Store::open(path).value();
    REQUIRE(s->create_scan(scan_record("done")));
    REQUIRE(s->create_scan(scan_record("live")));
    REQUIRE(s->set_scan_state("done", "completed"));
    REQUIRE(s->set_scan_state("live", "running"));
    REQUIRE(s->record_run("live", {.tests = {"p.A#one", "p.A#two"}}, report_with(core::Outcome::pass, core::Outcome::pass)));
  }
  auto s = store::Store::open(path).value();
  CHECK(s->interrupt_unfinished().value() == 1);
  CHECK(s->scan("live")->state == "interrupted");
  CHECK(s->scan("done")->state == "completed");
  CHECK(s->runs_of_scan("live")->size() == 1);
}

TEST_CASE("verdicts are saved and replaced per test", "[store]") {
  auto s = store::Store::open(fresh_db("verdicts")).value();
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
