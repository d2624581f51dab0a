#pragma once
// The JSON forms of technique `threads` (docs/threads.md), as pure functions: text in,
// core values out, and back. No I/O, no logging; the JSON library stays in the .cpp, so the
// technique and the backend that include this see only core types.
//
//   schedule record ("threads" in a finished line, and results.threads in the store):
//     {"strategy":"pct","seed":"8123","depth":3,"virtual_time":true,"exact":true,
//      "inexact_reasons":[],"threads":[{"index":0,"name":"main"},
//                                      {"index":1,"name":"T","started_at":"p.C.m(C.java:14)"}],
//      "steps_total":57,"steps_together":40,"steps":[{"thread":1,"op":"field_read","target":"p.C.n@o1","site":".."}],
//      "steps_omitted":0,"decisions":[[0,12],[1,3]],"deadlock":null,"outlived":[],
//      "virtual_ms":0,"replay":{"followed":N,"diverged_at":null}}
//   decisions (the replay file):            [[thread, count], ...]
//   schedule spec (runs.schedule):          {"strategy","seed":"N","depth","steps","virtual_time","max_steps" (when not
//                                            the default),"include":[..] (when given),"replay":[[t,n],..]}
//   a verdict's schedule_failing/_passing:  {"run":ID,"threads":[..],"steps":[last 200],"steps_total":N,"decisions":[..],
//                                            "inexact_reasons":[..] (only when there are some)}
//   a verdict's conflict:                   {"first":STEP,"second":STEP}
//
// Decoding is strict about the shape (a record that is not one is an error, never half a
// schedule) and caps sizes: at most max_listed_steps steps, max_decisions decision pairs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/thread_schedule.hpp"
#include "util/error.hpp"

namespace flakescan::threads {

inline constexpr std::size_t max_listed_steps = 10000;     // the agent lists at most 2,000
inline constexpr std::size_t max_decisions = 1000000;      // pairs; the agent stops control at 100,000 points
inline constexpr std::size_t max_record_bytes = 16 << 20;  // a record past this is not read

// A record as the runner wrote it. Error (malformed): not a record; the message says why.
util::Result<core::ThreadSchedule> parse_schedule_record(std::string_view text);
// What the runner's finished line carried: the record, or one whose record_error says why it
// could not be read (the run keeps its outcome either way).
core::ThreadSchedule schedule_record_or_error(std::string_view text);
// The record as compact JSON (round-trips through parse_schedule_record; record_error kept).
std::string schedule_record_text(const core::ThreadSchedule& record);

std::string decisions_text(const std::vector<core::ScheduleDecision>& decisions);
util::Result<std::vector<core::ScheduleDecision>> parse_decisions(std::string_view text);

// runs.schedule: '' for a run without a schedule.
std::string schedule_spec_text(const std::optional<core::ScheduleSpec>& spec);
std::optional<core::ScheduleSpec> parse_schedule_spec(std::string_view text);

// A verdict's schedule_failing / schedule_passing: the record's threads, its decisions, its
// inexact reasons and its last `last_steps` listed steps, with the run's id.
std::string schedule_details_text(std::int64_t run, const core::ThreadSchedule& record, std::size_t last_steps = 200);
struct ScheduleDetails {
  std::int64_t run = 0;
  core::ThreadSchedule schedule;  // threads, steps, steps_total, decisions
};
util::Result<ScheduleDetails> parse_schedule_details(std::string_view text);

std::string step_text(const core::ScheduleStep& step);
std::string conflict_text(const core::ScheduleStep& first, const core::ScheduleStep& second);

// The deadlock object as a sentence ("thread 1 (T1) holds Object@o3 and waits for Object@o4
// at p.C.m(C.java:9); ..."); the compact JSON itself when its shape is not known.
std::string describe_deadlock(std::string_view deadlock_json);

// One blocked thread of a deadlock object, as far as its shape is the contract's: the monitor or
// lock it waits for (op may be empty in older records) and those it holds.
struct DeadlockedThread {
  int thread = -1;
  core::ScheduleStep waits_for;  // thread, op, target, site
  std::vector<core::ScheduleStep> holds;  // thread, target, site (op empty)
};
// The deadlock's threads in its order; entries without a thread number or a waits_for object are left out.
std::vector<DeadlockedThread> deadlocked_threads(std::string_view deadlock_json);

// The deadlock's "noticed_when" ("thread 0's timed join timed out": a wait-for cycle found when a
// timed wait timed out, the test going on to fail its own way); empty when the deadlock ended
// the test (or the object does not say).
std::string deadlock_noticed_when(std::string_view deadlock_json);

}  // namespace flakescan::threads
