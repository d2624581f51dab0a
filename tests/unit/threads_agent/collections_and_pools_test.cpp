// The threads agent in real JVMs, issue 33's second round (CollectionScenarios.java): calls on
// a HashMap are read and write steps, so a check-then-act on a map fails under some schedules
// while its twins (synchronized, ConcurrentHashMap) never do; objects that never leave a method
// make no steps; a lock-order deadlock behind timed joins is named in the record without a
// DeadlockError; a task handed to Executors.newSingleThreadExecutor with a project ThreadFactory
// runs on a registered thread, exactly.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "unit/threads_agent/probe.hpp"

using namespace threads_probe;

namespace {

std::set<std::string> ops_of(const json& record, int thread = -1) {
  std::set<std::string> ops;
  for (const auto& s : record.at("steps"))
    if (thread < 0 || s.at("thread") == thread) ops.insert(s.at("op"));
  return ops;
}

}  // namespace

TEST_CASE("threads agent: a check-then-act on a HashMap fails under some schedules, exactly, its calls read and write steps",
          "[threads_agent]") {
  auto runs = probe("check_then_act", "random", 1, 20);
  CHECK(count_failed(runs) > 0);
  CHECK(count_failed(runs) < runs.size());
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.error);
    CHECK(r.record.at("exact") == true);
    std::set<std::string> map_ops;
    for (const auto& s : r.record.at("steps"))
      if (s.at("target").get<std::string>().starts_with("java.util.HashMap@")) {
        map_ops.insert(s.at("op"));
        CHECK(s.at("site").get<std::string>().starts_with("threadsprobe.CollectionScenarios$Registry.lookup(CollectionScenarios.java:"));
      }
    CHECK(map_ops == std::set<std::string>{"call_read", "call_write"});
  }
}

TEST_CASE("threads agent: the check-then-act's twins never fail: under a monitor, and on a ConcurrentHashMap (no call steps)",
          "[threads_agent]") {
  CHECK(count_failed(probe("check_then_act_synchronized", "random", 1, 30)) == 0);
  CHECK(count_failed(probe("check_then_act_synchronized", "pct", 1, 30, pct_steps)) == 0);
  auto concurrent = probe("check_then_act_concurrent", "random", 1, 30);
  CHECK(count_failed(concurrent) == 0);
  for (const auto& r : concurrent) {
    CHECK(ops_of(r.record).count("call_read") == 0);
    CHECK(ops_of(r.record).count("call_write") == 0);
  }
}

TEST_CASE("threads agent: a list, a StringBuilder and a map filled before it is returned make no steps where they are made",
          "[threads_agent]") {
  auto runs = probe("confined_locals", "random", 1, 2);
  CHECK(count_failed(runs) == 0);
  for (const auto& r : runs) {
    INFO(r.record.at("steps").dump());
    std::vector<std::string> call_sites;
    for (const auto& s : r.record.at("steps"))
      if (s.at("op").get<std::string>().starts_with("call_")) call_sites.push_back(s.at("site"));
    // Only the caller's size() on the returned table, which another thread could now see.
    REQUIRE(call_sites.size() == 1);
    CHECK(call_sites[0].starts_with("threadsprobe.CollectionScenarios.lambda$confinedLocals$"));
  }
}

TEST_CASE("threads agent: a lock-order deadlock behind timed joins is the record's deadlock, and the test fails its own way",
          "[threads_agent]") {
  auto runs = probe("timed_join_deadlock", "random", 1, 20);
  auto again = probe("timed_join_deadlock", "random", 1, 20);
  std::size_t deadlocks = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    INFO("seed " << r.seed << ": " << r.error);
    CHECK(r.record.at("decisions") == again[i].record.at("decisions"));
    if (!r.failed) {
      CHECK(r.record.at("deadlock").is_null());
      continue;
    }
    ++deadlocks;
    CHECK(r.error == "java.lang.AssertionError: the two threads did not finish");
    const json& d = r.record.at("deadlock");
    REQUIRE(d.is_object());
    CHECK(d.at("noticed_when") == "thread 0's timed join timed out");
    REQUIRE(d.at("threads").size() == 2);
    std::set<std::string> held, wanted;
    for (const auto& t : d.at("threads")) {
      CHECK(t.at("thread") != 0);
      for (const auto& h : t.at("holds")) held.insert(h.at("target"));
      wanted.insert(t.at("waits_for").at("target"));
      CHECK(t.at("waits_for").contains("held_by"));
    }
    CHECK(held.size() == 2);
    CHECK(held == wanted);
    CHECK(d.at("message").get<std::string>().starts_with("deadlock: thread 1 (left-first) holds java.util.concurrent.locks.ReentrantLock@"));
  }
  CHECK(deadlocks > 0);
  CHECK(deadlocks < runs.size());
}

