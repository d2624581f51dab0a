// Technique `threads` (threads/threads_technique.hpp) over a scripted run log: each controlled
// run is answered with a recorded runner stream (tests/fixtures/threads/), read the way the
// local backend reads it. What is checked: the runs asked for (seeds, strategy, replay
// decisions), when the search stops, and each verdict with its evidence and details.
#include <catch2/catch.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include "threads/schedule_record.hpp"
#include "threads/threads_technique.hpp"
#include "unit/threads/recorded_runs.hpp"

using namespace flakescan;
using namespace flakescan::threads;
using threads_test::counter;

namespace {

// Answers the n-th schedule of a test with script[test][n] (the last one again past the end)
// and a replay with replays[test].
class ScriptedLog final : public core::RunLog {
 public:
  std::map<std::string, std::vector<std::string>> script;
  std::map<std::string, std::string> replays;
  std::map<std::string, std::string> real_time_replays;  // a replay on real time of decisions recorded on virtual time
  std::map<std::string, std::string> uncontrolled;  // a run without a schedule
  std::optional<util::Error> refuse;  // every run is refused with it
  std::vector<core::RunSpec> specs;
  std::vector<std::size_t> batches;

  int time_for_runs = -1;  // >= 0: later runs come back unmade, as when the scan's time runs out

  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    if (refuse) return std::unexpected(*refuse);
    if (time_for_runs >= 0 && int(specs.size()) >= time_for_runs) {
      core::RecordedRun unmade{.id = 0, .spec = spec};
      unmade.report.infra_reason = "not run: the scan's time budget ran out";
      return unmade;
    }
    specs.push_back(spec);
    const auto& test = spec.tests.front();
    std::string name;
    if (!spec.schedule) {
      name = uncontrolled.at(test);
    } else if (spec.schedule->strategy == "replay") {
      name = spec.schedule->virtual_time ? replays.at(test) : real_time_replays.at(test);
    } else {
      const auto& list = script.at(test);
      name = list[std::min(made_[test]++, list.size() - 1)];
    }
    return core::RecordedRun{.id = std::int64_t(specs.size()), .spec = spec, .report = threads_test::recorded_report(name, test)};
  }
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& in) override {
    batches.push_back(in.size());
    std::vector<core::RecordedRun> out;
    for (const auto& s : in) {
      auto r = run(s);
      if (!r) return std::unexpected(r.error());
      out.push_back(std::move(*r));
    }
    return out;
  }
  int parallelism() const override { return 2; }
  bool cancelled() const override { return false; }
  void plan(int) override {}

 private:
  std::map<std::string, std::size_t> made_;
};

core::TechniqueInput input_for(std::vector<std::string> tests, int schedules = 100) {
  core::TechniqueInput in;
  in.tests = std::move(tests);
  in.seed = 42;
  in.threads.schedules = schedules;
  return in;
}

core::Verdict only(const util::Result<std::vector<core::Verdict>>& verdicts) {
  REQUIRE(verdicts);
  REQUIRE(verdicts->size() == 1);
  return verdicts->front();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string watchdog = "example.threads.WatchdogTest#expires";

// The watchdog test (tests/fixtures/threads/README.md): every schedule fails on virtual time, the
// run without control passes, the replay fails the same way; `real_time`: the same decisions
// on real time ("": never asked for).
void script_watchdog(ScriptedLog& log, const std::string& real_time) {
  log.script[watchdog] = {"watchdog-fail.results"};
  log.uncontrolled[watchdog] = "watchdog-uncontrolled-pass.results";
  log.replays[watchdog] = "watchdog-replay-fail.results";
  if (!real_time.empty()) log.real_time_replays[watchdog] = real_time;
}

}  // namespace

