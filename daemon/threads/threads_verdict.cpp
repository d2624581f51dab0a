// The verdict technique `threads` gives a test from its schedules (threads_technique.hpp
// says which; docs/threads.md has the evidence keys).
#include <algorithm>
#include <map>

#include "rerun/outcome_tally.hpp"
#include "threads/conflict.hpp"
#include "threads/schedule_record.hpp"
#include "threads/threads_subject.hpp"

namespace flakescan::threads {

namespace {

std::string run_name(const core::RecordedRun& run) { return "run " + std::to_string(run.id); }

std::string thread_label(const core::ThreadSchedule& record, int index) {
  std::string out = "thread " + std::to_string(index);
  for (const auto& t : record.threads)
    if (t.index == index && !t.name.empty()) return out + " (" + t.name + ")";
  return out;
}

std::string op_phrase(const core::ThreadSchedule& record, const core::ScheduleStep& step) {
  return thread_label(record, step.thread) + " " + step.op + " " + step.target + (step.site.empty() ? "" : " at " + step.site);
}

std::string settings_phrase(const core::ScheduleSpec& spec) {
  return spec.strategy + (spec.strategy == "pct" ? ", bug depth " + std::to_string(spec.depth) : "") + ", " +
         (spec.virtual_time ? "virtual time" : "real time");
}

std::string time_phrase(const core::ScheduleSpec& spec, const core::ThreadSchedule* record) {
  if (!spec.virtual_time) return "time was real (sleeps and timeouts waited on the clock)";
  return "time was virtual" + (record && record->virtual_ms > 0 ? " (the test's clock moved " + std::to_string(record->virtual_ms) +
                                                                      " ms through sleeps and timeouts)"
                                                                : std::string());
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string inexact_phrase(const core::ThreadSchedule* record) {
  if (!record) return "; the failing run carried no readable schedule record";
  if (record->exact) return "";
  return "; the failing schedule was not exact (" +
         (record->inexact_reasons.empty() ? std::string("part of the test ran outside the scheduler's control")
                                          : join(record->inexact_reasons, "; ")) +
         ")";
}

// How many schedules were not exact, and the reason given most often (with how many gave it):
// a not_flaky verdict whose schedules were not under control must say what took control away.
std::string inexact_summary(const Subject& s) {
  std::size_t inexact = 0;
  std::map<std::string, std::size_t> reasons;
  for (const auto& r : s.runs) {
    const auto* record = record_of(r);
    if (!record || record->exact) continue;
    ++inexact;
    for (const auto& why : record->inexact_reasons) ++reasons[why];
  }
  if (inexact == 0) return "";
  std::string out = "; " + std::to_string(inexact) + " of them not exact";
  auto most = std::max_element(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most == reasons.end()) return out;
  return out + ", most often because " + most->first + " (" + std::to_string(most->second) + " of " + std::to_string(inexact) + ")";
}

// What the conflict says, as the middle of the reason.
std::string conflict_phrase(const Subject& s, const core::ThreadSchedule* failing, const std::optional<Conflict>& conflict) {
  const std::string where = " in the failing schedule (seed " + std::to_string(s.failing->spec.schedule->seed) + ", " +
                            run_name(*s.failing) + ")";
  if (!failing || !conflict) return "no two threads met on one target in the recorded steps" + where;
  const std::string a = op_phrase(*failing, conflict->first), b = op_phrase(*failing, conflict->second);
  if (conflict->second_absent)
    return a + where + " came with no " + b + " before it (that one never came in the failing schedule's steps), while in the passing one (" +
           run_name(*s.passing) + ") it came first";
  if (conflict->order_differs)
    return a + " came before " + b + where + ", and after it in the passing one (" + run_name(*s.passing) + ")";
  if (conflict->split)
    return a + " and that thread's next write there were split by " + b + where + ", which the passing schedule (" +
           run_name(*s.passing) + ") did not do";
  return "the last operations of two threads on one target" + where + " were " + a + " then " + b +
         " (their order in the passing schedule, " + run_name(*s.passing) + ", could not be matched)";
}

std::string replay_phrase(const Subject& s) {
  if (!s.replay) return "the failing schedule was not replayed: " + s.not_replayed;
  std::string out = "replaying the failing decisions (" + run_name(*s.replay) + ") ";
  const auto* r = result_of(*s.replay);
  if (!r || !core::is_observation(r->outcome)) out += "gave no outcome" + (r && !r->message.empty() ? " (" + r->message + ")" : "");
  else if (passed(*s.replay)) out += "passed";
  else out += "failed otherwise (" + r->exception_type + ")";
  const auto* record = record_of(*s.replay);
  if (record && record->replay_diverged_at) out += "; the replay diverged at step " + std::to_string(*record->replay_diverged_at);
  return out;
}

// What the failing decisions did on real time, after the rest of a reason; empty when they were
// not to be tried (clocks_disagreed false).
std::string real_time_phrase(const Subject& s) {
  if (!clocks_disagreed(s)) return "";
  if (!s.real_time) return "; the failing decisions were not tried on real time: " + s.no_real_time;
  const auto* r = result_of(*s.real_time);
  const std::string on = "; on real time the same decisions (" + run_name(*s.real_time) + ") ";
  if (!r || !core::is_observation(r->outcome)) return on + "gave no outcome" + (r && !r->message.empty() ? " (" + r->message + ")" : "");
  if (passed(*s.real_time)) return on + "passed";
  if (r->signature == result_of(*s.failing)->signature) return on + "failed the same way, so the virtual clock is not what fails it";
  return on + "failed otherwise (" + r->exception_type + ")";
}

// The failure came with the virtual clock and went on real time, while a thread outside
// control kept real time: the clocks, not an interleaving of controlled threads, decide it.
bool virtual_clock_decides(const Subject& s) { return s.real_time && passed(*s.real_time); }

std::string virtual_clock_reason(const Subject& s, const core::ThreadSchedule& failing) {
  const auto& spec = *s.failing->spec.schedule;
  const std::string passed_too = s.passed_uncontrolled_only()
                                     ? "the run without control passed too (" + run_name(*s.passing) + ", after all " +
                                           std::to_string(s.schedules) + " controlled schedules failed)"
                                     : "another schedule passed too (" + run_name(*s.passing) + ")";
  return "fails only when its clock is virtual: under seed " + std::to_string(spec.seed) + " (" + run_name(*s.failing) +
         "; the replay, " + run_name(*s.replay) + ", failed the same way) the test's clock jumped " +
         std::to_string(failing.virtual_ms) + " ms through sleeps and timeouts, while a thread outside the scheduler's control kept real time (" +
         *failing.timed_from_outside() + "); the same decisions on real time passed (" + run_name(*s.real_time) + "), and " +
         passed_too + ". The test waits with a sleep or a timeout for the work of a thread that keeps real time (typically a JDK timer "
         "or scheduled executor): on a real machine only that thread held up for as long as the wait fails it, and no interleaving "
         "of the controlled threads is shown to decide the outcome, so it is not called a concurrency bug";
}

void schedule_details(const Subject& s, core::Evidence& e, const std::optional<Conflict>& conflict) {
  auto& d = e.details;
  const auto& spec = *s.failing->spec.schedule;
  const auto* failing = record_of(*s.failing);
  const auto* passing = record_of(*s.passing);
  d["strategy"] = spec.strategy;
  d["seed"] = std::to_string(spec.seed);
  d["virtual_time"] = spec.virtual_time ? "true" : "false";
  if (spec.max_steps != core::ScheduleSpec{}.max_steps) d["max_steps"] = std::to_string(spec.max_steps);
  if (!spec.include.empty()) d["include"] = join(spec.include, ",");
  d["exact"] = failing && failing->exact ? "true" : "false";
  if (failing) d["schedule_failing"] = schedule_details_text(s.failing->id, *failing);
  if (passing) d["schedule_passing"] = schedule_details_text(s.passing->id, *passing);
  if (conflict) d["conflict"] = conflict_text(conflict->first, conflict->second);
  if (failing && failing->deadlocked()) d["deadlock"] = failing->deadlock;
  if (s.passed_uncontrolled_only()) d["passed_uncontrolled"] = "true";
  d["replayed"] = replay_confirms(s) ? "true" : "false";
  if (s.real_time) {
    d["real_time_run"] = std::to_string(s.real_time->id);
    d["real_time_outcome"] = std::string(core::outcome_name(s.real_time->report.outcome_at(0)));
  }
}

// Where the pass came from: another schedule, or the run without control.
std::string passing_phrase(const Subject& s) {
  if (s.passed_uncontrolled_only())
    return "the test passed when run without control (" + run_name(*s.passing) + ") after all " + std::to_string(s.schedules) +
           " controlled schedules failed";
  return "another schedule passed (" + run_name(*s.passing) + ")";
}

// A confirmed failure whose failing schedule deadlocked: the deadlock sentence first. A deadlock
// noticed behind a timed wait did not end the test; the test failed its own way afterwards.
std::string deadlock_reason(const Subject& s, const core::ThreadSchedule& failing) {
  const auto& spec = *s.failing->spec.schedule;
  const std::string noticed = deadlock_noticed_when(failing.deadlock);
  const auto* replayed = record_of(*s.replay);
  const std::string again = replayed && replayed->deadlocked() ? "deadlocked again" : "failed the same way";
  std::string out = "deadlock: " + describe_deadlock(failing.deadlock);
  if (!noticed.empty()) {
    const auto* r = result_of(*s.failing);
    out += "; noticed when " + noticed + ", after which the test failed its own way" +
           (r && !r->exception_type.empty() ? " (" + r->exception_type + ")" : "");
  }
  return out + " (seed " + std::to_string(spec.seed) + ", " + run_name(*s.failing) + "; the replay, " + run_name(*s.replay) + ", " +
         again + "), while " + passing_phrase(s);
}

// A failure and a pass under two schedules: concurrency when the replay confirms it.
void flaky_verdict(const Subject& s, core::Verdict& v) {
  auto& e = v.evidence;
  e.failing_run = s.failing->id;
  e.passing_run = s.passing->id;
  e.reproducer = {s.test};
  const auto* failing = record_of(*s.failing);
  const auto* passing = record_of(*s.passing);
  std::optional<Conflict> conflict;
  if (failing && passing) conflict = find_conflict(*failing, *passing);
  schedule_details(s, e, conflict);
  const auto& spec = *s.failing->spec.schedule;
  const std::string tail = "; " + time_phrase(spec, failing) + inexact_phrase(failing);
  v.verdict = core::VerdictKind::flaky;
  if (!replay_confirms(s)) {
    // Seen to fail and to pass, so flaky all the same (never not_flaky), but with no
    // category of ours: the schedule does not bring the failure back.
    v.category = core::Category::unknown;
    const std::string passed_where = s.passed_uncontrolled_only()
                                         ? "passed without control (" + run_name(*s.passing) + ")"
                                         : "passed under seed " + std::to_string(s.passing->spec.schedule->seed) + " (" +
                                               run_name(*s.passing) + ")";
    e.reason = "failed under schedule seed " + std::to_string(spec.seed) + " (" + run_name(*s.failing) + ") and " + passed_where + ", but " + replay_phrase(s) +
               ": the schedule does not explain the failure, so it is not called a concurrency bug" + real_time_phrase(s) + tail;
    return;
  }
  if (virtual_clock_decides(s)) {
    v.category = core::Category::unknown;
    e.reason = virtual_clock_reason(s, *failing) + inexact_phrase(failing);
    return;
  }
  v.category = core::Category::concurrency;
  if (failing && failing->deadlocked()) {
    e.reason = deadlock_reason(s, *failing) + tail;
    return;
  }
  if (s.passed_uncontrolled_only()) {
    e.reason = "fails under every controlled interleaving tried (" + std::to_string(s.schedules) + ", seed " +
               std::to_string(spec.seed) + " in " + run_name(*s.failing) + ") and passed when run without control (" +
               run_name(*s.passing) + "): the JVM's own scheduler and clock happen to pick an order that passes, so the test "
               "depends on timing; replaying the failing schedule (" + run_name(*s.replay) + ") failed the same way" +
               real_time_phrase(s) + tail;
    return;
  }
  e.reason = "fails under one interleaving of its threads and passes under another: " + conflict_phrase(s, failing, conflict) +
             "; replaying the failing schedule (" + run_name(*s.replay) + ") failed the same way" + real_time_phrase(s) + tail;
}

// What the run without control did, after every schedule failed and it did not pass.
std::string uncontrolled_phrase(const core::RecordedRun& run) {
  if (failed(run)) return ", and once without control (" + run_name(run) + ")";
  const auto* r = result_of(run);
  return "; the run without control (" + run_name(run) + ") gave no outcome" +
         (r && !r->message.empty() ? " (" + r->message + ")" : std::string());
}

// Every schedule had the same outcome (or none): what was tried, and what limited it.
void unexplored_verdict(const Subject& s, const core::TechniqueInput& input, core::Verdict& v) {
  const auto& spec = *s.runs.front().spec.schedule;
  if (v.verdict != core::VerdictKind::not_flaky && v.verdict != core::VerdictKind::failing) return;
  const auto* first = record_of(s.runs.front());
  if (s.single_thread) {
    v.evidence.reason = v.verdict == core::VerdictKind::not_flaky
                            ? "one thread: nothing to schedule (" + run_name(s.runs.front()) + " ran it under control with one thread" +
                                  (first && !first->inexact_reasons.empty() ? "; " + first->inexact_reasons.front() : std::string()) + ")"
                            : "failed its controlled run (" + run_name(s.runs.front()) + "), which had one thread: nothing to schedule";
    return;
  }
  std::size_t most_threads = 0;
  for (const auto& r : s.runs)
    if (const auto* record = record_of(r)) most_threads = std::max(most_threads, record->threads.size());
  std::string said = (v.verdict == core::VerdictKind::not_flaky ? "passed under all " : "failed under all ") +
                     std::to_string(s.schedules) + " schedules (" + settings_phrase(spec) + "), up to " +
                     std::to_string(most_threads) + " controlled threads" + inexact_summary(s);
  if (v.verdict == core::VerdictKind::failing && s.uncontrolled) said += uncontrolled_phrase(*s.uncontrolled);
  else if (v.verdict == core::VerdictKind::failing && deadlocked_every_time(s))
    said += ", each in a deadlock, so it was not run without control (a deadlock is a finding already, and that run "
            "would hang until the run deadline)";
  if (v.verdict == core::VerdictKind::failing) said += ": a broken test, not a flaky one";
  if (s.budget_ended)
    said += "; the scan's budget stopped the search after " + std::to_string(s.schedules) + " of " +
            std::to_string(input.threads.schedules) + " schedules";
  if (first && first->deadlocked() && v.verdict == core::VerdictKind::failing)
    said += "; deadlock: " + describe_deadlock(first->deadlock);
  v.evidence.reason = said + (v.runs.infra > 0 ? "; " + std::to_string(v.runs.infra) + " runs cut short were not counted" : "");
}

}  // namespace

bool deadlocked_every_time(const Subject& s) {
  bool any = false;
  for (const auto& r : s.runs) {
    if (!r.spec.schedule || r.spec.schedule->strategy == "replay" || !failed(r)) continue;
    const auto* record = record_of(r);
    if (!record || !record->deadlocked() || !deadlock_noticed_when(record->deadlock).empty()) return false;
    any = true;
  }
  return any;
}

bool clocks_disagreed(const Subject& s) {
  if (!s.failing || !s.failing->spec.schedule || !s.failing->spec.schedule->virtual_time) return false;
  const auto* record = record_of(*s.failing);
  return record && record->virtual_ms > 0 && !record->deadlocked() && record->timed_from_outside();
}

bool replay_confirms(const Subject& s) {
  if (!s.replay || !s.failing || !failed(*s.replay)) return false;
  return result_of(*s.replay)->signature == result_of(*s.failing)->signature;
}

core::Verdict threads_verdict(const Subject& s, const core::TechniqueInput& input, const std::string& unavailable) {
  rerun::OutcomeTally tally;
  for (const auto& r : s.runs) tally.add(r);
  core::Verdict v = rerun::verdict_from_tally(s.test, tally.find(s.test), "threads", core::Category::concurrency);
  v.evidence.details["strategy"] = input.threads.strategy;
  v.evidence.details["virtual_time"] = input.threads.virtual_time ? "true" : "false";
  if (!unavailable.empty()) {
    v.verdict = core::VerdictKind::could_not_run;
    v.category = core::Category::none;
    v.evidence.reason = "no controlled run could be made: " + unavailable;
    return v;
  }
  if (s.runs.empty() || !s.runs.front().spec.schedule) return v;
  if (v.verdict == core::VerdictKind::could_not_run && v.runs.infra > 0 && v.runs.skipped == 0) {
    v.evidence.reason = "no controlled schedule finished (" + v.evidence.reason +
                        "): under control one thread runs at a time, so a test that spins or runs long under the "
                        "scheduler can outlast the run deadline (--timeout-seconds gives each run more)";
    return v;
  }
  if (s.explored()) flaky_verdict(s, v);
  else unexplored_verdict(s, input, v);
  return v;
}

}  // namespace flakescan::threads
