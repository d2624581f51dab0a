#pragma once
// Technique `threads` (docs/threads.md): what a controlled run asks for (ScheduleSpec, in
// core::RunSpec) and what it reports per test (ThreadSchedule, in core::TestResult, decoded
// from the "threads" record of the runner's finished line by threads/schedule_record.hpp).
// Plain values; the record's JSON form lives in the codec, not here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flakescan::core {

// One run-length pair of a schedule's decisions: `count` scheduling points in a row at which
// thread `thread` went on.
struct ScheduleDecision {
  int thread = 0;
  long count = 0;
  bool operator==(const ScheduleDecision&) const = default;
};

// A run whose threads are controlled by the threads agent. Strategy `random`, `pct` or `pos`
// explore from `seed`; `replay` follows `replay_decisions` (the failing schedule's record).
struct ScheduleSpec {
  std::string strategy = "pct";
  std::uint64_t seed = 0;
  int depth = 3;            // PCT's bug depth d
  int steps = 200;          // PCT's estimate k of scheduling points per test taken with other threads alive
  bool virtual_time = true;
  // Steps chosen while more than one controlled thread lives after which the test runs on
  // uncontrolled (flakescan.threads.max_steps).
  int max_steps = 100000;
  // Class-name prefixes the agent rewrites (flakescan.threads.include); empty: every class of
  // the project. Replaying a schedule needs the same ones: other classes, other points.
  std::vector<std::string> include;
  std::vector<ScheduleDecision> replay_decisions;
  bool operator==(const ScheduleSpec&) const = default;
};

struct ScheduledThread {
  int index = 0;
  std::string name;
  std::string started_at;  // the site of its Thread.start; empty for thread 0
  bool operator==(const ScheduledThread&) const = default;
};

// One scheduling point: which thread passed it, doing what, on what, where.
struct ScheduleStep {
  int thread = 0;
  std::string op;      // monitor_enter, field_write, ... (docs/threads.md)
  std::string target;  // "Class.field@o1", "Type@o2", "thread#1"
  std::string site;    // "pkg.C.m(C.java:21)"
  bool operator==(const ScheduleStep&) const = default;
};

// The schedule record of one test in one controlled run. `record_error` not empty: the
// runner's record could not be read (the run's outcome stands; only the schedule is lost).
struct ThreadSchedule {
  std::string strategy;
  std::string seed;  // as the agent wrote it (an unsigned 64-bit decimal)
  int depth = 0;
  bool virtual_time = true;
  bool exact = true;
  std::vector<std::string> inexact_reasons;
  std::vector<ScheduledThread> threads;
  long steps_total = 0;
  // Steps chosen while more than one controlled thread lived: what PCT draws its change points
  // over and the step limit counts. 0 when the record does not say (an agent that predates it).
  long steps_together = 0;
  std::vector<ScheduleStep> steps;  // at most 2,000: the first 1,000 and the last 1,000
  long steps_omitted = 0;           // steps left out between the two halves
  std::vector<ScheduleDecision> decisions;
  std::string deadlock;             // the record's deadlock object as compact JSON (keys sorted); empty: none
  std::string outlived;             // the record's outlived array as compact JSON (keys sorted); empty: none
  long virtual_ms = 0;
  // Strategy replay: how many points followed the recorded decisions, and the step at which
  // the recorded thread could not run (nullopt: followed to the end).
  std::optional<long> replay_followed;
  std::optional<long> replay_diverged_at;
  std::string record_error;
  bool operator==(const ThreadSchedule&) const = default;

  bool deadlocked() const { return !deadlock.empty(); }
  // One controlled thread: there is nothing to schedule. It may have left control at a call
  // that may block (it then runs on outside control, and there is still no choice to make);
  // any other reason for an inexact record (a pool task that never arrived, a record that could
  // not be read) may hide a thread another schedule would see.
  bool single_threaded() const {
    if (threads.size() > 1 || !record_error.empty()) return false;
    for (const auto& reason : inexact_reasons)
      if (!reason.starts_with(left_at_blocking_call)) return false;
    return exact || !inexact_reasons.empty();
  }
  // How the agent begins the reason when a thread left control at a call that may block
  // (threads_agent's Sched).
  static constexpr std::string_view left_at_blocking_call = "a call that may block ran uncontrolled";
  // A thread came under control when real time chose, not the scheduler: started, or woken
  // from its pool's idle wait, by code that is not rewritten (a JDK timer's or scheduled
  // executor's thread). Such a thread keeps real time while a virtual clock jumps. The reason
  // that says so, or nullptr.
  const std::string* timed_from_outside() const {
    for (const auto& reason : inexact_reasons)
      if (reason.find(on_its_own_time) != std::string::npos) return &reason;
    return nullptr;
  }
  // The words of the agent's reason for such a thread (threads_agent's Session.arrived).
  static constexpr std::string_view on_its_own_time = "on its own time";
};

}  // namespace flakescan::core
