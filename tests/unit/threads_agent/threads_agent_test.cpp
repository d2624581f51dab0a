// The threads agent (daemon/threads_agent) in real JVMs. Each case starts the probe program
// (src/threadsprobe/Probe.java) under the agent for a range of seeds and reads the schedule
// records it prints; a JVM that does not end within the deadline fails the case (no hang).
// Everything is seeded: the same seeds give the same schedules on every run.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "unit/threads_agent/probe.hpp"

using namespace threads_probe;

namespace {

void lost_update_found_and_reproducible(const std::string& strategy, const std::vector<std::string>& properties) {
  auto runs = probe("lost_update", strategy, 1, 20, properties);
  auto again = probe("lost_update", strategy, 1, 20, properties);
  CHECK(count_failed(runs) > 0);
  CHECK(count_failed(runs) < runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    INFO("seed " << runs[i].seed);
    CHECK(runs[i].record.at("decisions") == again[i].record.at("decisions"));
    CHECK(runs[i].failed == again[i].failed);
    CHECK(runs[i].record.at("exact") == true);
    CHECK(runs[i].record.at("strategy") == strategy);
    CHECK(runs[i].record.at("seed") == std::to_string(runs[i].seed));
  }
}

// Runs the runner (daemon/runner) under the agent on `tests` of the junit/ probe classes with
// one strategy and seed; returns the results file's finished lines.
std::vector<json> run_junit(const std::vector<std::string>& tests, const std::string& strategy, long seed) {
  std::string list;
  for (const auto& t : tests) list += t + "\n";
  auto tests_file = temp_file("tests.txt", list);
  auto results_file = std::filesystem::temp_directory_path() / ("flakescan-threads-" + std::to_string(::getpid()) + "-results");
  auto out = flakescan::util::run_capture(
      {"java", "-javaagent:" THREADS_AGENT_JAR, "-Dflakescan.threads.strategy=" + strategy,
       "-Dflakescan.threads.seed=" + std::to_string(seed), "-cp",
       std::string(THREADS_JUNIT_JAR) + ":" + THREADS_JUNIT_CP + ":" + THREADS_RUNNER_JAR, "io.flakescan.runner.Main", "run",
       "--tests-file", tests_file.string(), "--results", results_file.string()},
      120s);
  REQUIRE(out);
  std::ifstream in(results_file);
  std::vector<json> finished;
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j.at("event") == "finished") finished.push_back(j);
  }
  std::filesystem::remove(tests_file);
  std::filesystem::remove(results_file);
  return finished;
}

}  // namespace

TEST_CASE("threads agent: a lost update fails under some random seeds, passes under others, and a seed repeats its schedule",
          "[threads_agent]") {
  lost_update_found_and_reproducible("random", {});
}

TEST_CASE("threads agent: a lost update fails under some PCT seeds, passes under others, and a seed repeats its schedule",
          "[threads_agent]") {
  lost_update_found_and_reproducible("pct", pct_steps);
}

TEST_CASE("threads agent: a lost update fails under some POS seeds, passes under others, and a seed repeats its schedule",
          "[threads_agent]") {
  lost_update_found_and_reproducible("pos", {});
}

TEST_CASE("threads agent: the step limit counts only steps taken while another thread lives, so a long set-up leaves it for the race",
          "[threads_agent]") {
  // 3000 steps of set-up on the test's thread, then a lost update, under a limit of 500 steps.
  auto runs = probe("long_setup_then_race", "random", 1, 20, {"-Dflakescan.threads.max_steps=500"});
  CHECK(count_failed(runs) > 0);
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.record.dump().substr(0, 400));
    CHECK(r.record.at("steps_total").get<long>() > 3000);
    CHECK(r.record.at("exact") == true);
  }
  // The same limit is still reached by steps that race: a 3000-step set-up with no other thread
  // passes it, the lost update's threads do not; a limit below the race's length is reached.
  auto cut = probe("lost_update", "random", 1, 3, {"-Dflakescan.threads.max_steps=3"});
  for (const auto& r : cut) {
    INFO("seed " << r.seed);
    CHECK(r.record.at("exact") == false);
    CHECK(r.record.at("inexact_reasons").dump().find("step limit") != std::string::npos);
  }
}

