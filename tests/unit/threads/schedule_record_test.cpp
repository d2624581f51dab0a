// The schedule record codec (threads/schedule_record.hpp): recorded runner lines decode into
// the record, encode and decode again to the same values, and broken records are errors that
// never take the run's outcome with them.
#include <catch2/catch.hpp>

#include "threads/progress_text.hpp"
#include "threads/schedule_record.hpp"
#include "unit/threads/recorded_runs.hpp"

using namespace flakescan;
using namespace flakescan::threads;
using threads_test::counter;

TEST_CASE("a recorded failing schedule decodes whole", "[threads][record]") {
  auto report = threads_test::recorded_report("counter-fail.results", counter);
  REQUIRE(report.results[0].outcome == core::Outcome::fail);
  REQUIRE(report.results[0].threads);
  const auto& r = *report.results[0].threads;
  CHECK(r.record_error.empty());
  CHECK(r.strategy == "pct");
  CHECK(r.seed == "8123");
  CHECK(r.depth == 3);
  CHECK(r.virtual_time);
  CHECK(r.exact);
  REQUIRE(r.threads.size() == 3);
  CHECK(r.threads[1].name == "Thread-1");
  CHECK(r.threads[1].started_at == "example.threads.CounterTest.counts(CounterTest.java:12)");
  CHECK(r.steps_total == 11);
  REQUIRE(r.steps.size() == 11);
  CHECK(r.steps[3] == core::ScheduleStep{2, "field_read", "example.threads.Counter.count@o1", "example.threads.Counter.increment(Counter.java:20)"});
  CHECK(r.decisions == std::vector<core::ScheduleDecision>{{0, 2}, {1, 1}, {2, 1}, {1, 1}, {2, 1}, {1, 1}, {2, 1}, {0, 3}});
  CHECK_FALSE(r.deadlocked());
  CHECK_FALSE(r.replay_followed);
  CHECK_FALSE(r.single_threaded());
}

TEST_CASE("a replay's record says how far it followed the decisions", "[threads][record]") {
  auto followed = threads_test::recorded_record("counter-replay-fail.results", counter);
  CHECK(followed.replay_followed == 11);
  CHECK_FALSE(followed.replay_diverged_at);
  auto diverged = threads_test::recorded_record("counter-replay-diverged-pass.results", counter);
  CHECK(diverged.replay_diverged_at == 3);
  CHECK_FALSE(diverged.exact);
  CHECK(diverged.inexact_reasons == std::vector<std::string>{"replay diverged at step 3: thread 2 could not run"});
}

TEST_CASE("a deadlock record keeps the deadlock, and it reads as a sentence", "[threads][record]") {
  auto r = threads_test::recorded_record("deadlock-fail.results", threads_test::transfer);
  REQUIRE(r.deadlocked());
  CHECK(describe_deadlock(r.deadlock) ==
        "thread 1 (alice-to-bob) holds example.threads.Account@o1 (example.threads.Bank.transfer(Bank.java:8)) and waits for "
        "example.threads.Account@o2 (example.threads.Bank.transfer(Bank.java:9)); thread 2 (bob-to-alice) holds "
        "example.threads.Account@o2 (example.threads.Bank.transfer(Bank.java:8)) and waits for example.threads.Account@o1 "
        "(example.threads.Bank.transfer(Bank.java:9)); thread 0 (main) waits for thread#1 "
        "(example.threads.TransferTest.transfers(TransferTest.java:13))");
  CHECK(describe_deadlock(R"({"something":"else"})") == R"({"something":"else"})");
}

TEST_CASE("a record round-trips through its text", "[threads][record]") {
  for (const char* name : {"counter-fail.results", "counter-replay-diverged-pass.results", "counter-inexact-fail.results",
                           "deadlock-fail.results", "counter-setup-pass.results"}) {
    CAPTURE(name);
    auto r = threads_test::recorded_record(name, name[0] == 'd' ? threads_test::transfer : counter);
    auto again = parse_schedule_record(schedule_record_text(r));
    REQUIRE(again);
    CHECK(*again == r);
  }
}

