#include "suite/suite_rounds.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "core/deciding.hpp"
#include "order/techniques.hpp"
#include "rerun/outcome_tally.hpp"
#include "rerun/rerun.hpp"
#include "suite/suite_plan.hpp"

namespace flakescan::suite {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double reserve_for_suspects = 0.3;
constexpr int isolated_reruns = 3;

// Where a test was observed in the rounds: the run and its position there.
struct Seen {
  const core::RecordedRun* run = nullptr;
  size_t pos = 0;
  core::Outcome outcome = core::Outcome::infra;
};

struct Rounds {
  std::vector<core::RecordedRun> runs;  // every run of every round, continuations included
  std::vector<std::string> kinds;       // per round run
  int runs_made = 0;
};

// Runs a batch of rounds at the same time, one JVM each; a run cut short by its JVM going
// down is continued with the tests that did not run, in a fresh JVM (up to three times).
util::Result<void> run_rounds(const std::vector<Round>& batch, core::RunLog& log, Rounds& out) {
  std::vector<core::RunSpec> specs;
  for (const auto& round : batch)
    for (size_t s = 0; s < round.shards.size(); ++s) {
      core::RunSpec spec;
      spec.tests = round.shards[s];
      spec.technique = "suite";
      spec.purpose = "suite round " + std::to_string(round.index + 1) + " (" + round.kind + ")" +
                     (round.shards.size() > 1 ? ", shard " + std::to_string(s + 1) + "/" + std::to_string(round.shards.size()) : "");
      spec.seed = round.seed;
      specs.push_back(std::move(spec));
    }
  for (int attempt = 0; attempt < 4 && !specs.empty(); ++attempt) {
    log.plan(int(specs.size()));
    auto done = log.run_all(specs);
    if (!done) return std::unexpected(done.error());
    std::vector<core::RunSpec> continuations;
    for (auto& run : *done) {
      ++out.runs_made;
      if (run.id == 0 && run.report.results.empty()) continue;  // handed back unrun: the scan's deadline
      size_t got = run.report.results.size();
      while (got > 0 && run.report.results[got - 1].outcome == core::Outcome::infra) --got;
      if (got + 1 < run.spec.tests.size() && !run.report.infra_reason.empty()) {
        // The round again without the test that took its JVM down, prefix included: the tests
        // after it must run after the same tests as in the round's order (a victim whose
        // polluter came before it would pass in a JVM that started after it).
        core::RunSpec rest = run.spec;
        rest.tests.erase(rest.tests.begin() + long(got));
        rest.purpose = run.spec.purpose + ", again without " + run.spec.tests[got] + ", which took its JVM down";
        continuations.push_back(std::move(rest));
      }
      out.runs.push_back(std::move(run));
    }
    specs = std::move(continuations);
  }
  return {};
}

// Counts and keeps the runs the isolation techniques make: for the budget, and so that each
// suspect's findings are checked against every run that began with their orders.
class CountingLog final : public core::RunLog {
 public:
  explicit CountingLog(core::RunLog& inner) : inner_(inner) {}
  util::Result<core::RecordedRun> run(const core::RunSpec& spec) override {
    ++made;
    auto r = inner_.run(spec);
    if (r) kept.push_back(*r);
    return r;
  }
  util::Result<std::vector<core::RecordedRun>> run_all(const std::vector<core::RunSpec>& specs) override {
    made += int(specs.size());
    auto r = inner_.run_all(specs);
    if (r) kept.insert(kept.end(), r->begin(), r->end());
    return r;
  }
  util::Result<core::RecordedRun> run_debugged(const core::RunSpec& spec, const core::TestExecutor::DriveFn& drive) override {
    ++made;
    auto r = inner_.run_debugged(spec, drive);
    if (r) kept.push_back(*r);
    return r;
  }
  int parallelism() const override { return inner_.parallelism(); }
  bool cancelled() const override { return inner_.cancelled(); }
  void plan(int n) override { inner_.plan(n); }
  int made = 0;
  std::vector<core::RecordedRun> kept;

 private:
  core::RunLog& inner_;
};

core::Verdict only_for(const std::vector<core::Verdict>& verdicts, const std::string& test) {
  for (const auto& v : verdicts)
    if (v.test == test) return v;
  return core::Verdict{.test = test};
}

}  // namespace