TEST_CASE("a lost update: explored until it failed and passed, replayed, flaky/concurrency", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results", "counter-pass.results", "counter-fail.results"};
  log.replays[counter] = "counter-replay-fail.results";
  auto v = only(detect_concurrency(input_for({counter}), log));

  REQUIRE(log.specs.size() == 4);
  const auto seeds = threads_seeds(42, 100);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(log.specs[i].schedule);
    CHECK(log.specs[i].schedule->strategy == "pct");
    CHECK(log.specs[i].schedule->seed == seeds[i]);
    CHECK(log.specs[i].seed == seeds[i]);
    CHECK(log.specs[i].schedule->depth == 3);
    CHECK(log.specs[i].schedule->virtual_time);
    CHECK(log.specs[i].technique == "threads");
  }
  CHECK(log.specs[0].schedule->steps == 200);  // PCT's default estimate k, then the first schedule's own count
  CHECK(log.specs[1].schedule->steps == 11);
  CHECK(log.specs[2].schedule->steps == 11);
  const auto& replay = log.specs[3];
  CHECK(replay.schedule->strategy == "replay");
  CHECK(replay.schedule->seed == seeds[2]);
  CHECK(replay.schedule->replay_decisions == threads_test::recorded_record("counter-fail.results", counter).decisions);

  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::concurrency);
  CHECK(v.technique == "threads");
  CHECK(v.evidence.failing_run == 3);
  CHECK(v.evidence.passing_run == 1);
  CHECK(v.evidence.reproducer == std::vector<std::string>{counter});
  CHECK(v.runs.passed == 2);
  CHECK(v.runs.failed == 2);
  REQUIRE(v.evidence.failures.size() == 1);
  const auto& d = v.evidence.details;
  CHECK(d.at("strategy") == "pct");
  CHECK(d.at("seed") == std::to_string(seeds[2]));
  CHECK(d.at("virtual_time") == "true");
  CHECK(d.at("exact") == "true");
  CHECK(d.at("replayed") == "true");
  CHECK(d.at("conflict") == conflict_text({2, "field_read", "example.threads.Counter.count@o1", "example.threads.Counter.increment(Counter.java:20)"},
                                          {1, "field_write", "example.threads.Counter.count@o1", "example.threads.Counter.increment(Counter.java:21)"}));
  auto failing = parse_schedule_details(d.at("schedule_failing"));
  REQUIRE(failing);
  CHECK(failing->run == 3);
  CHECK(failing->schedule.steps.size() == 11);
  CHECK(parse_schedule_details(d.at("schedule_passing"))->run == 1);
  CHECK_FALSE(d.contains("deadlock"));
  CHECK(v.evidence.reason ==
        "fails under one interleaving of its threads and passes under another: thread 2 (Thread-2) field_read "
        "example.threads.Counter.count@o1 at example.threads.Counter.increment(Counter.java:20) came before thread 1 (Thread-1) "
        "field_write example.threads.Counter.count@o1 at example.threads.Counter.increment(Counter.java:21) in the failing schedule "
        "(seed " + std::to_string(seeds[2]) + ", run 3), and after it in the passing one (run 1); replaying the failing schedule "
        "(run 4) failed the same way; time was virtual");
}

TEST_CASE("PCT's k is the steps the first schedule took with its threads together, not its long set-up alone", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-setup-pass.results", "counter-fail.results"};
  log.replays[counter] = "counter-replay-fail.results";
  auto v = only(detect_concurrency(input_for({counter}), log));
  REQUIRE(log.specs.size() >= 2);
  CHECK(log.specs[1].schedule->steps == 11);  // not 3011 (steps_total), most of them set-up
  CHECK(v.verdict == core::VerdictKind::flaky);
}

TEST_CASE("a failure the replay does not bring back is flaky with no category of ours, never not_flaky", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-fail.results", "counter-pass.results"};
  log.replays[counter] = "counter-replay-diverged-pass.results";
  auto v = only(detect_concurrency(input_for({counter}), log));
  CHECK(log.specs.size() == 3);
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::unknown);
  CHECK(v.evidence.details.at("replayed") == "false");
  CHECK(has(v.evidence.reason, "replaying the failing decisions (run 3) passed; the replay diverged at step 3"));
  CHECK(has(v.evidence.reason, "the schedule does not explain the failure"));
  CHECK(core::honest_verdict(v).verdict == core::VerdictKind::flaky);
}

TEST_CASE("a deadlock in one schedule and a pass in another: flaky/concurrency, the threads and locks named", "[threads][technique]") {
  ScriptedLog log;
  const auto& t = threads_test::transfer;
  log.script[t] = {"deadlock-fail.results", "deadlock-pass.results"};
  log.replays[t] = "deadlock-replay-fail.results";
  auto in = input_for({t});
  in.threads.strategy = "pos";
  auto v = only(detect_concurrency(in, log));
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::concurrency);
  CHECK(v.evidence.details.at("strategy") == "pos");
  CHECK(v.evidence.details.contains("deadlock"));
  CHECK(v.evidence.reason.starts_with("deadlock: thread 1 (alice-to-bob) holds example.threads.Account@o1"));
  CHECK(has(v.evidence.reason, "the replay, run 3, deadlocked again"));
}