TEST_CASE("threads agent: control ends after the step limit, where no monitor is held, and the monitors stay exclusive",
          "[threads_agent]") {
  // About 60,000 points of two threads racing for one monitor, under a limit of 200 steps.
  auto runs = probe("long_synchronized_counter", "random", 1, 10, {"-Dflakescan.threads.max_steps=200"});
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.error << " " << r.record.dump().substr(0, 400));
    CHECK_FALSE(r.failed);  // 40,000 increments counted: no increment ran outside the monitor
    CHECK(r.record.at("exact") == false);
    CHECK(r.record.at("inexact_reasons").dump().find("control ended after the step limit") != std::string::npos);
    // Every point after the limit passed the scheduler before; now only those before control ended.
    CHECK(r.record.at("steps_total").get<long>() < 2000);
  }
}

TEST_CASE("threads agent: PCT's change points fall among the steps taken together, so a race after a long set-up is found",
          "[threads_agent]") {
  // 3000 steps of set-up on the test's thread alone, then a lost update. PCT's k comes from a
  // first schedule as the daemon takes it: the steps taken while more than one thread lived
  // (before, the record's whole length, and the change points fell into the set-up).
  auto first = probe("long_setup_then_race", "pct", 1, 1);
  const json& r = first[0].record;
  REQUIRE(r.at("steps_total").get<long>() > 3000);
  const long k = r.value("steps_together", r.at("steps_total").get<long>());
  CHECK(k < 50);
  auto runs = probe("long_setup_then_race", "pct", 1, 20, {"-Dflakescan.threads.steps=" + std::to_string(k)});
  CHECK(count_failed(runs) > 0);
  for (const auto& run : runs) CHECK(run.record.at("steps_together").get<long>() < 50);
}

TEST_CASE("threads agent: a schedule record has the contract's shape", "[threads_agent]") {
  auto runs = probe("lost_update", "random", 1, 1);
  const json& r = runs[0].record;
  for (const char* key : {"strategy", "seed", "depth", "virtual_time", "exact", "inexact_reasons", "threads", "steps_total", "steps_together",
                          "steps", "decisions", "deadlock", "outlived", "virtual_ms", "replay"})
    CHECK(r.contains(key));
  REQUIRE(r.at("threads").size() == 3);
  CHECK(r.at("threads")[0].at("index") == 0);
  CHECK(r.at("threads")[1].at("started_at").get<std::string>().starts_with("threadsprobe.Scenarios.lostUpdate(Scenarios.java:"));
  long decided = 0;
  for (const auto& pair : r.at("decisions")) decided += pair.at(1).get<long>();
  CHECK(decided == r.at("steps_total").get<long>());
  CHECK(r.at("steps").size() == r.at("steps_total").get<std::size_t>());
  std::set<std::string> ops;
  for (const auto& step : r.at("steps")) ops.insert(step.at("op"));
  for (const char* op : {"thread_start", "field_read", "field_write", "thread_join", "thread_end"}) CHECK(ops.count(op) == 1);
  bool field_named = false;
  for (const auto& step : r.at("steps"))
    if (step.at("target") == "threadsprobe.Scenarios$Counter.count@o1") field_named = true;
  CHECK(field_named);
}

TEST_CASE("threads agent: replaying a failing schedule's decisions fails again without diverging", "[threads_agent]") {
  auto runs = probe("lost_update", "random", 1, 20);
  const ProbeRun* failing = nullptr;
  for (const auto& r : runs)
    if (r.failed) failing = &r;
  REQUIRE(failing != nullptr);
  auto file = temp_file("decisions.json", failing->record.at("decisions").dump());
  // Another seed: what the replay does must come from the decisions, not from the seed.
  auto replayed = probe("lost_update", "replay", 99, 99, {}, file.string());
  std::filesystem::remove(file);
  CHECK(replayed[0].failed);
  CHECK(replayed[0].error == failing->error);
  CHECK(replayed[0].record.at("decisions") == failing->record.at("decisions"));
  CHECK(replayed[0].record.at("replay").at("diverged_at").is_null());
  CHECK(replayed[0].record.at("replay").at("followed") == failing->record.at("steps_total"));
  CHECK(replayed[0].record.at("exact") == true);
}