util::Result<std::vector<core::Verdict>> run_suite(const core::TechniqueInput& input, core::RunLog& runs) {
  const auto started = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  const int wanted = std::max(1, input.budget.runs_per_test);
  const int jvms = std::max(1, runs.parallelism());
  const BudgetLeft total{double(input.budget.max_seconds), input.budget.max_runs};

  // 1. Rounds: `parallelism` rounds at a time, each in one JVM, so every round keeps its whole
  // order (a shard boundary would part the tests whose order matters).
  Rounds rounds;
  std::vector<std::string> kinds;
  int planned = wanted;
  for (int r = 0; r < planned;) {
    if (runs.cancelled()) return util::fail(util::Errc::cancelled, "scan cancelled");
    std::vector<Round> batch;
    for (int k = 0; k < jvms && r + k < planned; ++k) batch.push_back(plan_round(input.tests, r + k, input.seed, 1));
    if (auto done = run_rounds(batch, runs, rounds); !done) {
      if (done.error().code == util::Errc::cancelled) return std::unexpected(done.error());
      break;  // the scan's own budget ended: what ran stays
    }
    for (const auto& b : batch) kinds.push_back(b.kind);
    r += int(batch.size());
    const double per_round = elapsed() / r;
    const int runs_per_round = std::max(1, rounds.runs_made / r);
    planned = rounds_that_fit(wanted, r, per_round, runs_per_round, total, {elapsed(), rounds.runs_made},
                              reserve_for_suspects);
  }
  const int rounds_run = int(kinds.size());
  std::string orders;
  for (const auto& k : kinds) orders += (orders.empty() ? "" : ", ") + k;

  rerun::OutcomeTally tally;
  std::map<std::string, std::vector<Seen>> seen;
  for (const auto& run : rounds.runs) {
    tally.add(run);
    for (size_t i = 0; i < run.spec.tests.size(); ++i)
      seen[run.spec.tests[i]].push_back({&run, i, run.report.outcome_at(i)});
  }

  // 2. and 3. Verdicts from the rounds; suspects isolated while the budget lasts.
  std::vector<core::Verdict> out;
  CountingLog isolation(runs);
  auto isolated_runs = [&] { return isolation.made; };
  for (const auto& test : input.tests) {
    core::Verdict v = rerun::verdict_from_tally(test, tally.find(test), "suite");
    v.evidence.details["rounds"] = std::to_string(rounds_run);
    v.evidence.details["rounds_wanted"] = std::to_string(wanted);
    if (v.verdict == core::VerdictKind::not_flaky)
      v.evidence.reason = "passed all " + std::to_string(v.runs.passed) + " runs in " + std::to_string(rounds_run) +
                          " suite rounds, each in another order (" + orders + ")";
    if (v.verdict != core::VerdictKind::flaky) {
      if (rounds_run < wanted) v.evidence.details["unscanned"] = std::to_string(wanted - rounds_run) + " rounds (budget)";
      out.push_back(std::move(v));
      continue;
    }
    v.evidence.reason = "its outcome differed between suite rounds (" + v.evidence.reason + ")";
    const bool budget_left = elapsed() < total.seconds && rounds.runs_made + isolated_runs() < total.runs;
    if (!budget_left || runs.cancelled()) {
      v.evidence.reason += "; the budget ended before its isolated runs";
      v.evidence.details["unscanned"] = "isolation";
      out.push_back(std::move(v));
      continue;
    }
    core::TechniqueInput sub = input;
    sub.budget.max_seconds = std::max(1, int(total.seconds - elapsed()));
    sub.budget.max_runs = std::max(1, total.runs - rounds.runs_made - isolated_runs());
    sub.budget.runs_per_test = isolated_reruns;
    sub.budget.max_orders = 2;  // the failing order itself, and its reverse (where the suspect comes first)
    sub.fresh_jvm_per_run = true;
    sub.tests = {test};
    core::Verdict merged = v;
    auto alone = rerun::run_rerun(sub, isolation);
    if (!alone && alone.error().code == util::Errc::cancelled) return std::unexpected(alone.error());
    bool passes_alone = false, fails_alone = false;
    if (alone) {
      auto a = only_for(*alone, test);
      a.technique = "suite (alone)";
      passes_alone = a.runs.passed > 0, fails_alone = a.runs.failed > 0;
      merged = core::merge_verdicts(merged, a);
    }
    // The order it failed in (or passed in, when it fails alone), handed to `order`.
    if (passes_alone != fails_alone) {
      const Seen* pick = nullptr;
      for (const auto& s : seen[test])
        if (core::is_failure(s.outcome) == passes_alone && core::is_observation(s.outcome)) { pick = &s; break; }
      // First the order once more: when the suspect's outcome does not come back, the order
      // does not decide it, and the order technique (confirmations, delta debugging over the
      // whole prefix) would only spend the budget to say so. The order narrowed by the rounds
      // (suite_plan.hpp) is tried first; the whole prefix when that does not give the outcome.
      const std::string outcome = passes_alone ? "failed" : "passed";
      std::vector<std::vector<std::string>> tries;
      std::string narrowing;
      if (pick) {
        std::vector<std::string> whole(pick->run->spec.tests.begin(), pick->run->spec.tests.begin() + long(pick->pos) + 1);
        std::vector<Occurrence> same;
        for (const auto& s : seen[test])
          if (core::is_observation(s.outcome) && core::is_failure(s.outcome) == passes_alone)
            same.push_back({&s.run->spec.tests, s.pos});
        auto narrowed = narrowed_order(same, {&pick->run->spec.tests, pick->pos}, test);
        if (narrowed.size() > 1 && narrowed.size() < whole.size()) {  // alone it was run already
          narrowing = std::to_string(narrowed.size() - 1) + " of the " + std::to_string(whole.size() - 1) +
                      " tests before it: those before it in all " + std::to_string(same.size()) + " rounds it " + outcome + " in";
          tries.push_back(std::move(narrowed));
        }
        tries.push_back(std::move(whole));
      }
      std::optional<std::vector<std::string>> reproduced;
      for (size_t k = 0; k < tries.size() && !reproduced; ++k) {
        const bool narrowed = k + 1 < tries.size();
        core::RunSpec again;
        again.tests = tries[k];
        again.technique = "suite";
        again.purpose = "the order " + test + " " + outcome + " in, " + (narrowed ? "narrowed by the rounds" : "once more");
        again.seed = pick->run->spec.seed;
        auto run = isolation.run(again);
        if (!run && run.error().code == util::Errc::cancelled) return std::unexpected(run.error());
        if (!run) break;
        auto o = run->report.outcome_at(again.tests.size() - 1);
        if (core::is_observation(o) && core::is_failure(o) == passes_alone) {
          reproduced = tries[k];
          if (!narrowed) narrowing.clear();
        } else if (!narrowed) {
          merged.evidence.reason += "; the order it " + outcome + " in did not give that outcome again (run " +
                                    std::to_string(run->id) + ")";
        }
      }
      if (reproduced) {
        core::TechniqueInput od = sub;
        od.tests = *reproduced;
        order::OrderOptions only_this;
        only_this.only = {test};
        only_this.max_cleaners = 1;
        auto found = order::detect_order_dependent(od, isolation, only_this);
        if (!found && found.error().code == util::Errc::cancelled) return std::unexpected(found.error());
        if (found) {
          auto o = only_for(*found, test);
          merged = core::merge_verdicts(merged, o);
          if (!narrowing.empty()) merged.evidence.details["order_narrowed_to"] = narrowing;
        }
      }
    }
    auto nio = order::detect_nio(sub, isolation, order::NioMode::isolated_method);
    if (!nio && nio.error().code == util::Errc::cancelled) return std::unexpected(nio.error());
    if (nio) {
      auto n = only_for(*nio, test);
      merged = core::merge_verdicts(merged, n);
    }
    {
      std::vector<core::RecordedRun> all = rounds.runs;
      all.insert(all.end(), isolation.kept.begin(), isolation.kept.end());
      merged = core::honest_verdict(core::check_deciding(std::move(merged), all));
    }
    const bool spent = elapsed() >= total.seconds || rounds.runs_made + isolated_runs() >= total.runs;
    if (spent && core::honest_verdict(merged).category == core::Category::unknown) {
      merged.evidence.details["unscanned"] = "isolation cut short by the budget";
      merged.evidence.reason += "; the budget ended during its isolated runs";
    }
    out.push_back(std::move(merged));
  }
  return out;
}

}  // namespace flakescan::suite