TEST_CASE("a deadlock noticed behind a timed join leads the reason, and the test's own failure follows", "[threads][technique]") {
  ScriptedLog log;
  const auto& t = threads_test::transfer;
  log.script[t] = {"timed-deadlock-fail.results", "deadlock-pass.results"};
  log.replays[t] = "timed-deadlock-replay-fail.results";
  auto v = only(detect_concurrency(input_for({t}), log));
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::concurrency);
  REQUIRE(v.evidence.details.contains("deadlock"));
  CHECK(has(v.evidence.details.at("deadlock"), "noticed_when"));
  CHECK(v.evidence.reason.starts_with("deadlock: thread 1 (alice-to-bob) holds example.threads.Account@o1"));
  CHECK(has(v.evidence.reason, "; noticed when thread 0's timed join timed out, after which the test failed its own way "
                               "(java.lang.AssertionError)"));
  CHECK(has(v.evidence.reason, "the replay, run 3, deadlocked again"));
  // The conflict is the deadlock's: thread 2 took Account@o2 at line 8, thread 1 waits for it at line 9.
  CHECK(v.evidence.details.at("conflict") == conflict_text({2, "monitor_enter", "example.threads.Account@o2",
                                                            "example.threads.Bank.transfer(Bank.java:8)"},
                                                           {1, "monitor_enter", "example.threads.Account@o2",
                                                            "example.threads.Bank.transfer(Bank.java:9)"}));
}

TEST_CASE("a failing schedule that was not exact is still an observation, and the reason says so", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-inexact-fail.results", "counter-pass.results"};
  log.replays[counter] = "counter-inexact-fail.results";
  auto in = input_for({counter});
  in.threads.strategy = "random";
  auto v = only(detect_concurrency(in, log));
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::concurrency);
  CHECK(v.evidence.details.at("exact") == "false");
  CHECK(has(v.evidence.reason, "time was virtual (the test's clock moved 250 ms through sleeps and timeouts)"));
  CHECK(has(v.evidence.reason, "the failing schedule was not exact (CountDownLatch.await ran uncontrolled at "
                               "example.threads.CounterTest.counts(CounterTest.java:15))"));
}

TEST_CASE("the failing schedule in the details says why it was not exact, for the report's picture", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-inexact-fail.results", "counter-pass.results"};
  log.replays[counter] = "counter-inexact-fail.results";
  auto in = input_for({counter});
  in.threads.strategy = "random";
  auto v = only(detect_concurrency(in, log));
  auto failing = nlohmann::json::parse(v.evidence.details.at("schedule_failing"));
  REQUIRE(failing.contains("inexact_reasons"));
  CHECK(failing["inexact_reasons"][0] == "CountDownLatch.await ran uncontrolled at example.threads.CounterTest.counts(CounterTest.java:15)");
  auto passing = nlohmann::json::parse(v.evidence.details.at("schedule_passing"));
  CHECK_FALSE(passing.contains("inexact_reasons"));
}

TEST_CASE("a failing run whose record was lost cannot be replayed: flaky/unknown, and why", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"broken-record-fail.results", "counter-pass.results"};
  auto v = only(detect_concurrency(input_for({counter}), log));
  CHECK(log.specs.size() == 2);  // no replay
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::unknown);
  CHECK(has(v.evidence.reason, "the failing schedule was not replayed: its schedule record could not be read (threads record: "));
  CHECK_FALSE(v.evidence.details.contains("schedule_failing"));
  CHECK(v.evidence.details.contains("schedule_passing"));
}

TEST_CASE("every schedule passes: not_flaky, with how many and which strategy", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results"};
  auto v = only(detect_concurrency(input_for({counter}, 5), log));
  CHECK(log.specs.size() == 5);
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(v.evidence.reason == "passed under all 5 schedules (pct, bug depth 3, virtual time), up to 3 controlled threads");
}

