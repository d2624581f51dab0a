// Migration 009 (technique `threads`): a run keeps its ScheduleSpec and each result its
// schedule record, on both engines, and both read back after the store is opened again (a
// daemon restart), so `flakescan replay` can make the failing schedule again.
#include <catch2/catch.hpp>

#include "store/store.hpp"
#include "store/threads_columns.hpp"
#include "unit/store/engines.hpp"

using namespace flakescan;

namespace {

store::ScanRecord threads_scan_record(const std::string& id) {
  store::ScanRecord r;
  r.id = id;
  r.state = "running";
  r.request = "{}";
  r.backend = "local";
  r.techniques = {"threads"};
  r.seed = 7;
  return r;
}

core::ThreadSchedule threads_failing_record() {
  core::ThreadSchedule r;
  r.strategy = "replay";
  r.seed = "18446744073709551557";
  r.depth = 3;
  r.virtual_time = true;
  r.exact = false;
  r.inexact_reasons = {"Future.get ran uncontrolled"};
  r.threads = {{.index = 0, .name = "main"}, {.index = 1, .name = "Thread-3", .started_at = "p.C.start(C.java:14)"}};
  r.steps = {{.thread = 1, .op = "field_read", .target = "p.C.count@o1", .site = "p.C.inc(C.java:21)"},
             {.thread = 0, .op = "field_write", .target = "p.C.count@o1", .site = "p.C.inc(C.java:21)"}};
  r.steps_total = 2057;
  r.steps_omitted = 2055;
  r.decisions = {{0, 12}, {1, 3}, {0, 5}};
  r.deadlock = R"({"threads":[{"holds":["Object@o2"],"thread":1,"waits_for":"Object@o3"}]})";  // compact, keys sorted, as decoded
  r.virtual_ms = 1500;
  r.replay_followed = 19;
  r.replay_diverged_at = 19;
  return r;
}

}  // namespace

TEST_CASE("a scheduled run keeps its schedule, and its result the schedule record, across a restart", "[store][threads]") {
  auto engine = GENERATE(store_test::store_engines());
  CAPTURE(engine);
  const auto location = store_test::fresh_location(engine, "scheduled");
  core::RunSpec spec{.tests = {"p.C#counts", "p.C#counts"}, .technique = "threads", .purpose = "replay", .seed = 18446744073709551557ull};
  spec.schedule = core::ScheduleSpec{.strategy = "replay", .seed = 18446744073709551557ull, .depth = 4, .steps = 300,
                                     .virtual_time = false, .replay_decisions = {{0, 12}, {1, 3}}};
  core::RunReport report;
  report.results.push_back({.test = "p.C#counts", .outcome = core::Outcome::fail, .exception_type = "java.lang.AssertionError",
                            .signature = "AssertionError at p.C.counts:9", .threads = threads_failing_record()});
  core::TestResult broken{.test = "p.C#counts", .outcome = core::Outcome::pass};
  broken.threads = core::ThreadSchedule{.exact = false, .record_error = "threads record: not a JSON object"};
  report.results.push_back(broken);
  std::int64_t id = 0, plain = 0;
  {
    auto s = store::Store::open(location).value();
    REQUIRE(s->create_scan(threads_scan_record("t1")));
    id = s->record_run("t1", spec, report).value();
    plain = s->record_run("t1", core::RunSpec{.tests = {"p.C#counts"}, .technique = "rerun"}, core::RunReport{}).value();
  }
  auto s = store::Store::open(location).value();  // as a restarted daemon does
  auto run = s->run(id);
  REQUIRE(run);
  REQUIRE(run->spec.schedule);
  CHECK(*run->spec.schedule == *spec.schedule);
  REQUIRE(run->report.results.size() == 2);
  REQUIRE(run->report.results[0].threads);
  CHECK(*run->report.results[0].threads == threads_failing_record());
  CHECK(run->report.results[0].outcome == core::Outcome::fail);
  REQUIRE(run->report.results[1].threads);
  CHECK(run->report.results[1].threads->record_error == "threads record: not a JSON object");
  CHECK(run->report.results[1].outcome == core::Outcome::pass);
  auto other = s->run(plain);
  REQUIRE(other);
  CHECK_FALSE(other->spec.schedule);
  auto all = s->runs_of_scan("t1");
  REQUIRE(all);
  REQUIRE(all->size() == 2);
  CHECK(all->at(0).spec.schedule == spec.schedule);
}

TEST_CASE("the threads columns: '' is none, text that is no record keeps a record error", "[store][threads]") {
  CHECK(store::schedule_column(std::nullopt).empty());
  CHECK_FALSE(store::parse_schedule_column(""));
  CHECK_FALSE(store::parse_schedule_column("{\"strategy\":\"pct\",\"seed\":\"x\"}"));
  CHECK(store::threads_column(std::nullopt).empty());
  CHECK_FALSE(store::parse_threads_column(""));
  auto broken = store::parse_threads_column("[1,2]");
  REQUIRE(broken);
  CHECK_FALSE(broken->record_error.empty());
}
