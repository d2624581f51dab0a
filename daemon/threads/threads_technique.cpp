#include "threads/threads_technique.hpp"

#include <algorithm>
#include <chrono>
#include <charconv>

#include "core/run_seeds.hpp"
#include "threads/schedule_record.hpp"
#include "threads/threads_subject.hpp"

namespace flakescan::threads {

namespace {

using Clock = std::chrono::steady_clock;

core::RunSpec schedule_spec(const std::string& test, const core::ThreadsSettings& settings, std::uint64_t seed, int index) {
  core::RunSpec s;
  s.tests = {test};
  s.technique = "threads";
  s.purpose = "threads: schedule " + std::to_string(index + 1) + "/" + std::to_string(settings.schedules) + " of " + test + " (" +
              settings.strategy + ", seed " + std::to_string(seed) + ")";
  s.seed = seed;
  s.schedule = core::ScheduleSpec{.strategy = settings.strategy, .seed = seed, .depth = settings.depth,
                                  .virtual_time = settings.virtual_time, .max_steps = settings.max_steps,
                                  .include = settings.include};
  return s;
}

// The failing schedule again, decision for decision.
core::RunSpec replay_spec(const std::string& test, const core::ScheduleSpec& failing, std::vector<core::ScheduleDecision> decisions,
                          const std::string& why) {
  core::RunSpec s;
  s.tests = {test};
  s.technique = "threads";
  s.purpose = "threads: " + why + " of " + test + " (replay of seed " + std::to_string(failing.seed) + ")";
  s.seed = failing.seed;
  s.schedule = failing;
  s.schedule->strategy = "replay";
  s.schedule->replay_decisions = std::move(decisions);
  return s;
}

// PCT's k: the steps the first schedule took while its threads ran together, over which the
// agent draws the change points (a set-up on the test's thread alone changes nothing when
// preempted); the record's whole length when it does not say.
long pct_steps(const core::ThreadSchedule& record) {
  return record.steps_together > 0 ? record.steps_together : record.steps_total;
}

class Explorer {
 public:
  Explorer(const core::TechniqueInput& input, core::RunLog& log)
      : input_(input), log_(log), seeds_(threads_seeds(input.seed, std::max(1, input.threads.schedules))),
        deadline_(Clock::now() + std::chrono::seconds(input.budget.max_seconds)) {}

  util::Result<std::vector<core::Verdict>> run() {
    for (const auto& t : input_.tests) subjects_.push_back(Subject{.test = t});
    if (auto r = first_schedules(); !r) return std::unexpected(r.error());
    while (unavailable_.empty()) {
      auto more = next_round();
      if (!more) return std::unexpected(more.error());
      if (!*more) break;
    }
    if (unavailable_.empty())
      if (auto r = run_uncontrolled(); !r) return std::unexpected(r.error());
    if (unavailable_.empty())
      if (auto r = confirm(); !r) return std::unexpected(r.error());
    std::vector<core::Verdict> out;
    for (const auto& s : subjects_) out.push_back(threads_verdict(s, input_, unavailable_));
    return out;
  }

 private:
  bool budget_left() const { return made_ < input_.budget.max_runs && Clock::now() < deadline_; }

  // Runs `specs` (one per subject in `who`) and files each run under its subject.
  util::Result<void> run_for(const std::vector<Subject*>& who, const std::vector<core::RunSpec>& specs) {
    if (specs.empty()) return {};
    log_.plan(int(specs.size()));
    auto done = log_.run_all(specs);
    if (!done) return std::unexpected(done.error());
    made_ += int(done->size());
    for (std::size_t i = 0; i < done->size(); ++i) file(*who[i], std::move((*done)[i]));
    return {};
  }