TEST_CASE("not_flaky with schedules that were not exact says why, by the reason given most often", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-step-limit-pass.results", "counter-pass.results", "counter-step-limit-pass.results"};
  auto v = only(detect_concurrency(input_for({counter}, 3), log));
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(v.evidence.reason ==
        "passed under all 3 schedules (pct, bug depth 3, virtual time), up to 3 controlled threads; 2 of them not exact, "
        "most often because the step limit (100000) was reached: the rest ran without recorded decisions (2 of 2)");
}

TEST_CASE("schedules killed at the run deadline: could_not_run, and the reason says what outlasted it", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-killed.results"};
  auto v = only(detect_concurrency(input_for({counter}, 5), log));
  CHECK(v.verdict == core::VerdictKind::could_not_run);
  CHECK(v.runs.passed + v.runs.failed == 0);
  CHECK(has(v.evidence.reason, "no controlled schedule finished (test did not finish: the JVM was killed at the 40 s deadline"));
  CHECK(has(v.evidence.reason, "--timeout-seconds"));
}

TEST_CASE("a skipped test is not said to have outlasted the run deadline", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-skipped.results"};
  auto v = only(detect_concurrency(input_for({counter}, 5), log));
  CHECK(v.runs.skipped > 0);
  CHECK(v.runs.passed + v.runs.failed == 0);
  CHECK_FALSE(has(v.evidence.reason, "no controlled schedule finished"));
}

TEST_CASE("every schedule fails and so does a run without control: failing", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-fail.results"};
  log.uncontrolled[counter] = "counter-uncontrolled-fail.results";
  auto in = input_for({counter}, 4);
  in.threads.virtual_time = false;
  auto v = only(detect_concurrency(in, log));
  REQUIRE(log.specs.size() == 5);
  CHECK_FALSE(log.specs[4].schedule);  // the fifth run had no scheduler
  CHECK(v.verdict == core::VerdictKind::failing);
  CHECK(v.evidence.reason == "failed under all 4 schedules (pct, bug depth 3, real time), up to 3 controlled threads, "
                             "and once without control (run 5): a broken test, not a flaky one");
  CHECK_FALSE(log.specs[0].schedule->virtual_time);
}

TEST_CASE("every schedule fails and the run without control hangs: failing, and the reason says the run gave no outcome",
          "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-fail.results"};
  log.uncontrolled[counter] = "counter-killed.results";
  auto v = only(detect_concurrency(input_for({counter}, 3), log));
  CHECK(v.verdict == core::VerdictKind::failing);
  CHECK(has(v.evidence.reason, "failed under all 3 schedules"));
  CHECK(has(v.evidence.reason, "; the run without control (run 4) gave no outcome (test did not finish: the JVM was killed at the 40 s deadline"));
  CHECK_FALSE(has(v.evidence.reason, "and once without control"));
}

TEST_CASE("every schedule deadlocks: no run without control (it would hang), failing, and the reason says why", "[threads][technique]") {
  ScriptedLog log;
  const auto& t = threads_test::transfer;
  log.script[t] = {"deadlock-fail.results"};
  log.uncontrolled[t] = "counter-killed.results";  // what such a run gives: nothing, at the deadline
  auto in = input_for({t}, 3);
  in.threads.strategy = "pos";
  auto v = only(detect_concurrency(in, log));
  REQUIRE(log.specs.size() == 3);
  for (const auto& spec : log.specs) CHECK(spec.schedule);
  CHECK(v.verdict == core::VerdictKind::failing);
  CHECK(has(v.evidence.reason, "failed under all 3 schedules (pos, virtual time), up to 3 controlled threads, each in a deadlock, "
                               "so it was not run without control (a deadlock is a finding already, and that run would hang "
                               "until the run deadline): a broken test, not a flaky one; deadlock: thread 1 (alice-to-bob)"));
}

TEST_CASE("schedules that fail otherwise than in a deadlock still get the run without control", "[threads][technique]") {
  ScriptedLog log;
  const auto& t = threads_test::transfer;
  // The second schedule's deadlock was only noticed behind a timed join: the test went on and
  // failed its own assertion, which a run without control may not.
  log.script[t] = {"deadlock-fail.results", "timed-deadlock-fail.results"};
  log.uncontrolled[t] = "counter-killed.results";
  auto v = only(detect_concurrency(input_for({t}, 2), log));
  REQUIRE(log.specs.size() == 3);
  CHECK_FALSE(log.specs[2].schedule);
  CHECK(v.verdict == core::VerdictKind::failing);
  CHECK(has(v.evidence.reason, "the run without control (run 3) gave no outcome"));
  CHECK_FALSE(has(v.evidence.reason, "each in a deadlock"));
}