TEST_CASE("a record says how many of its steps were taken with more than one thread alive", "[threads][record]") {
  auto r = threads_test::recorded_record("counter-setup-pass.results", counter);
  CHECK(r.steps_total == 3011);
  CHECK(r.steps_together == 11);
  CHECK(threads_test::recorded_record("counter-pass.results", counter).steps_together == 0);  // not said: 0
}

TEST_CASE("a record sent as a string decodes like an object", "[threads][record]") {
  auto r = threads_test::recorded_record("record-as-string-pass.results", counter);
  CHECK(r.record_error.empty());
  CHECK(r.strategy == "random");
  CHECK(r.steps.size() == 11);
}

TEST_CASE("a broken record keeps the run's outcome and notes the record error", "[threads][record]") {
  auto report = threads_test::recorded_report("broken-record-fail.results", counter);
  REQUIRE(report.results.size() == 1);
  CHECK(report.results[0].outcome == core::Outcome::fail);
  CHECK(report.results[0].exception_type == "java.lang.AssertionError");
  CHECK_FALSE(report.results[0].signature.empty());
  REQUIRE(report.results[0].threads);
  CHECK(report.results[0].threads->record_error ==
        "threads record: a decision is not a [thread, count] pair of non-negative integers: [0,\"twelve\"]");
  CHECK_FALSE(report.results[0].threads->single_threaded());
}

TEST_CASE("malformed records are errors that say what is wrong", "[threads][record]") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"", "threads record: not a JSON object"},
      {"[]", "threads record: not a JSON object"},
      {R"({"threads":[],"decisions":[]})", "threads record: 'exact' is required"},
      {R"({"exact":"yes","threads":[],"decisions":[]})", "threads record: 'exact' must be true or false"},
      {R"({"exact":true,"decisions":[]})", "threads record: 'threads' must be an array"},
      {R"({"exact":true,"threads":[{"name":"main"}],"decisions":[]})", "threads record: a thread has no non-negative 'index'"},
      {R"({"exact":true,"threads":[]})", "threads record: 'decisions' must be an array of [thread, count] pairs"},
      {R"({"exact":true,"threads":[],"decisions":[[0,-1]]})", "threads record: a decision is not a [thread, count] pair of non-negative integers: [0,-1]"},
      {R"({"exact":true,"threads":[],"decisions":[[0]]})", "threads record: a decision is not a [thread, count] pair of non-negative integers: [0]"},
      {R"({"exact":true,"threads":[],"decisions":[],"steps":[{"op":"yield"}]})", "threads record: a step has no 'thread' or 'op'"},
      {R"({"exact":true,"threads":[],"decisions":[],"steps_total":-4})", "threads record: 'steps_total' must be a non-negative integer"},
      {R"({"exact":true,"threads":[],"decisions":[],"virtual_time":1})", "threads record: 'virtual_time' must be true or false"},
      {R"({"exact":true,"threads":[],"decisions":[)", "threads record: not a JSON object"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto r = parse_schedule_record(c.text);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::malformed);
    CHECK(r.error().message == c.error);
    auto kept = schedule_record_or_error(c.text);
    CHECK(kept.record_error == c.error);
    CHECK_FALSE(kept.exact);
  }
}

TEST_CASE("sizes past the caps are refused", "[threads][record]") {
  std::string steps = "[";
  for (std::size_t i = 0; i <= max_listed_steps; ++i) steps += std::string(i ? "," : "") + R"({"thread":0,"op":"yield"})";
  steps += "]";
  auto r = parse_schedule_record(R"({"exact":true,"threads":[],"decisions":[],"steps":)" + steps + "}");
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "threads record: more than 10000 steps listed");
}