  void file(Subject& s, core::RecordedRun run) {
    // A run the scan's time budget left unmade (id 0, no results) is no schedule: counting it
    // said "passed under all 36 schedules" with 35 runs in the verdict (J19).
    if (run.id == 0 && run.report.results.empty()) {
      s.budget_ended = true;
      return;
    }
    const bool replay = run.spec.schedule && run.spec.schedule->strategy == "replay";
    const bool uncontrolled = !run.spec.schedule;
    s.runs.push_back(std::move(run));
    const auto& r = s.runs.back();
    if (uncontrolled) {
      s.uncontrolled = &r;
      if (passed(r)) s.passing = &r;
      return;
    }
    if (replay) {
      // The failing decisions on real time (confirm) beside the replay as it was recorded.
      const bool real_time = !run_virtual(r) && s.failing && run_virtual(*s.failing);
      (real_time ? s.real_time : s.replay) = &r;
      return;
    }
    s.unobserved_in_a_row = core::is_observation(r.report.outcome_at(0)) ? 0 : s.unobserved_in_a_row + 1;
    if (s.schedules++ == 0)
      if (const auto* record = record_of(r)) {
        s.single_thread = record->single_threaded();
        s.steps_estimate = int(std::clamp(pct_steps(*record), 1L, 100000L));
      }
    if (passed(r) && !s.passing) s.passing = &r;
    // A failing schedule whose record can be replayed beats one whose record was lost.
    if (failed(r) && (!s.failing || (!record_of(*s.failing) && record_of(r)))) s.failing = &r;
  }

  static bool run_virtual(const core::RecordedRun& r) { return r.spec.schedule && r.spec.schedule->virtual_time; }

  // Three schedules in a row without an outcome (the JVM died, the test was skipped) end the
  // search: more of them would say nothing new.
  bool exploring(const Subject& s) const {
    return !s.single_thread && s.unobserved_in_a_row < 3 && !s.explored() && s.schedules < int(seeds_.size()) && s.schedules > 0;
  }

  // The first schedule of every test. The very first run also finds out whether this
  // backend can make controlled runs at all (the agent jar is there, the backend is local).
  util::Result<void> first_schedules() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    for (auto& s : subjects_) {
      who.push_back(&s);
      specs.push_back(schedule_spec(s.test, input_.threads, seeds_[0], 0));
    }
    if (specs.empty()) return {};
    log_.plan(1);
    auto first = log_.run(specs.front());
    if (!first) {
      if (first.error().code == util::Errc::cancelled) return std::unexpected(first.error());
      unavailable_ = first.error().message;
      return {};
    }
    ++made_;
    file(*who.front(), std::move(*first));
    who.erase(who.begin());
    specs.erase(specs.begin());
    return run_for(who, specs);
  }

  // The confirming runs of every test that has just failed and passed, then one more schedule
  // of every test still exploring; false when there was nothing to run (or the budget is
  // spent). A finding's confirmation comes before other tests' schedules, so that they cannot
  // spend the budget it needs (J13).
  util::Result<bool> next_round() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    confirm_specs(who, specs);
    for (auto& s : subjects_) {
      if (!exploring(s)) continue;
      if (!budget_left() || made_ + int(specs.size()) >= input_.budget.max_runs) {
        s.budget_ended = true;
        continue;
      }
      who.push_back(&s);
      specs.push_back(schedule_spec(s.test, input_.threads, seeds_[std::size_t(s.schedules)], s.schedules));
      // PCT draws its d - 1 change points from 1..k: k is best the test's own number of points
      // taken while its threads run together.
      if (s.steps_estimate > 0) specs.back().schedule->steps = s.steps_estimate;
    }
    if (specs.empty()) return false;
    if (auto r = run_for(who, specs); !r) return std::unexpected(r.error());
    return true;
  }

