// Technique `nio`: non-idempotent-outcome tests (docs/order.md).
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "order/evidence.hpp"
#include "order/orders.hpp"
#include "order/budgeted_runs.hpp"
#include "order/order_and_nio.hpp"
#include "util/log.hpp"

namespace flakescan::order {

namespace {

using core::Outcome;

// Runs of `t, t` alone that must all pass then fail before a test is called NIO.
constexpr int kNioConfirmRuns = 2;

std::vector<std::string> twice_each(const std::vector<std::string>& tests) {
  std::vector<std::string> out;
  out.reserve(tests.size() * 2);
  for (const auto& t : tests) {
    out.push_back(t);
    out.push_back(t);
  }
  return out;
}

// A test that ran twice in one JVM (in a row, or in two runs of its class): where, and what
// happened each time.
struct Pair {
  size_t run = 0;
  size_t pos = 0;     // of the first execution
  size_t second = 0;  // position of the second execution
  Outcome first_outcome = Outcome::infra;
  Outcome second_outcome = Outcome::infra;
  bool nio() const { return first_outcome == Outcome::pass && core::is_failure(second_outcome); }
};

// Each test's first two executions in each run, in the order of their first execution.
std::vector<std::pair<std::string, Pair>> pairs_in(const BudgetedRuns& runner, const std::vector<size_t>& runs) {
  std::vector<std::pair<std::string, Pair>> out;
  for (size_t r : runs) {
    const auto& run = runner.at(r);
    const auto& ts = run.spec.tests;
    std::map<std::string, size_t> first;  // test -> its index in `out`, until its second execution
    for (size_t i = 0; i < ts.size(); ++i) {
      auto [it, is_first] = first.try_emplace(ts[i], out.size());
      if (is_first) {
        out.push_back({ts[i], Pair{r, i, i, run.report.outcome_at(i), Outcome::infra}});
        continue;
      }
      if (it->second == SIZE_MAX) continue;  // a third execution
      auto& p = out[it->second].second;
      p.second = i;
      p.second_outcome = run.report.outcome_at(i);
      it->second = SIZE_MAX;
    }
  }
  std::erase_if(out, [](const auto& p) { return p.second.second == p.second.pos; });  // ran once
  return out;
}

// The class runs of `starts` that lie inside the first `size` entries, as the details text.
std::string starts_text(const std::vector<size_t>& starts, size_t size) {
  std::string out;
  for (size_t s : starts)
    if (s < size) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out;
}

}  // namespace

std::string_view nio_mode_name(NioMode mode) {
  switch (mode) {
    case NioMode::isolated_method: return "isolated-method";
    case NioMode::isolated_class: return "isolated-class";
    case NioMode::entire_suite: return "entire-suite";
  }
  return "entire-suite";
}

std::optional<NioMode> parse_nio_mode(std::string_view name) {
  for (auto m : {NioMode::isolated_method, NioMode::isolated_class, NioMode::entire_suite})
    if (nio_mode_name(m) == name) return m;
  return std::nullopt;
}

namespace {

// The first pass: every test twice in one JVM, as the mode says.
std::vector<core::RunSpec> first_pass_specs(const std::vector<std::string>& tests, NioMode mode) {
  std::vector<core::RunSpec> specs;
  auto add = [&](std::vector<std::string> ts, std::string purpose) {
    core::RunSpec s;
    s.tests = twice_each(ts);
    s.purpose = std::move(purpose);
    specs.push_back(std::move(s));
  };
  // The class mode runs each class twice in one JVM, the second time as a new run of the class,
  // so what its @BeforeClass/@BeforeAll or static initialisation leaves behind is seen too.
  auto twice_in_one_jvm = [&](std::vector<std::string> ts, std::string purpose) {
    core::RunSpec s;
    s.tests = ts;
    s.tests.insert(s.tests.end(), ts.begin(), ts.end());
    s.class_run_starts = {ts.size()};
    s.purpose = std::move(purpose);
    specs.push_back(std::move(s));
  };
  switch (mode) {
    case NioMode::entire_suite: add(tests, "nio entire-suite"); break;
    case NioMode::isolated_class:
      for (auto& g : group_by_class(tests)) {
        std::string cls(class_of(g.front()));
        twice_in_one_jvm(std::move(g), "nio isolated-class: " + cls + " twice");
      }
      break;
    case NioMode::isolated_method:
      for (const auto& t : tests) add({t}, "nio isolated-method: " + t);
      break;
  }
  return specs;
}

// What the confirming runs of the first pass's hits showed.
struct Confirmation {
  std::map<std::string, Pair> confirmed;
  std::map<std::string, Pair> unconfirmed;
  std::map<std::string, int> confirmations;  // test -> confirming runs that showed pass-then-fail
  std::map<std::string, int> seen;           // test -> confirming runs with both executions observed
};

// Whether the run's first two entries ran `t` twice with an outcome each time.
bool both_observed(const core::RecordedRun& run) {
  return core::is_observation(run.report.outcome_at(0)) && core::is_observation(run.report.outcome_at(1));
}

// Runs each hit `t, t` in a JVM of its own kNioConfirmRuns more times; earlier runs of
// exactly that (runs handed over, BudgetedRuns::runs_of) count as some of them. Fails only
// when the scan was cancelled; any other stop is kept in `stopped` (unless one is there already).
util::Result<Confirmation> confirm_hits(BudgetedRuns& runner, const std::vector<std::pair<std::string, Pair>>& hits,
                                        bool class_twice, std::optional<util::Error>& stopped) {
  Confirmation c;
  if (hits.empty()) return c;
  std::vector<core::RunSpec> confirm;
  std::vector<size_t> confirming;  // history indices of the confirmations, made or earlier
  for (auto& [t, p] : hits) {
    int have = 0;
    const std::vector<size_t> starts = class_twice ? std::vector<size_t>{1} : std::vector<size_t>{};
    for (size_t r : runner.runs_of({t, t}, starts, p.run))
      if (have < kNioConfirmRuns && both_observed(runner.at(r))) {
        confirming.push_back(r);
        ++have;
      }
    for (int k = have; k < kNioConfirmRuns; ++k) {
      core::RunSpec s;
      s.tests = {t, t};
      if (class_twice) s.class_run_starts = {1};
      s.purpose = "nio confirm " + std::to_string(k + 1) + (class_twice ? " its class twice: " : " isolated-method: ") + t;
      confirm.push_back(std::move(s));
    }
  }
  if (!confirm.empty()) {
    auto made = runner.run_all(std::move(confirm));
    if (!made && made.error().code == util::Errc::cancelled) return std::unexpected(made.error());
    if (!made && !stopped) stopped = made.error();
    if (made) confirming.insert(confirming.end(), made->begin(), made->end());
  }
  for (auto& p : pairs_in(runner, confirming)) {
    if (!core::is_observation(p.second.first_outcome) || !core::is_observation(p.second.second_outcome)) continue;
    ++c.seen[p.first];
    if (p.second.nio()) ++c.confirmations[p.first];
  }
  for (auto& [t, p] : hits) {
    if (c.seen[t] == kNioConfirmRuns && c.confirmations[t] == kNioConfirmRuns) c.confirmed[t] = p;
    else c.unconfirmed[t] = p;
  }
  return c;
}

// A flaky verdict of technique nio for `t`, with its run counts and failures.
core::Verdict flaky_verdict(const BudgetedRuns& runner, const std::string& t, core::Category category) {
  core::Verdict v;
  v.test = t;
  v.verdict = core::VerdictKind::flaky;
  v.category = category;
  v.technique = "nio";
  v.runs = count_runs(runner, t);
  v.evidence.failures = failure_groups(runner, t);
  return v;
}

core::Verdict nio_verdict(const BudgetedRuns& runner, const std::string& t, const Pair& p, const std::string& mode_name,
                          bool class_twice) {
  core::Verdict v = flaky_verdict(runner, t, core::Category::nio);
  auto& e = v.evidence;
  e.role = "nio";
  e.reproducer = {t, t};
  e.passing_order = {t};
  if (class_twice) e.details["class_run_starts"] = "1";
  // One run holds both: the first execution passed, the second failed.
  e.passing_run = runner.at(p.run).id;
  e.failing_run = runner.at(p.run).id;
  e.details["mode"] = mode_name;
  e.details["polluter"] = "itself";
  e.details["nio_confirmations"] = std::to_string(kNioConfirmRuns) + "/" + std::to_string(kNioConfirmRuns);
  e.reason = class_twice ? "passes when its class runs once and fails when the class runs a second time in the same JVM "
                           "(alone in its class: its @BeforeClass/@BeforeAll runs again)"
                         : "passes when run once and fails when run a second time in the same JVM";
  return v;
}

// Failed on its second execution only after other tests: evidence of flakiness, but
// not of a NIO test; the `order` technique finds out why.
core::Verdict unconfirmed_verdict(const BudgetedRuns& runner, const std::string& t, const Pair& p,
                                  const std::string& mode_name, int confirmations, int seen) {
  const auto& run = runner.at(p.run);
  core::Verdict v = flaky_verdict(runner, t, core::Category::unknown);
  auto& e = v.evidence;
  e.reproducer.assign(run.spec.tests.begin(), run.spec.tests.begin() + static_cast<long>(p.second) + 1);
  e.passing_order.assign(run.spec.tests.begin(), run.spec.tests.begin() + static_cast<long>(p.pos) + 1);
  if (auto starts = starts_text(run.spec.class_run_starts, e.reproducer.size()); !starts.empty())
    e.details["class_run_starts"] = starts;
  e.passing_run = run.id;
  e.failing_run = run.id;
  e.details["mode"] = mode_name;
  e.details["nio_confirmations"] = std::to_string(confirmations) + "/" + std::to_string(kNioConfirmRuns);
  // Only a hit after other tests that never repeated alone points at those tests; one that
  // repeated alone in some reruns but not all is random (timing), whatever ran before it.
  bool alone = run.spec.tests.size() == 2;
  bool after_others = !alone && confirmations == 0;
  // Reruns that ended without both outcomes (the JVM exited, e.g. a second embedded server
  // on the same fixed port) say nothing either way: not confirmed, and not refuted.
  int unobserved = kNioConfirmRuns - seen;
  std::string why = unobserved > 0 && confirmations == seen
                        ? "not confirmed: " + std::to_string(unobserved) + " of the reruns ended without an outcome "
                          "(infrastructure, see their runs)"
                    : after_others ? "it may depend on the tests before it"
                                   : "running it again does not decide its outcome";
  e.reason = "failed on its second execution in " + run.spec.purpose + ", but run twice alone it failed that way in " +
             std::to_string(confirmations) + " of " + std::to_string(kNioConfirmRuns) + " reruns: " + why;
  return v;
}

}  // namespace

util::Result<std::vector<core::Verdict>> detect_nio(const core::TechniqueInput& input, core::RunLog& log, NioMode mode,
                                                    const std::vector<core::RecordedRun>& observed) {
  BudgetedRuns runner(log, input.budget, "nio");
  auto tests = unique_in_order(input.tests);
  std::vector<core::Verdict> out;
  if (tests.empty()) return out;
  std::string mode_name(nio_mode_name(mode));
  const bool class_twice = mode == NioMode::isolated_class;

  // Hits handed over: runs of t, t alone that passed then failed take the place of t's first pass.
  std::vector<size_t> scan_runs;
  std::set<std::string> handed_over;
  for (const auto& run : mode == NioMode::isolated_method ? observed : std::vector<core::RecordedRun>{}) {
    const size_t r = runner.adopt(run);
    const auto& ts = run.spec.tests;
    if (ts.size() < 2 || ts[0] != ts[1] || !run.spec.class_run_starts.empty() || run.report.outcome_at(0) != Outcome::pass ||
        !core::is_failure(run.report.outcome_at(1)) || std::find(tests.begin(), tests.end(), ts[0]) == tests.end())
      continue;
    scan_runs.push_back(r);
    handed_over.insert(ts[0]);
  }
  std::vector<std::string> first_pass;
  for (const auto& t : tests)
    if (!handed_over.contains(t)) first_pass.push_back(t);

  std::optional<util::Error> stopped;
  if (!first_pass.empty()) {
    auto made = runner.run_all(first_pass_specs(first_pass, mode));
    if (made) scan_runs.insert(scan_runs.end(), made->begin(), made->end());
    else if (made.error().code == util::Errc::cancelled) return std::unexpected(made.error());
    else stopped = made.error();
  }

  // Hits of the first pass, then their confirmation: t, t in a JVM of its own, kNioConfirmRuns
  // more times. The repeated run decides the outcome only if every one of them passes the first
  // execution and fails the second; a timing test whose failure once fell on a second
  // execution does not pass that check.
  // One hit per test: a run cut short by an exiting test runs again with the tests before it
  // (BudgetedRuns), so a test before it can show pass-then-fail in both.
  std::vector<std::pair<std::string, Pair>> hits;
  std::set<std::string> hit;
  for (auto& p : pairs_in(runner, scan_runs))
    if (p.second.nio() && hit.insert(p.first).second) hits.push_back(p);
  auto c = confirm_hits(runner, hits, class_twice, stopped);
  if (!c) return std::unexpected(c.error());
  util::logger("order")->info("nio ({}): {} runs, {} hits, {} confirmed", mode_name, runner.runs(), hits.size(),
                              c->confirmed.size());

  for (const auto& t : tests) {
    if (auto it = c->confirmed.find(t); it != c->confirmed.end()) {
      out.push_back(nio_verdict(runner, t, it->second, mode_name, class_twice));
    } else if (auto u = c->unconfirmed.find(t); u != c->unconfirmed.end()) {
      out.push_back(unconfirmed_verdict(runner, t, u->second, mode_name, c->confirmations[t], c->seen[t]));
    } else {
      auto v = plain_verdict(runner, t, "nio");
      if (stopped && v.verdict == core::VerdictKind::could_not_run) v.evidence.reason += " (" + stopped->message + ")";
      out.push_back(std::move(v));
    }
  }
  return out;
}

core::TechniqueFn nio_technique(NioMode mode) {
  return [mode](const core::TechniqueInput& input, core::RunLog& log) { return detect_nio(input, log, mode); };
}

}  // namespace flakescan::order