TEST_CASE("every schedule fails but a run without control passes: flaky, concurrency, the uncontrolled run is the pass",
          "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-fail.results"};
  log.uncontrolled[counter] = "counter-uncontrolled-pass.results";
  log.replays[counter] = "counter-replay-fail.results";
  auto v = only(detect_concurrency(input_for({counter}, 4), log));
  REQUIRE(log.specs.size() == 6);  // 4 schedules, 1 without control, 1 replay
  CHECK_FALSE(log.specs[4].schedule);
  REQUIRE(log.specs[5].schedule);
  CHECK(log.specs[5].schedule->strategy == "replay");
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::concurrency);
  CHECK(v.evidence.failing_run == 1);
  CHECK(v.evidence.passing_run == 5);
  CHECK(v.evidence.details.at("passed_uncontrolled") == "true");
  CHECK_FALSE(v.evidence.details.contains("schedule_passing"));
  CHECK(has(v.evidence.reason, "fails under every controlled interleaving tried (4, seed "));
  CHECK(has(v.evidence.reason, "passed when run without control (run 5)"));
  CHECK(has(v.evidence.reason, "replaying the failing schedule (run 6) failed the same way"));
}

TEST_CASE("a failure only on virtual time, beside a thread that kept real time: the same decisions on real time pass, "
          "flaky/unknown, the clocks named", "[threads][technique]") {
  ScriptedLog log;
  script_watchdog(log, "watchdog-real-time-pass.results");
  auto v = only(detect_concurrency(input_for({watchdog}, 4), log));
  REQUIRE(log.specs.size() == 7);  // 4 schedules, 1 without control, the replay and the same decisions on real time
  CHECK(log.batches.back() == 2);   // those two in one round
  for (int i : {5, 6}) {
    REQUIRE(log.specs[i].schedule);
    CHECK(log.specs[i].schedule->strategy == "replay");
    CHECK(log.specs[i].schedule->replay_decisions == log.specs[5].schedule->replay_decisions);
  }
  CHECK(log.specs[5].schedule->virtual_time);
  CHECK_FALSE(log.specs[6].schedule->virtual_time);
  CHECK(has(log.specs[6].purpose, "the failing decisions on real time"));
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::unknown);
  CHECK(v.evidence.failing_run == 1);
  CHECK(v.evidence.details.at("real_time_run") == "7");
  CHECK(v.evidence.details.at("real_time_outcome") == "pass");
  CHECK(v.evidence.details.at("replayed") == "true");
  CHECK(has(v.evidence.reason, "fails only when its clock is virtual"));
  CHECK(has(v.evidence.reason, "the test's clock jumped 400 ms"));
  CHECK(has(v.evidence.reason, "thread 1 (watchdog-0) came under control at its first point on its own time"));
  CHECK(has(v.evidence.reason, "the same decisions on real time passed (run 7)"));
  CHECK(has(v.evidence.reason, "the run without control passed too (run 5"));
  CHECK(has(v.evidence.reason, "not called a concurrency bug"));
}

TEST_CASE("a failure on virtual time that the same decisions on real time bring back stays flaky/concurrency, and says so",
          "[threads][technique]") {
  ScriptedLog log;
  script_watchdog(log, "watchdog-real-time-fail.results");
  auto v = only(detect_concurrency(input_for({watchdog}, 4), log));
  REQUIRE(log.specs.size() == 7);
  CHECK(v.verdict == core::VerdictKind::flaky);
  CHECK(v.category == core::Category::concurrency);
  CHECK(v.evidence.details.at("real_time_outcome") == "fail");
  CHECK(has(v.evidence.reason, "on real time the same decisions (run 7) failed the same way, so the virtual clock is not what fails it"));
}

TEST_CASE("no run left for the same decisions on real time: the reason says they were not tried", "[threads][technique]") {
  ScriptedLog log;
  script_watchdog(log, "");
  auto in = input_for({watchdog}, 4);
  in.budget.max_runs = 6;  // 4 schedules, 1 without control, the replay
  auto v = only(detect_concurrency(in, log));
  REQUIRE(log.specs.size() == 6);
  CHECK(v.category == core::Category::concurrency);
  CHECK_FALSE(v.evidence.details.contains("real_time_run"));
  CHECK(has(v.evidence.reason, "the failing decisions were not tried on real time: the scan's budget left no run for it"));
}

