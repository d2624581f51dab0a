// The picture of a `threads` finding (report/html_thread_schedules.hpp): what it reads from a
// finding's details (docs/threads.md, "What a threads verdict carries") and what it draws, on
// the hand-made verdict file tests/fixtures/threads/verdicts.json. What a browser makes of it
// is checked by tests/integration/browser/browser_threads_test.py.
#include <catch2/catch.hpp>

#include "support/text.hpp"

#include <filesystem>

#include "report/html.hpp"
#include "report/html_pictures.hpp"
#include "report/html_thread_schedules.hpp"
#include "report/verdict_file.hpp"

using namespace flakescan;
using namespace flakescan::report;
using flakescan::text_checks::count_of;

namespace {

const std::string deadlock_test = "example.threads.deadlock.TransfersTest#opposingTransfersComplete";
const std::string lost_update_test = "example.threads.lostupdate.HitCounterTest#countsHitsFromTwoThreads";
const std::string pool_test = "example.threads.pool.OrderServiceTest#placingAnOrderAuditsIt";
const std::string gate_test = "example.threads.missednotify.StartGateTest#workersStartWhenTheGateOpens";
const std::string twin_test = "example.threads.lostupdate.HitCounterTest#countsHitsFromTwoThreadsAtomically";

const VerdictFile& fixture() {
  static const VerdictFile file = [] {
    auto f = load_verdict_file((std::filesystem::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/threads/verdicts.json").string());
    if (!f) throw std::runtime_error(f.error().message);
    return *f;
  }();
  return file;
}

const Entry& entry_of(const std::string& test) {
  for (const auto& e : fixture().entries)
    if (e.verdict.test == test) return e;
  throw std::runtime_error("no entry " + test);
}

// The threads finding's evidence of a test.
core::Evidence threads_evidence(const std::string& test) {
  for (const auto& f : core::findings_of(entry_of(test).verdict))
    if (f.technique == "threads") return f.evidence;
  throw std::runtime_error("no threads finding for " + test);
}

html::ThreadFacts facts_of(const std::string& test) {
  auto f = html::thread_facts(threads_evidence(test));
  REQUIRE(f);
  return *f;
}

std::string steps_json(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i)
    s += std::string(i ? "," : "") + "{\"thread\":" + std::to_string(i % 2) +
         ",\"op\":\"field_write\",\"target\":\"a.B.f\",\"site\":\"a.B.m(B.java:" + std::to_string(i + 1) + ")\"}";
  return s + "]";
}

}  // namespace

TEST_CASE("threads facts: strategy, seed, both schedules, the conflict and the deadlock from the details", "[report][html][threads]") {
  auto f = facts_of(deadlock_test);
  CHECK(f.strategy == "pct");
  CHECK(f.seed == "9051");
  CHECK(f.virtual_time);
  CHECK(f.exact);
  CHECK(f.replayed);
  CHECK(f.failing.run == 1107);
  REQUIRE(f.passing);
  CHECK(f.passing->run == 1101);
  CHECK(f.failing.thread_names == std::vector<std::string>{"main", "teller-a", "teller-b"});
  CHECK(f.failing.steps.size() == 19);
  CHECK(f.failing.steps_total == 19);
  CHECK(f.failing.left_out() == 0);
  REQUIRE(f.first);
  REQUIRE(f.second);
  CHECK(*f.first == html::ThreadStep{2, "monitor_enter", "example.threads.deadlock.Account@o2",
                                     "example.threads.deadlock.Transfers.transfer(Transfers.java:9)"});
  CHECK(f.second->thread == 1);
  REQUIRE(f.deadlock.size() == 2);
  CHECK(f.deadlock[0].name == "teller-a");
  CHECK(f.deadlock[0].holds.size() == 1);
  CHECK(f.deadlock[0].holds[0].lock == "example.threads.deadlock.Account@o1");
  CHECK(f.deadlock[0].wants.lock == "example.threads.deadlock.Account@o2");
  CHECK(f.deadlock[1].wants.site == "example.threads.deadlock.Transfers.transfer(Transfers.java:10)");
}

TEST_CASE("threads picture: one lane per thread, the two conflicting steps numbered in both schedules", "[report][html][threads]") {
  auto f = facts_of(deadlock_test);
  auto svg = html::thread_schedule_picture(f, "x");
  CHECK(svg.starts_with("<figure class=\"threads\"><div class=\"pair\">"));
  CHECK(svg.find("<title id=\"x-pass-t\">Passing schedule (run 1101)</title>") != std::string::npos);
  CHECK(svg.find("<title id=\"x-fail-t\">Failing schedule (run 1107)</title>") != std::string::npos);
  // Each name heads its lane in both panels and its row of the deadlock.
  CHECK(count_of(svg, ">T1 teller-a</text>") == 3);
  CHECK(count_of(svg, ">T2 teller-b</text>") == 3);
  // Conflict 1 and 2 once in each panel; the failing panel has 1 before 2.
  CHECK(count_of(svg, "class=\"conflict\"") == 4);
  CHECK(svg.find("id=\"x-fail-c1\"") < svg.find("id=\"x-fail-c2\""));
  CHECK(svg.find("id=\"x-pass-c2\"") < svg.find("id=\"x-pass-c1\""));
  // Each box names its op and short target; its tooltip the step, thread, full target and site.
  CHECK(svg.find(">enter Account@o2</text>") != std::string::npos);
  CHECK(svg.find("<title>step 18 · T2 teller-b: monitor_enter example.threads.deadlock.Account@o1 at "
                 "example.threads.deadlock.Transfers.transfer(Transfers.java:10)</title>") != std::string::npos);
  CHECK(svg.find("test fails: deadlock") != std::string::npos);
}

TEST_CASE("threads picture: a deadlock as the blocked threads, the lock each holds and the one it wants", "[report][html][threads]") {
  auto svg = html::thread_schedule_picture(facts_of(deadlock_test), "d");
  CHECK(svg.find("<title id=\"d-deadlock-t\">Deadlock: 2 threads wait for each other</title>") != std::string::npos);
  CHECK(svg.find(">holds Account@o1</text>") != std::string::npos);
  CHECK(svg.find(">wants Account@o2</text>") != std::string::npos);
  CHECK(svg.find(">held by T2 teller-b</text>") != std::string::npos);
  CHECK(svg.find("T1 teller-a holds example.threads.deadlock.Account@o1 (example.threads.deadlock.Transfers.transfer(Transfers.java:9)) "
                 "and waits for example.threads.deadlock.Account@o2") != std::string::npos);
  CHECK(svg.find("<strong>Virtual time</strong>") != std::string::npos);
  CHECK(svg.find("Replaying the failing schedule's decisions brought the same failure back.") != std::string::npos);
  CHECK(svg.find("Not exact") == std::string::npos);
}

TEST_CASE("threads picture: a long schedule shows the steps the record has and says how many were left out", "[report][html][threads]") {
  auto f = facts_of(lost_update_test);
  CHECK(f.failing.steps.size() == html::max_drawn_steps);
  CHECK(f.failing.steps_total == 407);
  CHECK(f.failing.left_out() == 207);
  auto svg = html::thread_schedule_picture(f, "l");
  CHECK(count_of(svg, "⋮ 207 earlier steps left out") == 2);
  CHECK(svg.find("The failing schedule passed 407 scheduling points; the last 200 are drawn, 207 earlier ones left out.") != std::string::npos);
  // Step numbers continue from the left-out ones: the first drawn step is number 208.
  CHECK(svg.find("<title>step 208 · ") != std::string::npos);
  CHECK(svg.find("<title>step 207 · ") == std::string::npos);
  CHECK(count_of(svg, "class=\"conflict\"") == 4);
  CHECK(svg.find("Deadlock") == std::string::npos);

  // A record with more steps than the contract allows: the last 200 are kept.
  core::Evidence e;
  e.details["schedule_failing"] = R"({"run":5,"threads":[{"index":0,"name":"main"}],"steps":)" + steps_json(250) + R"(,"steps_total":250})";
  auto g = html::thread_facts(e);
  REQUIRE(g);
  CHECK(g->failing.steps.size() == 200);
  CHECK(g->failing.steps.front().site == "a.B.m(B.java:51)");
  CHECK(g->failing.left_out() == 50);
}

TEST_CASE("threads picture: a schedule not fully under control says not exact, with the reasons", "[report][html][threads]") {
  auto f = facts_of(pool_test);
  CHECK_FALSE(f.exact);
  REQUIRE(f.inexact_reasons.size() == 1);
  auto svg = html::thread_schedule_picture(f, "p");
  CHECK(svg.find("<strong>Not exact</strong>: part of the test ran outside the scheduler's control: thread audit-writer stalled "
                 "in code that is not rewritten: java.util.concurrent.LinkedBlockingQueue.take; a replay may not make the same "
                 "schedule.") != std::string::npos);
  CHECK(svg.find("(strategy pos, seed 77)") != std::string::npos);
  // Reasons named by neither key: said so.
  core::Evidence e = threads_evidence(pool_test);
  e.details.erase("inexact_reasons");
  auto g = html::thread_facts(e);
  REQUIRE(g);
  CHECK(html::thread_schedule_picture(*g, "q").find("(no reason recorded)") != std::string::npos);
}

TEST_CASE("threads picture: the failing decisions run on real time are said, and a pass there is marked", "[report][html][threads]") {
  core::Evidence e = threads_evidence(pool_test);
  CHECK(html::thread_schedule_picture(*html::thread_facts(e), "r").find("real time") == std::string::npos);
  e.details["real_time_run"] = "31";
  e.details["real_time_outcome"] = "pass";
  auto f = html::thread_facts(e);
  REQUIRE(f);
  CHECK(f->real_time_run == 31);
  CHECK(html::thread_schedule_picture(*f, "r").find("<strong>On real time the same decisions passed</strong> (run 31)") !=
        std::string::npos);
  e.details["real_time_outcome"] = "fail";
  CHECK(html::thread_schedule_picture(*html::thread_facts(e), "r").find("On real time the same decisions gave <code>fail</code> (run 31).") !=
        std::string::npos);
}

TEST_CASE("threads picture: four threads fit two panels side by side in the report's column", "[report][html][threads]") {
  auto f = facts_of(gate_test);
  auto svg = html::thread_schedule_picture(f, "g");
  CHECK(count_of(svg, ">T3 config-loader</text>") == 2);
  // 34 + 4 lanes of 126 + 4 = 542 units a panel.
  CHECK(count_of(svg, "viewBox=\"0 0 542 ") == 2);
  CHECK(count_of(svg, "· T3 config-loader: notify_all example.threads.missednotify.StartGate@o1 at ") == 2);
  CHECK(svg.find("(strategy random, seed 4242)") != std::string::npos);
  CHECK(svg.find("Replaying") == std::string::npos);
}

TEST_CASE("threads facts: what does not parse leaves its part out, never the page", "[report][html][threads]") {
  CHECK_FALSE(html::thread_facts(core::Evidence{}));
  core::Evidence e;
  e.details["schedule_failing"] = "{not json";
  CHECK_FALSE(html::thread_facts(e));
  e.details["schedule_failing"] = R"({"run":9,"steps":[{"thread":0,"op":"yield","target":"thread#0","site":"s"},{"op":"no thread"}]})";
  e.details["conflict"] = "[1,2]";
  e.details["deadlock"] = "null";
  e.details["schedule_passing"] = "7";
  auto f = html::thread_facts(e);
  REQUIRE(f);
  CHECK(f->failing.steps.size() == 1);
  CHECK(f->failing.steps_total == 1);
  CHECK_FALSE(f->passing);
  CHECK_FALSE(f->first);
  CHECK(f->deadlock.empty());
  auto svg = html::thread_schedule_picture(*f, "m");
  CHECK(count_of(svg, "<svg ") == 1);
  CHECK(svg.find("the failing schedule of this test") != std::string::npos);
  CHECK(svg.find(">T0</text>") != std::string::npos);
}

TEST_CASE("threads facts: reasons from the schedule when the details have none; threads past the last lane", "[report][html][threads]") {
  core::Evidence e;
  e.details["exact"] = "false";
  e.details["schedule_failing"] =
      R"({"inexact_reasons":["the step limit was reached"],"steps":[{"thread":0,"op":"yield","target":"thread#0","site":"s"},)"
      R"({"thread":70,"op":"yield","target":"thread#70","site":"t"}]})";
  auto f = html::thread_facts(e);
  REQUIRE(f);
  CHECK(f->inexact_reasons == std::vector<std::string>{"the step limit was reached"});
  auto svg = html::thread_schedule_picture(*f, "r");
  CHECK(svg.find("Not exact</strong>: part of the test ran outside the scheduler's control: the step limit was reached;") !=
        std::string::npos);
  // 64 lanes at most; the step of thread 70 keeps its row number but draws no box.
  CHECK(count_of(svg, ">T63</text>") == 1);
  CHECK(svg.find(">T64</text>") == std::string::npos);
  CHECK(svg.find("<title>step 1 · T0: yield thread#0 at s</title>") != std::string::npos);
  CHECK(svg.find("<title>step 2 · ") == std::string::npos);
}

TEST_CASE("threads picture: text from the details is escaped", "[report][html][threads]") {
  core::Evidence e;
  e.details["schedule_failing"] =
      R"({"threads":[{"index":0,"name":"<script>x()</script>"}],"steps":[{"thread":0,"op":"wait","target":"a<b>@o1","site":"'\"&"}]})";
  e.details["strategy"] = "<i>";
  auto svg = html::thread_schedule_picture(*html::thread_facts(e), "s");
  CHECK(svg.find("<script>") == std::string::npos);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.find("<i>") == std::string::npos);
  CHECK(svg.find("&lt;script&gt;") != std::string::npos);
  CHECK(svg.find("&#39;&quot;&amp;") != std::string::npos);
}

