#include "suite/suite_isolation.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "order/techniques.hpp"
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

util::Result<Reproduced> reproduce(const Suspect& s, bool passes_alone, Lane& lane, core::Verdict& merged) {
  const Seen* pick = nullptr;
  std::vector<Occurrence> same;
  auto ran_before = [&](const Seen& seen) {  // a second run in one JVM: the NIO check's business
    const auto& tests = seen.run->spec.tests;
    return std::find(tests.begin(), tests.begin() + long(seen.pos), s.test) != tests.begin() + long(seen.pos);
  };
  for (const auto& seen : s.seen)
    if (core::is_observation(seen.outcome) && core::is_failure(seen.outcome) == passes_alone && !ran_before(seen)) {
      if (!pick) pick = &seen;
      same.push_back({&seen.run->spec.tests, seen.pos});
    }
  if (!pick) return Reproduced{};
  const std::string outcome = passes_alone ? "failed" : "passed";
  std::vector<std::string> whole(pick->run->spec.tests.begin(), pick->run->spec.tests.begin() + long(pick->pos) + 1);
  auto narrowed = narrowed_order(same, {&pick->run->spec.tests, pick->pos}, s.test);
  std::vector<std::vector<std::string>> tries;
  std::string narrowing;
  if (narrowed.size() > 1 && narrowed.size() < whole.size()) {  // alone it was run already
    narrowing = std::to_string(narrowed.size() - 1) + " of the " + std::to_string(whole.size() - 1) +
                " tests before it: those before it in all " + std::to_string(same.size()) + " rounds it " + outcome + " in";
    tries.push_back(std::move(narrowed));
  }
  tries.push_back(std::move(whole));
  for (size_t k = 0; k < tries.size(); ++k) {
    const bool is_narrowed = k + 1 < tries.size();
    core::RunSpec again;
    again.tests = tries[k];
    again.technique = "suite";
    again.purpose = "the order " + s.test + " " + outcome + " in, " + (is_narrowed ? "narrowed by the rounds" : "once more");
    again.seed = pick->run->spec.seed;
    auto run = lane.run(again);
    if (!run) {
      if (cancelled(run.error())) return std::unexpected(run.error());
      return Reproduced{};  // the budget ended
    }
    auto o = run->report.outcome_at(again.tests.size() - 1);
    if (core::is_observation(o) && core::is_failure(o) == passes_alone)
      return Reproduced{std::move(*run), is_narrowed ? narrowing : std::string()};
    if (!is_narrowed)
      merged.evidence.reason += "; the order it " + outcome + " in did not give that outcome again (run " +
                                std::to_string(run->id) + ")";
  }
  return Reproduced{};
}

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
  return keep(scan_.run(spec));
}

util::Result<std::vector<core::RecordedRun>> Lane::run_all(const std::vector<core::RunSpec>& specs) {
  return core::run_in_parallel(specs, parallelism_, [this](const core::RunSpec& spec) { return run(spec); });
}

util::Result<core::RecordedRun> Lane::run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) {
  if (auto c = claim(); !c) return std::unexpected(c.error());
  return keep(scan_.run_debugged(spec, drive));
}

util::Result<core::Verdict> isolate(const Suspect& s, const core::TechniqueInput& sub, Lane& lane) {
  core::Verdict merged = s.from_rounds;
  // 1. Alone.
  auto alone = rerun::run_rerun(sub, lane);
  if (!alone && cancelled(alone.error())) return std::unexpected(alone.error());
  bool passes_alone = false, fails_alone = false;
  std::vector<core::RecordedRun> alone_runs = lane.kept();
  if (alone) {
    auto a = only_for(*alone, s.test);
    a.technique = "suite (alone)";
    passes_alone = a.runs.passed > 0, fails_alone = a.runs.failed > 0;
    merged = core::merge_verdicts(merged, a);
  }
  // 2. The order it failed (passed) in, then `order` on the runs that found it.
  if (passes_alone != fails_alone) {
    auto reproduced = reproduce(s, passes_alone, lane, merged);
    if (!reproduced) return std::unexpected(reproduced.error());
    if (reproduced->run) {
      core::TechniqueInput od = sub;
      od.tests = reproduced->run->spec.tests;
      order::OrderOptions only_this;
      only_this.only = {s.test};
      only_this.max_cleaners = 1;
      only_this.observed = std::move(alone_runs);
      only_this.observed.push_back(std::move(*reproduced->run));
      auto found = order::detect_order_dependent(od, lane, only_this);
      if (!found && cancelled(found.error())) return std::unexpected(found.error());
      if (found) {
        merged = core::merge_verdicts(merged, only_for(*found, s.test));
        if (!reproduced->narrowing.empty()) merged.evidence.details["order_narrowed_to"] = reproduced->narrowing;
      }
    }
  }
  // 3. NIO.
  auto nio = order::detect_nio(sub, lane, order::NioMode::isolated_method);
  if (!nio && cancelled(nio.error())) return std::unexpected(nio.error());
  if (nio) merged = core::merge_verdicts(merged, only_for(*nio, s.test));
  return merged;
}

}  // namespace flakescan::suite