  // Every schedule of a test with more than one thread failed: one run without control says
  // whether the test fails anyway (failing) or only under the schedules tried (flaky). Not
  // when every schedule deadlocked: that run would hang until the deadline (J12).
  util::Result<void> run_uncontrolled() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    for (auto& s : subjects_) {
      if (s.single_thread || !s.failing || s.passing || deadlocked_every_time(s)) continue;
      if (!budget_left() || made_ + int(specs.size()) >= input_.budget.max_runs) continue;
      who.push_back(&s);
      core::RunSpec spec = schedule_spec(s.test, input_.threads, s.failing->spec.seed, 0);
      spec.schedule.reset();
      spec.purpose = "threads: " + s.test + " once without control, after every schedule failed";
      specs.push_back(std::move(spec));
    }
    return run_for(who, specs);
  }

  // The confirming runs of the tests explored by the run without control.
  util::Result<void> confirm() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    confirm_specs(who, specs);
    return run_for(who, specs);
  }

  // Adds the confirming runs of each test that failed under one schedule and passed under
  // another (or without control) and was not confirmed yet: its failing schedule replayed and,
  // when the failure may come from a virtual clock beside a thread on real time
  // (clocks_disagreed), the same decisions on real time.
  void confirm_specs(std::vector<Subject*>& who, std::vector<core::RunSpec>& specs) {
    for (auto& s : subjects_) {
      if (!s.explored() || s.confirm_planned) continue;
      s.confirm_planned = true;
      const auto* record = record_of(*s.failing);
      if (!record || record->decisions.empty()) {
        const auto* r = result_of(*s.failing);
        s.not_replayed = r && r->threads && !r->threads->record_error.empty()
                             ? "its schedule record could not be read (" + r->threads->record_error + ")"
                             : "its run carried no schedule record";
        continue;
      }
      if (!budget_left() || made_ + int(specs.size()) >= input_.budget.max_runs) {
        s.not_replayed = "the scan's budget left no run to replay it";
        continue;
      }
      who.push_back(&s);
      specs.push_back(replay_spec(s.test, *s.failing->spec.schedule, record->decisions, "confirm the failing schedule"));
      if (!clocks_disagreed(s)) continue;
      if (!budget_left() || made_ + int(specs.size()) >= input_.budget.max_runs) {
        s.no_real_time = "the scan's budget left no run for it";
        continue;
      }
      who.push_back(&s);
      specs.push_back(replay_spec(s.test, *s.failing->spec.schedule, record->decisions, "the failing decisions on real time"));
      specs.back().schedule->virtual_time = false;
    }
  }

  const core::TechniqueInput& input_;
  core::RunLog& log_;
  std::vector<std::uint64_t> seeds_;
  Clock::time_point deadline_;
  std::deque<Subject> subjects_;  // a deque: the pointers into each subject's runs stay valid
  int made_ = 0;
  std::string unavailable_;  // why no controlled run could be made
};

}  // namespace

std::vector<std::uint64_t> threads_seeds(std::uint64_t scan_seed, int n) {
  return core::run_seeds(scan_seed ^ 0x7468726561647321ull, n);  // "threads!": not the shuffles' seeds
}

util::Result<std::vector<core::Verdict>> detect_concurrency(const core::TechniqueInput& input, core::RunLog& log) {
  Explorer explorer(input, log);
  return explorer.run();
}

core::TechniqueFn threads_technique() {
  return [](const core::TechniqueInput& input, core::RunLog& log) { return detect_concurrency(input, log); };
}

util::Result<core::RecordedRun> replay_threads(const std::string& test, const std::map<std::string, std::string>& details,
                                               core::RunLog& runs) {
  auto schedule = details.find("schedule_failing");
  if (schedule == details.end())
    return util::fail(util::Errc::conflict, "the verdict for " + test + " names no failing schedule (details.schedule_failing)");
  auto parsed = parse_schedule_details(schedule->second);
  if (!parsed) return util::fail(util::Errc::conflict, "the verdict's failing schedule cannot be read: " + parsed.error().message);
  if (parsed->schedule.decisions.empty())
    return util::fail(util::Errc::conflict, "the verdict's failing schedule has no decisions to replay");
  core::ScheduleSpec failing;
  if (auto seed = details.find("seed"); seed != details.end())
    std::from_chars(seed->second.data(), seed->second.data() + seed->second.size(), failing.seed);
  if (auto v = details.find("virtual_time"); v != details.end()) failing.virtual_time = v->second != "false";
  // The classes rewritten and the step limit decide which points there are: the same again.
  if (auto m = details.find("max_steps"); m != details.end())
    std::from_chars(m->second.data(), m->second.data() + m->second.size(), failing.max_steps);
  if (auto in = details.find("include"); in != details.end())
    for (std::size_t from = 0; from <= in->second.size();) {
      std::size_t comma = std::min(in->second.find(',', from), in->second.size());
      if (comma > from) failing.include.push_back(in->second.substr(from, comma - from));
      from = comma + 1;
    }
  auto spec = replay_spec(test, failing, std::move(parsed->schedule.decisions), "replay");
  spec.technique = "replay";
  return runs.run(spec);
}

}  // namespace flakescan::threads