TEST_CASE("conflict rows: the closest pair, in either order; short targets drop the package", "[report][html][threads]") {
  html::ThreadSchedule s;
  const html::ThreadStep a{1, "field_read", "p.C.f@o1", "p.C.m(C.java:3)"}, b{2, "field_write", "p.C.f@o1", "p.C.m(C.java:3)"},
      other{0, "yield", "thread#0", ""};
  s.steps = {a, other, b, a, other, other, a, b, other};
  auto rows = html::conflict_rows(s, a, b, true);  // the failing schedule: a before b
  CHECK(rows.first == 6u);
  CHECK(rows.second == 7u);
  rows = html::conflict_rows(s, a, b, false);  // the passing one: b before a
  CHECK(rows.first == 3u);
  CHECK(rows.second == 2u);
  s.steps = {b, other, a};
  rows = html::conflict_rows(s, a, b, true);  // no pair in that order: the closest in either
  CHECK(rows.first == 2u);
  CHECK(rows.second == 0u);
  s.steps = {other, b};
  rows = html::conflict_rows(s, a, b, true);
  CHECK_FALSE(rows.first);
  CHECK(rows.second == 1u);
  CHECK_FALSE(html::conflict_rows(s, std::nullopt, std::nullopt, true).first);

  CHECK(html::short_target("example.threads.Counter.count@o1") == "Counter.count@o1");
  CHECK(html::short_target("java.util.concurrent.locks.ReentrantLock@o3") == "ReentrantLock@o3");
  CHECK(html::short_target("example.Outer$Inner.field") == "Outer$Inner.field");
  CHECK(html::short_target("thread#2") == "thread#2");
  CHECK(html::short_target("Type@o1") == "Type@o1");
  CHECK(html::short_target("") == "");
}

TEST_CASE("the report draws a threads finding's schedules where explore's are drawn", "[report][html][threads]") {
  auto pictures = html::evidence_pictures(entry_of(deadlock_test), "t");
  CHECK(pictures.find("<h4>Schedules (threads)</h4><figure class=\"threads\">") != std::string::npos);
  CHECK(pictures.find("figure class=\"schedule\"") == std::string::npos);
  CHECK(pictures.find("<figure class=\"strip\">") != std::string::npos);
  // A not-flaky twin gets no schedule picture.
  CHECK(html::evidence_pictures(entry_of(twin_test), "u").find("figure class=\"threads\"") == std::string::npos);
}