TEST_CASE("decisions, schedule specs and a verdict's schedule details round-trip", "[threads][record]") {
  std::vector<core::ScheduleDecision> d{{0, 12}, {1, 3}, {0, 5}};
  CHECK(decisions_text(d) == "[[0,12],[1,3],[0,5]]");
  CHECK(parse_decisions("[[0,12],[1,3],[0,5]]").value() == d);
  CHECK_FALSE(parse_decisions("[[0,12],[1]]"));
  CHECK_FALSE(parse_decisions("nonsense"));

  core::ScheduleSpec spec{.strategy = "replay", .seed = 18446744073709551557ull, .depth = 5, .steps = 400, .virtual_time = false,
                          .replay_decisions = d};
  CHECK(parse_schedule_spec(schedule_spec_text(spec)) == spec);
  spec.max_steps = 2000000;
  spec.include = {"org.apache.derby.", "com.acme.Cache"};
  CHECK(parse_schedule_spec(schedule_spec_text(spec)) == spec);
  CHECK(schedule_spec_text(std::nullopt).empty());
  CHECK_FALSE(parse_schedule_spec("{\"strategy\":\"pct\",\"seed\":\"-1\"}"));

  auto record = threads_test::recorded_record("counter-fail.results", counter);
  auto text = schedule_details_text(41, record, 4);
  auto back = parse_schedule_details(text);
  REQUIRE(back);
  CHECK(back->run == 41);
  CHECK(back->schedule.threads == record.threads);
  CHECK(back->schedule.decisions == record.decisions);
  CHECK(back->schedule.steps_total == 11);
  REQUIRE(back->schedule.steps.size() == 4);  // the last four
  CHECK(back->schedule.steps.front() == record.steps[7]);
  CHECK(step_text(record.steps[3]) ==
        R"j({"op":"field_read","site":"example.threads.Counter.increment(Counter.java:20)","target":"example.threads.Counter.count@o1","thread":2})j");
}

TEST_CASE("one controlled thread is single-threaded when exact or when it only left control at blocking calls",
          "[threads][record]") {
  core::ThreadSchedule r;
  r.threads = {{0, "main", ""}};
  CHECK(r.single_threaded());
  r.exact = false;
  r.inexact_reasons = {"a call that may block ran uncontrolled: java.lang.Object.wait at a.B.c(B.java:1)"};
  CHECK(r.single_threaded());
  r.inexact_reasons.push_back("a task handed to a pool did not begin within 1 s");
  CHECK_FALSE(r.single_threaded());
  r.inexact_reasons = {};  // inexact without a reason: nothing says what was lost
  CHECK_FALSE(r.single_threaded());
  r.inexact_reasons = {"a call that may block ran uncontrolled: java.lang.Object.wait at a.B.c(B.java:1)"};
  r.threads.push_back({1, "Thread-1", "a.B.c(B.java:2)"});
  CHECK_FALSE(r.single_threaded());
  r.threads.pop_back();
  r.record_error = "threads record: broken";
  CHECK_FALSE(r.single_threaded());
}

TEST_CASE("the agent's progress file says how far a killed schedule got", "[threads][progress]") {
  using threads::describe_progress;
  CHECK(describe_progress("test=p.T#m\npoints=3012400\ntogether=2998100\nthreads=5\ncontrolling=true\nsite=p.C.m(C.java:12)\n") ==
        "under control the test had passed 3,012,400 scheduling points (2,998,100 while its threads ran together), with 5 "
        "threads; the running thread was last at p.C.m(C.java:12)");
  CHECK(describe_progress("points=120\ntogether=0\nthreads=1\ncontrolling=true\nsite=\n") ==
        "under control the test had passed 120 scheduling points, with 1 thread");
  CHECK(describe_progress("points=100200\ntogether=100000\nthreads=4\ncontrolling=false\nsite=p.C.m(C.java:3)") ==
        "under control the test had passed 100,200 scheduling points (100,000 while its threads ran together), with 4 threads, "
        "and control had ended after the step limit");
  // Nothing to say: empty, half a file, a count that is not a number.
  CHECK(describe_progress("").empty());
  CHECK(describe_progress("test=p.T#m\nthreads=2\n").empty());
  CHECK(describe_progress("points=12x\n").empty());
  CHECK(describe_progress("points=-4\n").empty());
}
