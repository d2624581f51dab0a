#include "suite/suite_isolation.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "order/order_and_nio.hpp"
#include "rerun/rerun.hpp"
#include "suite/suite_plan.hpp"

namespace flakescan::suite {

namespace {

core::Verdict only_for(const std::vector<core::Verdict>& verdicts, const std::string& test) {
  for (const auto& v : verdicts)
    if (v.test == test) return v;
  return core::Verdict{.test = test};
}

bool cancelled(const util::Error& e) { return e.code == util::Errc::cancelled; }

// The order the suspect failed (or, when it fails alone, passed) in, up to and including it:
// narrowed by the rounds first, the whole prefix when the narrowed one does not give that
// outcome. The run that gave it again, if one did, and how the rounds narrowed its order;
// says in `merged` when no order gave it.
struct Reproduced {
  std::optional<core::RecordedRun> run;
  std::string narrowing;  // empty: the whole prefix
};

util::Result<Reproduced> reproduce(const Suspect& s, bool passes_alone, Lane& lane, const KnownPolluters& known,
                                   core::Verdict& merged) {
  const Seen* pick = nullptr;
  std::vector<Occurrence> same, other;  // the rounds with that outcome, and with the other one
  auto ran_before = [&](const Seen& seen) {  // a second run in one JVM: the NIO check's business
    const auto& tests = seen.run->spec.tests;
    return std::find(tests.begin(), tests.begin() + long(seen.pos), s.test) != tests.begin() + long(seen.pos);
  };
  for (const auto& seen : s.seen) {
    if (!core::is_observation(seen.outcome) || ran_before(seen)) continue;
    if (core::is_failure(seen.outcome) != passes_alone) {
      other.push_back({&seen.run->spec.tests, seen.pos});
      continue;
    }
    if (!pick || seen.pos < pick->pos) pick = &seen;  // the shortest order that gave it
    same.push_back({&seen.run->spec.tests, seen.pos});
  }
  if (!pick) return Reproduced{};
  const std::string outcome = passes_alone ? "failed" : "passed";
  std::vector<std::string> whole(pick->run->spec.tests.begin(), pick->run->spec.tests.begin() + long(pick->pos) + 1);
  // The orders to try, shortest first: the polluters another suspect's isolation found, when
  // they ran before this one in every round it failed in; the order the rounds narrow it to;
  // the whole prefix.
  struct Try {
    std::vector<std::string> order;
    std::string narrowing;  // details.order_narrowed_to; empty for the whole prefix
    std::string how;        // for the run's purpose
  };
  std::vector<Try> tries;
  if (passes_alone) {
    for (const auto& polluters : known.all()) {
      auto before_in_all = std::all_of(same.begin(), same.end(), [&](const Occurrence& o) {
        auto end = o.order->begin() + long(o.pos);
        return std::all_of(polluters.begin(), polluters.end(),
                           [&](const std::string& p) { return std::find(o.order->begin(), end, p) != end; });
      });
      if (!before_in_all || std::find(polluters.begin(), polluters.end(), s.test) != polluters.end()) continue;
      auto order = polluters;
      order.push_back(s.test);
      std::string list;
      for (const auto& p : polluters) list += (list.empty() ? "" : ", ") + p;
      tries.push_back({std::move(order), "the polluters another suspect's isolation found (" + list + "), before it in all " +
                                             std::to_string(same.size()) + " rounds it failed in",
                       "after the polluters found for another suspect"});
      break;
    }
  }
  auto narrowed = narrowed_order(same, {&pick->run->spec.tests, pick->pos}, s.test);
  // details.order_narrowed_to for an order of `kept` entries (the suspect last).
  auto before_it = [&](size_t kept) {
    return std::to_string(kept - 1) + " of the " + std::to_string(whole.size() - 1) + " tests before it: those before it in all " +
           std::to_string(same.size()) + " rounds it " + outcome + " in";
  };
  if (auto further = without_tests_before_other_outcome(narrowed, other, s.test);
      further.size() > 1 && further.size() < narrowed.size()) {
    std::string why = before_it(further.size()) + " and in none of the " + std::to_string(other.size()) + " it " +
                      (passes_alone ? "passed" : "failed") + " in";
    tries.push_back({std::move(further), std::move(why), "narrowed by the rounds of both outcomes"});
  }
  if (narrowed.size() > 1 && narrowed.size() < whole.size())  // alone it was run already
    tries.push_back({narrowed, before_it(narrowed.size()), "narrowed by the rounds"});
  tries.push_back({std::move(whole), std::string(), "once more"});
  for (size_t k = 0; k < tries.size(); ++k) {
    const bool is_narrowed = k + 1 < tries.size();
    core::RunSpec again;
    again.tests = tries[k].order;
    again.technique = "suite";
    again.purpose = "the order " + s.test + " " + outcome + " in, " + tries[k].how;
    again.seed = pick->run->spec.seed;
    auto run = lane.run(again);
    if (!run) {
      if (cancelled(run.error())) return std::unexpected(run.error());
      return Reproduced{};  // the budget ended
    }
    auto o = run->report.outcome_at(again.tests.size() - 1);
    if (core::is_observation(o) && core::is_failure(o) == passes_alone) return Reproduced{std::move(*run), tries[k].narrowing};
    if (!is_narrowed)
      merged.evidence.reason += "; the order it " + outcome + " in did not give that outcome again (run " +
                                std::to_string(run->id) + ")";
  }
  return Reproduced{};
}

// What the suspect's runs alone say beyond the run alone (each ran it several times in a row in
// a fresh JVM): the NIO question (a run whose first execution passed and second failed is a
// hit, for technique nio), and the first repeated execution that failed in one run and passed
// in another. Before its k-th execution every such run had run the suspect k-1 times and
// nothing else: one order, so an outcome that differs there is not decided by the order.
struct RunsAlone {
  bool hit = false;
  std::vector<std::int64_t> answered;            // run ids with both of the first two executions observed
  std::vector<std::int64_t> passed_then_failed;  // run ids
  size_t both_at = 0;                            // that execution (1 = the second), 0 when none
  std::vector<std::int64_t> failed_there, passed_there;  // run ids
};
RunsAlone runs_alone(const std::vector<core::RecordedRun>& runs) {
  RunsAlone out;
  size_t longest = 0;
  for (const auto& run : runs) {
    longest = std::max(longest, run.spec.tests.size());
    const auto first = run.report.outcome_at(0), second = run.report.outcome_at(1);
    if (run.spec.tests.size() < 2 || !core::is_observation(first) || !core::is_observation(second)) continue;
    out.answered.push_back(run.id);
    if (first == core::Outcome::pass && core::is_failure(second)) out.passed_then_failed.push_back(run.id);
  }
  out.hit = !out.passed_then_failed.empty();
  for (size_t k = 1; k < longest && out.both_at == 0; ++k) {
    std::vector<std::int64_t> failed, passed;
    for (const auto& run : runs) {
      if (run.spec.tests.size() <= k) continue;
      const auto o = run.report.outcome_at(k);
      if (core::is_failure(o)) failed.push_back(run.id);
      else if (o == core::Outcome::pass) passed.push_back(run.id);
    }
    if (failed.empty() || passed.empty()) continue;
    out.both_at = k;
    out.failed_there = std::move(failed);
    out.passed_there = std::move(passed);
  }
  return out;
}

// How many times in a row each run alone runs the suspect: kExecutionsAlone when the rounds
// saw none of its executions take longer than kQuickExecutionMs, else 2 (the NIO question).
int executions_alone(const Suspect& s) {
  double longest_ms = 0;
  for (const auto& seen : s.seen)
    if (seen.run && seen.pos < seen.run->report.results.size())
      longest_ms = std::max(longest_ms, seen.run->report.results[seen.pos].duration_ms);
  return longest_ms <= kQuickExecutionMs ? kExecutionsAlone : 2;
}

std::string run_list(const std::vector<std::int64_t>& ids) {
  std::string out;
  for (auto id : ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return out;
}

// Asked once the first kRunsAloneBeforeEnough runs alone are made: why the last one is not
// needed, or empty. It is not when those runs already answer every question the runs alone are
// for: a run that passed and one that failed alone, or one execution of it that failed in one
// run and passed in the other (either way no order decides its outcome, so no order is
// searched), and no NIO hit (technique nio wants all three runs for one). A victim, a brittle
// test or a NIO test gets all three: `order` classifies with them.
std::string enough_alone(const std::vector<core::RecordedRun>& runs) {
  const RunsAlone r = runs_alone(runs);
  if (r.hit) return {};
  bool passed = false, failed = false;
  for (const auto& run : runs) {
    passed |= run.report.outcome_at(0) == core::Outcome::pass;
    failed |= core::is_failure(run.report.outcome_at(0));
  }
  const std::string first = "its first " + std::to_string(runs.size()) + " runs alone already showed that ";
  if (passed && failed) return first + "it passes and fails alone, so the tests before it do not decide its outcome";
  if (r.both_at > 0)
    return first + "the same order (itself, " + std::to_string(r.both_at) + (r.both_at == 1 ? " time" : " times") +
           " before) gave both outcomes";
  return {};
}

// Holds a slot for as long as it lives.
struct Slot {
  explicit Slot(JvmSlots& slots) : slots(slots) { slots.acquire(); }
  ~Slot() { slots.release(); }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;
  JvmSlots& slots;
};
}  // namespace

util::Result<void> Lane::claim() {
  if (made_.fetch_add(1) >= max_runs_) {
    --made_;
    return util::fail(util::Errc::too_large, "the scan's run budget of " + std::to_string(max_runs_) + " runs is spent");
  }
  return {};
}

util::Result<core::RecordedRun> Lane::keep(util::Result<core::RecordedRun> run) {
  if (run && run->id != 0) {
    std::lock_guard lock(kept_mutex_);
    kept_.push_back(*run);
  }
  return run;
}

util::Result<core::RecordedRun> Lane::run(const core::RunSpec& spec) {
  if (auto c = claim(); !c) return std::unexpected(c.error());
  Slot slot(slots_);
  return keep(scan_.run(spec));
}

util::Result<std::vector<core::RecordedRun>> Lane::run_all(const std::vector<core::RunSpec>& specs) {
  return core::run_in_parallel(specs, slots_.share(), [this](const core::RunSpec& spec) { return run(spec); });
}

util::Result<core::RecordedRun> Lane::run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) {
  if (auto c = claim(); !c) return std::unexpected(c.error());
  Slot slot(slots_);
  return keep(scan_.run_debugged(spec, drive));
}

void KnownPolluters::add(std::vector<std::string> polluters) {
  std::lock_guard lock(mutex_);
  if (std::find(lists_.begin(), lists_.end(), polluters) == lists_.end()) lists_.push_back(std::move(polluters));
}

std::vector<std::vector<std::string>> KnownPolluters::all() const {
  std::lock_guard lock(mutex_);
  return lists_;
}

util::Result<core::Verdict> isolate(const Suspect& s, const core::TechniqueInput& sub, Lane& lane, KnownPolluters& known,
                                    const std::set<std::string>& writers) {
  core::Verdict merged = s.from_rounds;
  // 1. Alone, several times in a row in each JVM: the first execution is the run alone, the
  // others answer the NIO question (step 3) and whether one order gives both outcomes (step 2)
  // without runs of their own.
  const int executions = executions_alone(s);
  auto alone = rerun::run_rerun(
      sub, lane,
      rerun::RerunOptions{.executions_per_jvm = executions, .enough_after = kRunsAloneBeforeEnough, .enough = enough_alone});
  if (!alone && cancelled(alone.error())) return std::unexpected(alone.error());
  bool passes_alone = false, fails_alone = false;
  std::vector<core::RecordedRun> alone_runs = lane.kept();
  if (alone) {
    auto a = only_for(*alone, s.test);
    a.technique = "suite (alone)";
    passes_alone = a.runs.passed > 0, fails_alone = a.runs.failed > 0;
    merged = core::merge_verdicts(merged, a);
  }
  // 2. The order it failed (passed) in, then `order` on the runs that found it. Not for a
  // suspect that only passed (or only failed) alone but whose later executions in those JVMs
  // failed in one run and passed in another at the same place: one order, both outcomes, so
  // no order decides its outcome (a victim fails after its polluters every time), and no
  // order is searched for it.
  const RunsAlone repeated = runs_alone(alone_runs);
  if (passes_alone != fails_alone && repeated.both_at > 0) {
    const std::string place = repeated.both_at == 1 ? std::string("the second time")
                                                    : "its execution " + std::to_string(repeated.both_at + 1);
    merged.evidence.details["order"] =
        std::string("not searched: it ") + (passes_alone ? "passed" : "failed") + " every run alone, but run " +
        std::to_string(executions) + " times in a row in a fresh JVM it failed " + place + " in run " +
        run_list(repeated.failed_there) + " and passed it in run " + run_list(repeated.passed_there) +
        ": the same order gave both outcomes, so its outcome is not decided by the tests before it";
  } else if (passes_alone != fails_alone) {
    auto reproduced = reproduce(s, passes_alone, lane, known, merged);
    if (!reproduced) return std::unexpected(reproduced.error());
    if (reproduced->run) {
      core::TechniqueInput od = sub;
      od.tests = reproduced->run->spec.tests;
      order::OrderOptions only_this;
      only_this.only = {s.test};
      only_this.max_cleaners = 1;
      only_this.writers = writers;
      only_this.confirm_by_minimal_order = true;
      for (const auto& run : alone_runs) only_this.observed.push_back(rerun::first_execution(run));
      only_this.observed.push_back(std::move(*reproduced->run));
      auto found = order::detect_order_dependent(od, lane, only_this);
      if (!found && cancelled(found.error())) return std::unexpected(found.error());
      if (found) {
        const auto own = only_for(*found, s.test);
        if (own.evidence.role == "victim" && own.evidence.reproducer.size() > 1)
          known.add({own.evidence.reproducer.begin(), own.evidence.reproducer.end() - 1});
        merged = core::merge_verdicts(merged, own);
        if (!reproduced->narrowing.empty()) merged.evidence.details["order_narrowed_to"] = reproduced->narrowing;
      }
    }
  }
  // 3. NIO: a run alone that passed then failed goes to technique nio with the others, as its
  // first pass and confirmations; without one, the runs alone answered it (no).
  if (!repeated.hit && !repeated.answered.empty()) {
    merged.evidence.details["nio"] = "not NIO: in none of its runs alone, each running it " + std::to_string(executions) +
                                     " times in a row in a fresh JVM, did it pass and then fail the second time (runs " +
                                     run_list(repeated.answered) + ")";
    return merged;
  }
  // Technique nio reads runs of exactly itself, then itself: the first two executions.
  std::vector<core::RecordedRun> twice;
  for (const auto& run : alone_runs) twice.push_back(rerun::first_executions(run, 2));
  auto nio = order::detect_nio(sub, lane, order::NioMode::isolated_method, twice);
  if (!nio && cancelled(nio.error())) return std::unexpected(nio.error());
  if (nio) merged = core::merge_verdicts(merged, only_for(*nio, s.test));
  return merged;
}

}  // namespace flakescan::suite