TEST_CASE("a failure with no thread on real time beside the virtual clock is not tried on real time", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-inexact-fail.results", "counter-pass.results"};  // 250 ms virtual, a latch uncontrolled
  log.replays[counter] = "counter-replay-fail.results";
  auto v = only(detect_concurrency(input_for({counter}), log));
  REQUIRE(log.specs.size() == 3);
  for (const auto& spec : log.specs) CHECK(spec.schedule->virtual_time);
  CHECK(v.category == core::Category::concurrency);
  CHECK_FALSE(has(v.evidence.reason, "real time"));
}

TEST_CASE("one controlled thread, exactly: nothing to schedule after the first run", "[threads][technique]") {
  ScriptedLog log;
  log.script[threads_test::plain] = {"single-thread-pass.results"};
  auto v = only(detect_concurrency(input_for({threads_test::plain}), log));
  CHECK(log.specs.size() == 1);
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(v.technique == "threads");
  CHECK(v.evidence.reason == "one thread: nothing to schedule (run 1 ran it under control with one thread)");
}

TEST_CASE("one controlled thread that left control at a blocking call: still nothing to schedule after the first run",
          "[threads][technique]") {
  ScriptedLog log;
  log.script[threads_test::plain] = {"single-thread-blocking-pass.results"};
  auto v = only(detect_concurrency(input_for({threads_test::plain}), log));
  CHECK(log.specs.size() == 1);
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(v.evidence.reason ==
        "one thread: nothing to schedule (run 1 ran it under control with one thread; a call that may block ran uncontrolled: "
        "java.util.concurrent.locks.Condition.awaitNanos at example.threads.Sum.offer(Sum.java:9))");
}

TEST_CASE("one controlled thread whose pool task never arrived is explored: another schedule may see that thread",
          "[threads][technique]") {
  ScriptedLog log;
  log.script[threads_test::plain] = {"single-thread-pool-pass.results"};
  auto v = only(detect_concurrency(input_for({threads_test::plain}, 5), log));
  CHECK(log.specs.size() == 5);
  CHECK(v.verdict == core::VerdictKind::not_flaky);
}

TEST_CASE("the scan's run budget stops the search, and the reason says so", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results"};
  auto in = input_for({counter}, 100);
  in.budget.max_runs = 3;
  auto v = only(detect_concurrency(in, log));
  CHECK(log.specs.size() == 3);
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(has(v.evidence.reason, "the scan's budget stopped the search after 3 of 100 schedules"));
}

TEST_CASE("runs the scan's time left unmade are not counted as schedules", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results"};
  log.time_for_runs = 3;
  auto v = only(detect_concurrency(input_for({counter}, 100), log));
  CHECK(log.specs.size() == 3);
  CHECK(v.verdict == core::VerdictKind::not_flaky);
  CHECK(v.runs.total == 3);
  CHECK(has(v.evidence.reason, "passed under all 3 schedules"));
  CHECK(has(v.evidence.reason, "the scan's budget stopped the search after 3 of 100 schedules"));
}

TEST_CASE("several tests' schedules run together, one per test a round", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results", "counter-fail.results"};
  log.replays[counter] = "counter-replay-fail.results";
  log.script[threads_test::plain] = {"single-thread-pass.results"};
  auto verdicts = detect_concurrency(input_for({counter, threads_test::plain}, 10), log);
  REQUIRE(verdicts);
  REQUIRE(verdicts->size() == 2);
  CHECK((*verdicts)[0].category == core::Category::concurrency);
  CHECK((*verdicts)[1].verdict == core::VerdictKind::not_flaky);
  // first schedules (the first alone, to find out whether controlled runs can be made), one
  // more round of the counter, then its replay
  CHECK(log.batches == std::vector<std::size_t>{1, 1, 1});
  CHECK(log.specs.size() == 4);
}