TEST_CASE("threads agent: a task handed to a single-thread executor with a project ThreadFactory runs on a registered thread, exactly",
          "[threads_agent]") {
  auto runs = probe("single_thread_executor", "random", 1, 20);
  auto again = probe("single_thread_executor", "random", 1, 20);
  CHECK(count_failed(runs) > 0);  // the test's size() may come before or after the task's add()
  CHECK(count_failed(runs) < runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& r = runs[i];
    INFO("seed " << r.seed << ": " << r.record.dump());
    CHECK(r.record.at("exact") == true);
    CHECK(r.record.at("decisions") == again[i].record.at("decisions"));
    REQUIRE(r.record.at("threads").size() == 2);
    const json& worker = r.record.at("threads")[1];
    CHECK(worker.at("name") == "audit-writer");
    CHECK(worker.at("started_at").get<std::string>().starts_with("threadsprobe.CollectionScenarios$Audit.record(CollectionScenarios.java:"));
    CHECK_FALSE(worker.contains("adopted_at"));
    // The test's size() is a step on the list; in a passing schedule the worker's add() came first, on the same list.
    std::string read_target, write_target;
    for (const auto& s : r.record.at("steps")) {
      if (s.at("thread") == 0 && s.at("op") == "call_read") read_target = s.at("target");
      if (s.at("thread") == 1 && s.at("op") == "call_write") write_target = s.at("target");
    }
    CHECK(read_target.starts_with("java.util.ArrayList@"));
    if (!r.failed) CHECK(write_target == read_target);
  }
}

TEST_CASE("threads agent: awaitTermination on a single-thread executor waits in the model: never fails, exact", "[threads_agent]") {
  auto runs = probe("await_termination", "random", 1, 10);
  CHECK(count_failed(runs) == 0);
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.error << " " << r.record.dump());
    CHECK(r.record.at("exact") == true);
    bool waited = false;
    for (const auto& s : r.record.at("steps"))
      if (s.at("thread") == 0 && s.at("op") == "wait" && s.at("target").get<std::string>().starts_with("java.util.concurrent.Executors$"))
        waited = true;
    CHECK(waited);
  }
}

TEST_CASE("threads agent: synchronized on a project subclass of Vector excludes the JDK's own synchronized remove: never fails",
          "[threads_agent]") {
  // JaConTeBe J3: the monitor of a project object whose JDK superclass locks this is the real one too.
  for (const auto& r : probe("vector_subclass_monitor", "random", 1, 8)) {
    INFO("seed " << r.seed << ": " << r.error);
    CHECK(!r.failed);
  }
  CHECK(count_failed(probe("vector_subclass_monitor", "pct", 1, 8, pct_steps)) == 0);
}

namespace {

// oldprobe.OldLocks compiled with javac --release 8 into a fresh directory, its major version
// patched to `major` (bytes 6-7 of the class file) when it is not 0.
std::filesystem::path old_locks_dir(const std::string& name, int major) {
  auto dir = temp_file(name, "");
  std::filesystem::remove(dir);
  std::filesystem::create_directories(dir);
  auto out = flakescan::util::run_capture(
      {"javac", "--release", "8", "-nowarn", "-d", dir.string(), THREADS_OLD_SOURCES "/oldprobe/OldLocks.java"}, 60s);
  REQUIRE(out);
  auto file = dir / "oldprobe" / "OldLocks.class";
  REQUIRE(std::filesystem::exists(file));
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  unsigned char version[2];
  f.seekg(6);
  f.read(reinterpret_cast<char*>(version), 2);
  REQUIRE(version[0] == 0);
  REQUIRE(version[1] == 52);
  if (major != 0) {
    version[1] = static_cast<unsigned char>(major);
    f.seekp(6);
    f.write(reinterpret_cast<const char*>(version), 2);
  }
  return dir;
}

}  // namespace

TEST_CASE("threads agent: a class file older than Java 6 is rewritten too: its lock-order deadlock is found as in a Java 8 one",
          "[threads_agent]") {
  // JaConTeBe J1: major versions below 50 used to load unchanged, silently, with exact records.
  for (int major : {0, 49}) {
    auto dir = old_locks_dir("old-" + std::to_string(major), major);
    auto runs = probe("old_class_file", "random", 1, 8, {"-Dthreadsprobe.old=" + dir.string()});
    std::filesystem::remove_all(dir);
    std::size_t deadlocks = 0;
    for (const auto& r : runs) {
      INFO("major " << major << " seed " << r.seed << ": " << r.error);
      CHECK(r.record.at("exact") == true);
      if (!r.failed) continue;
      CHECK(r.error.starts_with("io.flakescan.threads.DeadlockError: deadlock: "));
      CHECK(r.error.find("oldprobe.OldLocks") != std::string::npos);
      ++deadlocks;
    }
    INFO("major " << major);
    CHECK(deadlocks > 0);
  }
}