TEST_CASE("threads agent: two locks taken in opposite orders end in a DeadlockError that names both, never a hang", "[threads_agent]") {
  for (const char* scenario : {"lock_order", "lock_order_locks"}) {
    auto runs = probe(scenario, "random", 1, 20);
    std::size_t deadlocks = 0;
    for (const auto& r : runs) {
      if (!r.failed) {
        CHECK(r.record.at("deadlock").is_null());
        continue;
      }
      INFO(scenario << " seed " << r.seed << ": " << r.error);
      CHECK(r.error.starts_with("io.flakescan.threads.DeadlockError: deadlock: "));
      const json& d = r.record.at("deadlock");
      REQUIRE(d.is_object());
      std::set<std::string> held;
      for (const auto& t : d.at("threads"))
        for (const auto& h : t.at("holds")) held.insert(h.at("target"));
      CHECK(held.size() == 2);
      for (const auto& lock : held) CHECK(r.error.find(lock) != std::string::npos);
      ++deadlocks;
    }
    CHECK(deadlocks > 0);
    CHECK(deadlocks < runs.size());
  }
}

TEST_CASE("threads agent: a DeadlockError is thrown from where its thread waits, whichever thread saw the deadlock",
          "[threads_agent]") {
  // Thread 0 waits in a.join() and gets the error, but the deadlock is declared by the thread
  // that blocked last: the error's stack (and so the failure's signature) must be thread 0's
  // at the join in every schedule, not the declaring thread's.
  for (const auto& [scenario, join] : {std::pair{"lock_order", "threadsprobe.Scenarios.lockOrder(Scenarios.java:"},
                                       {"lock_order_locks", "threadsprobe.LibraryScenarios.lockOrderLocks(LibraryScenarios.java:"}}) {
    std::set<std::string> where;
    for (const auto& r : probe(scenario, "random", 1, 20))
      if (r.failed) where.insert(r.at);
    INFO(scenario);
    REQUIRE(where.size() == 1);
    CHECK(where.begin()->starts_with(join));
  }
}

TEST_CASE("threads agent: a notify sent before its wait is reported as a deadlock instead of hanging", "[threads_agent]") {
  auto runs = probe("missed_notify", "random", 1, 10);
  CHECK(count_failed(runs) > 0);
  CHECK(count_failed(runs) < runs.size());
  for (const auto& r : runs) {
    if (!r.failed) continue;
    CHECK(r.error.find("waits for a notify on threadsprobe.Scenarios$Mailbox@o1") != std::string::npos);
    CHECK(r.record.at("deadlock").at("threads")[0].at("waits_for").at("waiting_for_notify") == true);
  }
}

TEST_CASE("threads agent: a sleep used as a wait fails under some schedule on virtual time", "[threads_agent]") {
  auto runs = probe("sleep_as_wait", "random", 1, 10);
  CHECK(count_failed(runs) > 0);
  CHECK(count_failed(runs) < runs.size());
  for (const auto& r : runs) {
    CHECK(r.record.at("virtual_time") == true);
    CHECK(r.record.at("virtual_ms") == 100);
  }
}

TEST_CASE("threads agent: a timed wait nobody notifies times out on the virtual clock", "[threads_agent]") {
  auto runs = probe("timed_wait", "random", 1, 3);
  CHECK(count_failed(runs) == 0);
  for (const auto& r : runs) CHECK(r.record.at("virtual_ms") == 50);
}

TEST_CASE("threads agent: a pool task is controlled, Future.get waits in the model, and the schedule repeats",
          "[threads_agent]") {
  auto runs = probe("pool_task", "random", 1, 5);
  auto again = probe("pool_task", "random", 1, 5);
  CHECK(count_failed(runs) == 0);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    INFO("seed " << r.seed);
    bool task_step = false;
    bool waited_for_future = false;
    for (const auto& s : r.record.at("steps")) {
      if (s.at("thread").get<int>() > 0 && s.at("op") == "field_write") task_step = true;
      if (s.at("thread") == 0 && s.at("op") == "wait" &&
          s.at("target").get<std::string>().starts_with("java.util.concurrent.FutureTask@"))
        waited_for_future = true;
    }
    CHECK(task_step);
    CHECK(waited_for_future);
    // The worker's arrival is waited for (the hand-off), and its idle wait for more work loses nothing.
    CHECK(r.record.at("exact") == true);
    CHECK(r.record.at("decisions") == again[i].record.at("decisions"));
  }
}