TEST_CASE("a failure found early is replayed in the next round, before other tests' schedules spend the budget",
          "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-fail.results", "counter-pass.results"};
  log.replays[counter] = "counter-replay-fail.results";
  log.script[threads_test::transfer] = {"deadlock-pass.results"};  // two threads, passes every schedule
  auto in = input_for({counter, threads_test::transfer}, 100);
  in.budget.max_runs = 6;
  auto verdicts = detect_concurrency(in, log);
  REQUIRE(verdicts);
  REQUIRE(verdicts->size() == 2);
  // the first schedules (the first alone, the other in a batch), one more of each, then the counter's replay beside
  // the transfer's third schedule: the budget's last run went to the replay, not a fourth schedule
  CHECK(log.batches == std::vector<std::size_t>{1, 2, 2});
  REQUIRE(log.specs.size() == 6);
  REQUIRE(log.specs[4].schedule);
  CHECK(log.specs[4].schedule->strategy == "replay");
  CHECK((*verdicts)[0].category == core::Category::concurrency);
  CHECK((*verdicts)[0].evidence.details.at("replayed") == "true");
  CHECK((*verdicts)[1].verdict == core::VerdictKind::not_flaky);
  CHECK(has((*verdicts)[1].evidence.reason, "the scan's budget stopped the search after 3 of 100 schedules"));
}

TEST_CASE("no controlled run can be made: could_not_run, with the backend's reason", "[threads][technique]") {
  ScriptedLog log;
  log.refuse = util::Error{util::Errc::unsupported, "the threads agent (flakescan-threads-agent.jar) was not found"};
  auto v = only(detect_concurrency(input_for({counter}), log));
  CHECK(v.verdict == core::VerdictKind::could_not_run);
  CHECK(v.evidence.reason == "no controlled run could be made: the threads agent (flakescan-threads-agent.jar) was not found");
}

TEST_CASE("replay_threads makes the verdict's failing schedule again from its details", "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results", "counter-fail.results"};
  log.replays[counter] = "counter-replay-fail.results";
  auto v = only(detect_concurrency(input_for({counter}), log));
  REQUIRE(v.evidence.details.contains("schedule_failing"));
  auto run = replay_threads(counter, v.evidence.details, log);
  REQUIRE(run);
  CHECK(run->spec.technique == "replay");
  CHECK(run->spec.schedule->strategy == "replay");
  CHECK(run->spec.schedule->seed == std::stoull(v.evidence.details.at("seed")));
  CHECK(run->spec.schedule->replay_decisions == threads_test::recorded_record("counter-fail.results", counter).decisions);
  CHECK(run->report.results[0].threads->replay_followed == 11);
  CHECK(replay_threads(counter, {}, log).error().code == util::Errc::conflict);
  CHECK(replay_threads(counter, {{"schedule_failing", "{]"}}, log).error().code == util::Errc::conflict);
}

TEST_CASE("the agent's step limit and the classes it rewrites go to every schedule, the replay and the verdict's details",
          "[threads][technique]") {
  ScriptedLog log;
  log.script[counter] = {"counter-pass.results", "counter-fail.results"};
  log.replays[counter] = "counter-replay-fail.results";
  auto in = input_for({counter});
  in.threads.max_steps = 2000000;
  in.threads.include = {"org.apache.derby.", "com.acme.Cache"};
  auto v = only(detect_concurrency(in, log));
  REQUIRE(log.specs.size() == 3);
  for (const auto& spec : log.specs) {
    CHECK(spec.schedule->max_steps == 2000000);
    CHECK(spec.schedule->include == in.threads.include);
  }
  CHECK(v.evidence.details.at("max_steps") == "2000000");
  CHECK(v.evidence.details.at("include") == "org.apache.derby.,com.acme.Cache");
  auto run = replay_threads(counter, v.evidence.details, log);
  REQUIRE(run);
  CHECK(run->spec.schedule->max_steps == 2000000);
  CHECK(run->spec.schedule->include == in.threads.include);
  // Defaults are not written into the details.
  ScriptedLog plain;
  plain.script[counter] = log.script[counter];
  plain.replays[counter] = log.replays[counter];
  auto d = only(detect_concurrency(input_for({counter}), plain)).evidence.details;
  CHECK_FALSE(d.contains("max_steps"));
  CHECK_FALSE(d.contains("include"));
}

TEST_CASE("schedule seeds follow from the scan's seed", "[threads][technique]") {
  CHECK(threads_seeds(42, 3) == threads_seeds(42, 3));
  CHECK(threads_seeds(42, 3) != threads_seeds(43, 3));
  for (auto s : threads_seeds(7, 50)) CHECK(s != 0);
}
