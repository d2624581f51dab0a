#pragma once
// The picture of a `threads` finding (docs/threads.md, "What a threads verdict carries" and
// "The report"): a passing and the failing schedule side by side, one lane per thread, one box
// per scheduling point, top to bottom in the order the threads passed them; the two
// conflicting operations numbered and marked in both; a deadlock drawn as the blocked threads
// with the locks each holds and the one it waits for. Pure functions of the finding's
// evidence.details, whose JSON values (schedule_failing, schedule_passing, conflict, deadlock,
// inexact_reasons) are read here and nowhere else in the report.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/verdict.hpp"

namespace flakescan::report::html {

// The most steps a schedule panel draws (the contract puts the last 200 into the details), and
// the most lanes (a step of a thread past them keeps its row, empty).
inline constexpr std::size_t max_drawn_steps = 200;
inline constexpr int max_lanes = 64;

struct ThreadStep {
  int thread = 0;
  std::string op;      // monitor_enter, field_write, ... (docs/threads.md)
  std::string target;  // "example.Counter.count@o1", "Account@o2", "thread#1"
  std::string site;    // "example.Counter.increment(Counter.java:21)"
  bool operator==(const ThreadStep&) const = default;
};

struct ThreadSchedule {
  std::optional<std::int64_t> run;
  std::vector<std::string> thread_names;  // by thread index; "" where the record names none
  std::vector<ThreadStep> steps;          // the last steps of the record, at most max_drawn_steps
  std::int64_t steps_total = 0;           // every scheduling point the run passed
  std::int64_t left_out() const { return steps_total > std::int64_t(steps.size()) ? steps_total - std::int64_t(steps.size()) : 0; }
};

struct LockHeld {
  std::string lock, site;
};

struct DeadlockedThread {
  int thread = 0;
  std::string name;
  std::vector<LockHeld> holds;
  LockHeld wants;
};

struct ThreadFacts {
  std::string strategy, seed;
  bool virtual_time = false;
  bool exact = true;
  std::vector<std::string> inexact_reasons;
  bool replayed = false;
  // The failing decisions run again on real time (details.real_time_run/real_time_outcome):
  // its run, and its outcome ("pass", "fail", ...); 0 and empty when none was made.
  std::int64_t real_time_run = 0;
  std::string real_time_outcome;
  ThreadSchedule failing;
  std::optional<ThreadSchedule> passing;
  std::optional<ThreadStep> first, second;  // the conflict, in the failing schedule's order
  std::vector<DeadlockedThread> deadlock;   // empty: the failing schedule did not deadlock
};

// nullopt when the details hold no readable schedule_failing (a finding of another technique).
std::optional<ThreadFacts> thread_facts(const core::Evidence& evidence);

// Where the conflict's two steps are drawn in one schedule, as indexes into schedule.steps: the
// closest pair of a step equal to `first` and a step equal to `second` in the given order
// (the failing schedule runs first before second, the passing one the other way round), the
// later pair on a tie; the closest pair in either order when no pair is in that order.
struct ConflictRows {
  std::optional<std::size_t> first, second;
};
ConflictRows conflict_rows(const ThreadSchedule& schedule, const std::optional<ThreadStep>& first,
                           const std::optional<ThreadStep>& second, bool first_before_second);

// "example.threads.Counter.count@o1" -> "Counter.count@o1"; "thread#2" stays.
std::string short_target(const std::string& target);

// The <figure>: both panels, the deadlock (when there is one) and a caption that says the
// strategy and seed, virtual time, "not exact" with its reasons, and what was left out.
// `id` makes the element ids of the picture unique in its page.
std::string thread_schedule_picture(const ThreadFacts& facts, const std::string& id);

}  // namespace flakescan::report::html