TEST_CASE("threads agent: CompletableFuture.supplyAsync on a pool races exactly and repeats", "[threads_agent]") {
  auto runs = probe("completable_future", "random", 1, 20);
  auto again = probe("completable_future", "random", 1, 20);
  CHECK(count_failed(runs) > 0);  // the task's count++ and the test's can interleave
  CHECK(count_failed(runs) < runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    INFO("seed " << runs[i].seed);
    CHECK(runs[i].record.at("exact") == true);
    CHECK(runs[i].record.at("decisions") == again[i].record.at("decisions"));
  }
}

TEST_CASE("threads agent: pool tasks that deadlock end the test with a DeadlockError in the thread waiting in Future.get",
          "[threads_agent]") {
  auto runs = probe("pool_deadlock", "random", 1, 10);
  auto again = probe("pool_deadlock", "random", 1, 10);
  CHECK(count_failed(runs) > 0);
  CHECK(count_failed(runs) < runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    INFO("seed " << r.seed << ": " << r.error);
    CHECK(r.failed == again[i].failed);
    CHECK(r.record.at("decisions") == again[i].record.at("decisions"));
    if (!r.failed) continue;
    CHECK(r.error.find("thread 0 (main) waits for java.util.concurrent.FutureTask@") != std::string::npos);
    REQUIRE(r.record.at("deadlock").is_object());
    CHECK(r.record.at("deadlock").at("threads").size() == 3);
  }
}

TEST_CASE("threads agent: an interrupt reaches a waiting thread whenever it comes", "[threads_agent]") {
  CHECK(count_failed(probe("interrupt_wait", "random", 1, 20)) == 0);
}

TEST_CASE("threads agent: a busy-wait on a volatile flag ends under PCT", "[threads_agent]") {
  auto runs = probe("busy_wait", "pct", 1, 20, pct_steps);
  CHECK(count_failed(runs) == 0);
}

TEST_CASE("threads agent: a thread polling with a sleep between polls gives way under PCT", "[threads_agent]") {
  // Without the rule, a poller with the higher priority passed its loop until the step limit
  // and then ran on for ever: the JVM never ended.
  auto runs = probe("sleep_poll", "pct", 1, 10, pct_steps);
  CHECK(count_failed(runs) == 0);
  for (const auto& r : runs) {
    INFO("seed " << r.seed);
    CHECK(r.record.at("exact") == true);
    CHECK(r.record.at("steps_total").get<long>() < 2000);
  }
}

TEST_CASE("threads agent: a join of a thread the session does not know runs uncontrolled and says so", "[threads_agent]") {
  // Before, the join became a modelled join with no target and the scheduler threw a
  // NullPointerException into the test (found on one of Fray's programs).
  auto runs = probe("join_unknown_thread", "random", 1, 4);
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.error);
    CHECK_FALSE(r.failed);
    CHECK(r.record.at("inexact_reasons").dump().find("java.lang.Thread.join") != std::string::npos);
  }
}

TEST_CASE("threads agent: a thread holding its own Thread object's monitor does not stop the watchdog", "[threads_agent]") {
  // The watchdog used to join the running thread, which takes that Thread's monitor: with the
  // thread holding it while it waited in the scheduler, the watchdog blocked and the JVM hung
  // (found on Fray's ThreadPoolExecutorShutdown program). The probe fails the case on a hang.
  auto pct = probe("own_thread_monitor", "pct", 1, 12, {"-Dflakescan.threads.steps=40"});
  CHECK(count_failed(pct) == 0);
}

TEST_CASE("threads agent: park/unpark and Condition.signal hand over without hanging", "[threads_agent]") {
  CHECK(count_failed(probe("park_unpark", "random", 1, 10)) == 0);
  CHECK(count_failed(probe("condition_signal", "pos", 1, 10)) == 0);
  CHECK(count_failed(probe("atomic_counter", "random", 1, 5)) == 0);
}

TEST_CASE("threads agent: the synchronized twin never fails under any strategy", "[threads_agent]") {
  CHECK(count_failed(probe("synchronized_counter", "random", 1, 50)) == 0);
  CHECK(count_failed(probe("synchronized_counter", "pct", 1, 50, pct_steps)) == 0);
  CHECK(count_failed(probe("synchronized_counter", "pos", 1, 50)) == 0);
}

TEST_CASE("threads agent: a monitor the JDK also locks keeps its real exclusion (a synchronized list)", "[threads_agent]") {
  // The list's add() locks the list for real; iterating inside synchronized (list) must keep it out.
  CHECK(count_failed(probe("synchronized_list_iteration", "random", 1, 20)) == 0);
  CHECK(count_failed(probe("wait_on_jdk_object", "random", 1, 20)) == 0);
}

TEST_CASE("threads agent: Thread.getState and Thread.holdsLock tell the model's truth", "[threads_agent]") {
  auto runs = probe("wait_until_blocked", "pct", 1, 10, pct_steps);
  CHECK(count_failed(runs) == 0);
  for (const auto& r : runs) CHECK(r.record.at("exact") == true);
}

TEST_CASE("threads agent: overrides of lock and get that call super run once and an inherited lock is modelled",
          "[threads_agent]") {
  auto runs = probe("subclassed_lock_and_task", "random", 1, 20);
  CHECK(count_failed(runs) == 0);
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.error);
    bool modelled_lock = false;
    for (const auto& s : r.record.at("steps"))
      if (s.at("op") == "lock" && s.at("target").get<std::string>().starts_with("threadsprobe.LibraryScenarios$NamedLock@"))
        modelled_lock = true;
    CHECK(modelled_lock);
  }
}

TEST_CASE("threads agent: the runner puts each entry's schedule record into its finished line", "[threads_agent][runner]") {
  const std::vector<std::string> tests{
      "threadsprobe.junit.RacyJUnit4Test#lostUpdate", "threadsprobe.junit.RacyJUnit4Test#lostUpdateWithTimeout",
      "threadsprobe.junit.RacyJUnit4Test#singleThreaded", "threadsprobe.junit.RacyJupiterTest#lostUpdate",
      "threadsprobe.junit.RacyJupiterTest#lostUpdateWithTimeout",
      "threadsprobe.junit.RacyJupiterTest#lostUpdateInSeparateThread"};
  auto finished = run_junit(tests, "random", 3);
  REQUIRE(finished.size() == tests.size());
  for (const auto& f : finished) {
    INFO(f.dump());
    REQUIRE(f.contains("threads"));
    const json& r = f.at("threads");
    CHECK(r.at("strategy") == "random");
    CHECK(r.at("deadlock").is_null());
    bool single = f.at("test").get<std::string>().ends_with("#singleThreaded");
    if (single) {
      CHECK(f.at("outcome") == "pass");
      CHECK(r.at("threads").size() == 1);
      CHECK(r.at("steps_total").get<long>() > 0);
    } else {
      // Each lost-update test starts a thread of its own besides the one JUnit may run it in.
      CHECK(r.at("threads").size() >= 2);
    }
  }
}

TEST_CASE("threads agent: a lock-order deadlock under JUnit 4's @Test(timeout) is declared, not left to the timeout",
          "[threads_agent][runner]") {
  // The body runs in JUnit's "Time-limited test" thread while JUnit's caller waits in a timed
  // Future.get outside control (30 s). Before, the scheduler waited for that caller and the
  // test ended in JUnit's TestTimedOutException with no deadlock in the record.
  int deadlocks = 0;
  for (long seed = 1; seed <= 8; ++seed) {
    auto finished = run_junit({"threadsprobe.junit.RacyJUnit4Test#lockOrderWithTimeout"}, "random", seed);
    REQUIRE(finished.size() == 1);
    const json& f = finished[0];
    INFO("seed " << seed << ": " << f.dump());
    if (f.at("outcome") == "pass") {
      CHECK(f.at("threads").at("deadlock").is_null());
      continue;
    }
    ++deadlocks;
    CHECK(f.dump().find("timed out after") == std::string::npos);
    const json& deadlock = f.at("threads").at("deadlock");
    REQUIRE(deadlock.is_object());
    CHECK(deadlock.at("message").get<std::string>().find("held by thread") != std::string::npos);
  }
  CHECK(deadlocks > 0);
}
