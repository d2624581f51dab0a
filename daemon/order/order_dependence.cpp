// Technique `order`: detection, confirmation, classification, minimisation, cleaners.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "order/ddmin.hpp"
#include "order/evidence.hpp"
#include "order/orders.hpp"
#include "order/pair_cover.hpp"
#include "order/budgeted_runs.hpp"
#include "order/order_and_nio.hpp"
#include "util/log.hpp"

namespace flakescan::order {

namespace {

using core::Outcome;

// Rounds of follow-up after the first: candidates that only the technique's own later runs
// showed (docs/order.md).
constexpr int kFollowUpRounds = 2;

// What the technique concluded about one candidate (a test whose outcome changed).
struct Finding {
  // pending: outcome changed between orders; order_dependent: the failing order failed again
  // every time it was rerun (role not known yet); unconfirmed: could not be rerun or run alone.
  enum class Kind { pending, order_dependent, victim, brittle, not_order_dependent, unconfirmed } kind = Kind::pending;
  std::vector<std::string> related;   // minimal polluters (victim) or state-setters (brittle)
  std::vector<std::string> cleaners;  // victims only
  // Set when the victim passes once its own class runs again after the polluter: a test of
  // another class put between them would split the class the same way, so none is a cleaner.
  bool class_run_cleans = false;
  enum class CleanerSearch { not_run, cut_short, done } cleaner_search = CleanerSearch::not_run;
  std::string cleaners_from;       // the victim of the same polluters whose cleaners these are
  std::string cleaning_class;      // every test tried of this class cleans (its setup may)
  size_t cleaning_class_tried = 0;
  std::vector<std::string> reproducer;
  std::vector<std::string> passing_order;
  std::optional<size_t> failing_run;  // history indices
  std::optional<size_t> passing_run;
  size_t detected_in = 0;             // history index of the first failing run seen
  int minimisation_probes = 0;
  bool minimal = false;
  // Order-dependent by the runs alone handed over, its failing order not rerun yet: the minimal
  // order's reruns confirm it (OrderOptions::confirm_by_minimal_order).
  bool confirmed_by_minimal_order = false;
  std::string reason;
};

// Budget errors end a phase; cancellation ends the technique.
bool fatal(const util::Error& e) { return e.code == util::Errc::cancelled; }

std::vector<std::string> prefix_of(const core::RecordedRun& run, size_t pos) {
  return {run.spec.tests.begin(), run.spec.tests.begin() + static_cast<long>(pos)};
}

// Where `test` ran last in `spec`'s order (0 when it did not).
size_t position_of(const core::RunSpec& spec, const std::string& test) {
  size_t pos = 0;
  for (size_t i = 0; i < spec.tests.size(); ++i)
    if (spec.tests[i] == test) pos = i;
  return pos;
}

std::vector<std::string> pick(const std::vector<std::string>& from, const std::vector<size_t>& indices) {
  std::vector<std::string> out;
  for (size_t i : indices) out.push_back(from[i]);
  return out;
}

// What the phases share: the runs so far (within the budget), the tests, the candidates and
// what was concluded about each, and the first budget stop.
struct OrderState {
  OrderState(const core::TechniqueInput& input, core::RunLog& log, const OrderOptions& options)
      : options(options), runner(log, input.budget, "order"), tests(unique_in_order(input.tests)) {}

  // Records a budget stop (first one wins); returns the error when it must propagate.
  util::Result<void> note(const util::Error& e) {
    if (fatal(e)) return std::unexpected(e);
    if (!stopped) {
      stopped = e;
      util::logger("order")->info("order: stopping early: {}", e.message);
    }
    return {};
  }

  // The observation of `test` failing (or passing) with the fewest tests before it.
  std::optional<Observation> shortest(const std::string& test, bool failing, bool skip_first = false) const {
    std::optional<Observation> best;
    for (size_t r = 0; r < runner.history().size(); ++r) {
      const auto& run = runner.at(r);
      for (size_t i = 0; i < run.spec.tests.size(); ++i) {
        if (run.spec.tests[i] != test || (skip_first && i == 0)) continue;
        auto o = run.report.outcome_at(i);
        bool match = failing ? core::is_failure(o) : o == Outcome::pass;
        if (match && (!best || i < best->pos)) best = Observation{r, i, o};
      }
    }
    return best;
  }

  OrderOptions options;
  BudgetedRuns runner;
  std::vector<std::string> tests;
  std::vector<std::string> candidates;
  std::map<std::string, Finding> findings;
  std::optional<util::Error> stopped;
};

// The fewest tests before a victim (its polluters) or a brittle test (its state-setters)
// that decide its outcome.
class Minimiser {
 public:
  explicit Minimiser(OrderState& s) : s_(s) {}

  // Phase 4: delta debugging over the tests before it in the failing (victim) or passing
  // (brittle) order.
  util::Result<void> minimise(const std::string& test, Finding& f) {
    const bool victim = f.kind == Finding::Kind::victim;
    auto start = s_.shortest(test, victim, !victim);
    if (!start) {
      // Cannot happen for a confirmed candidate (it passed and failed after other tests).
      f.kind = Finding::Kind::order_dependent;
      f.reason += "; no run with tests before it to minimise";
      return {};
    }
    auto prefix = prefix_of(s_.runner.at(start->run), start->pos);
    auto m = smallest_prefix(test, f, prefix);
    if (!m) return std::unexpected(m.error());
    f.minimisation_probes = m->probes;
    f.minimal = m->complete;
    if (m->stopped)
      if (auto r = s_.note(*m->stopped); !r) return r;
    f.related = pick(prefix, m->items);
    auto order = f.related;
    order.push_back(test);
    // The smallest set was observed by a probe (or is the starting run's own prefix).
    auto seen = s_.runner.outcome_after(order, "reproduce " + test);
    if (!seen) {
      if (auto r = s_.note(seen.error()); !r) return r;
      // Not reachable in practice: the starting run holds this prefix.
      f.kind = Finding::Kind::order_dependent;
      return {};
    }
    auto confirmed = confirm(test, order, victim, *seen);
    if (!confirmed) return std::unexpected(confirmed.error());
    if (!confirmed->decided) {
      not_decided(f, order, confirmed->agreeing, *seen);
    } else if (victim) {
      f.reproducer = order;
      f.failing_run = seen->run;
    } else {
      f.passing_order = order;
      f.passing_run = seen->run;
    }
    return {};
  }

 private:
  // Whether an outcome is the one that was minimised for: a failure of a victim, a pass of a
  // brittle test.
  static bool wanted(bool victim, Outcome o) { return victim ? core::is_failure(o) : o == Outcome::pass; }

  // The fewest tests of `prefix` before which `test` still gives its outcome: the single test
  // another candidate shares when it does, else delta debugging.
  util::Result<Minimised> smallest_prefix(const std::string& test, const Finding& f, const std::vector<std::string>& prefix) {
    const bool victim = f.kind == Finding::Kind::victim;
    auto probe = [&](const std::vector<size_t>& subset) -> util::Result<bool> {
      auto order = pick(prefix, subset);
      order.push_back(test);
      auto o = s_.runner.outcome_after(order, std::string(victim ? "minimise polluters of " : "minimise state-setters of ") + test);
      if (!o) return std::unexpected(o.error());
      return wanted(victim, o->outcome);
    };
    auto shared = shared_single(test, f, prefix, probe);
    if (!shared) return std::unexpected(shared.error());
    if (*shared) return **shared;
    return writers_first(prefix, probe);
  }

  // Delta debugging over the static-state writers among `prefix` when they alone give the
  // outcome (one probe to see), else over all of it.
  Minimised writers_first(const std::vector<std::string>& prefix, const Probe& probe) {
    std::vector<size_t> writers;
    for (size_t i = 0; i < prefix.size(); ++i)
      if (s_.options.writers.contains(prefix[i])) writers.push_back(i);
    if (writers.empty() || writers.size() == prefix.size()) return ddmin(prefix.size(), probe);
    auto gives = probe(writers);
    if (!gives) return Minimised{.items = all_of(prefix.size()), .probes = 1, .complete = false, .stopped = gives.error()};
    if (!*gives) {
      auto m = ddmin(prefix.size(), probe);
      ++m.probes;
      return m;
    }
    auto within = ddmin(writers.size(), [&](const std::vector<size_t>& subset) {
      std::vector<size_t> mapped;
      for (size_t k : subset) mapped.push_back(writers[k]);
      return probe(mapped);
    });
    for (auto& k : within.items) k = writers[k];
    ++within.probes;
    return within;
  }

  static std::vector<size_t> all_of(size_t n) {
    std::vector<size_t> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = i;
    return out;
  }

  // How the minimal order's confirming reruns went.
  struct Confirmation {
    bool decided = false;  // it gave the outcome when seen and in every rerun
    int agreeing = 0;      // reruns that gave the outcome again
  };

  // The minimal order must decide the outcome as often as the failing order did: it is rerun
  // confirm_reruns times (not once it disagrees; a budget stop ends the reruns). Runs of
  // exactly this order made before, other than the one that showed it (phase 2's reruns, when
  // the failing order was minimal already), count as reruns: they are not made again.
  util::Result<Confirmation> confirm(const std::string& test, const std::vector<std::string>& order, bool victim,
                                     const Observation& seen) {
    Confirmation c;
    c.decided = wanted(victim, seen.outcome);
    for (size_t r : s_.runner.runs_of(order, {}, seen.run)) {
      if (!c.decided || c.agreeing >= s_.options.confirm_reruns) break;
      const auto o = s_.runner.at(r).report.outcome_at(order.size() - 1);
      if (!core::is_observation(o)) continue;
      if (wanted(victim, o)) ++c.agreeing;
      else c.decided = false;
    }
    for (int k = c.agreeing; c.decided && k < s_.options.confirm_reruns; ++k) {
      auto again = s_.runner.run(order, "confirm " + std::to_string(k + 1) + ": reproduce " + test, 0, false);
      if (!again) {
        if (auto r = s_.note(again.error()); !r) return std::unexpected(r.error());
        break;
      }
      auto o = s_.runner.at(again->front()).report.outcome_at(order.size() - 1);
      if (wanted(victim, o)) ++c.agreeing;
      else c.decided = false;
    }
    if (c.agreeing < s_.options.confirm_reruns) c.decided = false;
    return c;
  }

  // The minimal order did not decide the outcome in its reruns: no culprit is named.
  void not_decided(Finding& f, const std::vector<std::string>& order, int agreeing, const Observation& seen) {
    std::string said = "the order " + join(order) + " gave the same outcome in " + std::to_string(agreeing) +
                       " of " + std::to_string(s_.options.confirm_reruns) + " reruns";
    f.related.clear();
    if (f.kind == Finding::Kind::victim) {
      // Its failing order and its passing run alone were both confirmed: order-dependent,
      // but no culprit is named.
      f.kind = Finding::Kind::order_dependent;
      f.reason += "; " + said + ", so no polluter is named";
    } else {
      // Only its failures alone were confirmed; no passing order was: not decided by order.
      f.kind = Finding::Kind::not_order_dependent;
      f.passing_order = order;
      if (seen.outcome == Outcome::pass) f.passing_run = seen.run;
      f.reason = "failed every time alone and passed after " + join(order) + " once, but " + said +
                 ": flaky, but not decided by the tests before it";
    }
  }

  // Tests of one polluter mostly share it: when another test of the same role was minimised to a
  // single test that is in this prefix, that one is probed first. If it gives the outcome, it is
  // minimal here too (without it the test runs alone, which classification saw pass for a
  // victim and fail for a brittle test): one probe instead of a delta debugging. nullopt when
  // there is no such test or the probe did not give the outcome; an error only on cancellation.
  template <class Probe>
  util::Result<std::optional<Minimised>> shared_single(const std::string& test, const Finding& f,
                                                       const std::vector<std::string>& prefix, Probe& probe) {
    for (const auto& other : s_.candidates) {
      const Finding& g = s_.findings[other];
      if (other == test || g.kind != f.kind || !g.minimal || g.related.size() != 1) continue;
      auto at = std::find(prefix.begin(), prefix.end(), g.related.front());
      if (at == prefix.end()) continue;
      auto gives = probe({static_cast<size_t>(at - prefix.begin())});
      if (!gives) {
        if (auto r = s_.note(gives.error()); !r) return std::unexpected(r.error());
        return std::nullopt;
      }
      if (!*gives) return std::nullopt;
      return Minimised{.items = {static_cast<size_t>(at - prefix.begin())}, .probes = 1, .complete = true, .stopped = {}};
    }
    return std::nullopt;
  }

  OrderState& s_;
};

// Phase 5: tests that, run between a victim's polluters and the victim, make it pass.
class CleanerFinder {
 public:
  explicit CleanerFinder(OrderState& s) : s_(s) {}

  // Phase 5 for every victim whose cleaners were not searched yet, in the order found.
  util::Result<void> search_all_cleaners() {
    if (!s_.options.find_cleaners) return {};
    for (const auto& test : s_.candidates) {
      Finding& f = s_.findings[test];
      if (f.kind != Finding::Kind::victim || f.cleaner_search != Finding::CleanerSearch::not_run) continue;
      if (s_.stopped) return {};
      auto r = search_cleaners(test, f);
      if (!r) return r;
      f.cleaner_search = s_.stopped ? Finding::CleanerSearch::cut_short : Finding::CleanerSearch::done;
    }
    return {};
  }

 private:
  // Phase 5: cleaners by group testing: polluters, then a group of other tests, then the
  // victim; if the victim passes, the group holds a cleaner, so split it and look deeper.
  // Victims of the same polluters mostly share their cleaners: those found for an earlier
  // one are tried first, one run each, and the search runs only when none of them cleans.
  util::Result<void> search_cleaners(const std::string& test, Finding& f) {
    if (s_.stopped) return {};
    // The polluter runs in one run of the victim's class with it; any test of another class put
    // between them splits that class, whose setup (@BeforeClass, @BeforeAll) then runs again for
    // the victim. Control first: the polluter, then the victim in a new run of its class. If that
    // passes, the split explains the pass and no test between them is called a cleaner.
    if (!f.related.empty() && class_of(f.related.back()) == class_of(test)) {
      core::RunSpec control;
      control.tests = f.related;
      control.tests.push_back(test);
      control.class_run_starts = {f.related.size()};
      control.purpose = "cleaner control for " + test + ": its class runs again after " + f.related.back();
      auto made = s_.runner.run(std::move(control), false);
      if (!made) return s_.note(made.error());
      const auto& ran = s_.runner.at(made->front());
      if (ran.report.outcome_at(ran.spec.tests.size() - 1) == Outcome::pass) {
        f.class_run_cleans = true;
        return {};
      }
    }
    for (const auto& other : s_.candidates) {
      const Finding& g = s_.findings[other];
      if (other == test || g.kind != Finding::Kind::victim || g.related != f.related || g.cleaners.empty()) continue;
      for (const auto& c : g.cleaners) {
        auto order = f.related;
        order.push_back(c);
        order.push_back(test);
        auto o = s_.runner.outcome_after(order, "cleaner of " + other + " tried for " + test);
        if (!o) return s_.note(o.error());
        if (o->outcome == Outcome::pass) f.cleaners.push_back(c);
      }
      if (!f.cleaners.empty()) {
        f.cleaners_from = other;
        if (f.cleaners.size() == g.cleaners.size()) {
          f.cleaning_class = g.cleaning_class;
          f.cleaning_class_tried = g.cleaning_class_tried;
        }
        return {};
      }
      break;  // the shared cleaners do not clean this one: search
    }
    std::set<std::string> exclude(f.related.begin(), f.related.end());
    exclude.insert(test);
    std::vector<std::string> pool;
    for (const auto& t : s_.tests)
      if (!exclude.count(t)) pool.push_back(t);
    std::function<util::Result<void>(const std::vector<std::string>&)> search =
        [&](const std::vector<std::string>& group) -> util::Result<void> {
      if (group.empty() || static_cast<int>(f.cleaners.size()) >= s_.options.max_cleaners) return {};
      auto order = f.related;
      order.insert(order.end(), group.begin(), group.end());
      order.push_back(test);
      auto o = s_.runner.outcome_after(order, "cleaner search for " + test);
      if (!o) return s_.note(o.error());
      if (o->outcome != Outcome::pass) return {};
      if (group.size() == 1) {
        f.cleaners.push_back(group[0]);
        return {};
      }
      size_t half = group.size() / 2;
      if (auto r = search({group.begin(), group.begin() + static_cast<long>(half)}); !r) return r;
      if (s_.stopped) return {};
      return search({group.begin() + static_cast<long>(half), group.end()});
    };
    if (auto r = search(pool); !r) return r;
    return check_cleaning_class(test, f);
  }
  // Cleaners that are all tests of one other class may be that class's setup (@BeforeClass,
  // @Before) rather than the tests: one more run puts a test of that class that was not found
  // (the search stops at max_cleaners) between the polluters and the victim. When it cleans too,
  // or the class has no other test, the verdict names the class (details.cleaning_class).
  util::Result<void> check_cleaning_class(const std::string& test, Finding& f) {
    if (f.cleaners.size() < 2 || s_.stopped) return {};
    const std::string cls(class_of(f.cleaners.front()));
    if (cls == class_of(test)) return {};
    for (const auto& c : f.cleaners)
      if (class_of(c) != cls) return {};
    std::vector<std::string> others;
    for (const auto& t : s_.tests)
      if (class_of(t) == cls && t != test && std::find(f.cleaners.begin(), f.cleaners.end(), t) == f.cleaners.end() &&
          std::find(f.related.begin(), f.related.end(), t) == f.related.end())
        others.push_back(t);
    if (!others.empty()) {
      auto order = f.related;
      order.push_back(others.front());
      order.push_back(test);
      auto o = s_.runner.outcome_after(order, "cleaner class check for " + test + ": another test of " + cls);
      if (!o) return s_.note(o.error());
      if (o->outcome != Outcome::pass) return {};
    }
    f.cleaning_class = cls;
    f.cleaning_class_tried = f.cleaners.size() + (others.empty() ? 0 : 1);
    return {};
  }

  OrderState& s_;
};

// The verdicts of technique `order`, one per test, from what the phases concluded.
class OrderVerdicts {
 public:
  OrderVerdicts(const OrderState& s, const std::optional<PairCoverage>& coverage) : s_(s), coverage_(coverage) {}

  std::vector<core::Verdict> all() const {
    std::vector<core::Verdict> out;
    for (const auto& t : s_.tests) {
      auto it = s_.findings.find(t);
      out.push_back(with_coverage(it == s_.findings.end() ? plain_verdict(s_.runner, t, "order") : of(t, it->second)));
    }
    return out;
  }

 private:
  // How much of the pair space the detection orders reached, on every verdict: a victim
  // whose polluter was never right before it can hide in the rest.
  core::Verdict with_coverage(core::Verdict v) const {
    if (coverage_) {
      v.evidence.details["pair_coverage"] = std::to_string(coverage_->covered) + "/" + std::to_string(coverage_->total);
      v.evidence.details["related_pair_coverage"] =
          std::to_string(coverage_->related_covered) + "/" + std::to_string(coverage_->related_total);
    }
    return v;
  }

  // The verdict of a test with a finding (a candidate).
  core::Verdict of(const std::string& t, const Finding& f) const {
    core::Verdict v;
    v.test = t;
    v.technique = "order";
    v.runs = count_runs(s_.runner, t);
    v.evidence.failures = failure_groups(s_.runner, t);
    v.verdict = core::VerdictKind::flaky;
    auto& e = v.evidence;
    e.reason = f.reason.empty() ? "outcome changed between orders; not confirmed (" +
                                      (s_.stopped ? s_.stopped->message : std::string("stopped")) + ")"
                                : f.reason;
    e.details["detected_in"] = s_.runner.at(f.detected_in).spec.purpose;
    if (s_.runner.at(f.detected_in).spec.seed != 0)
      e.details["order_seed"] = std::to_string(s_.runner.at(f.detected_in).spec.seed);
    switch (f.kind) {
      case Finding::Kind::victim:
      case Finding::Kind::brittle:
        explain_role(f, v);
        break;
      case Finding::Kind::not_order_dependent:
        v.category = core::Category::unknown;
        e.reproducer = f.reproducer;
        e.passing_order = f.passing_order;
        break;
      case Finding::Kind::pending:
      case Finding::Kind::order_dependent:
      case Finding::Kind::unconfirmed: {
        // Pass and failure both observed in different orders; no role (budget, crash).
        v.category = f.kind == Finding::Kind::order_dependent ? core::Category::order_dependent
                                                              : core::Category::unknown;
        auto fail = s_.shortest(t, true);
        auto pass = s_.shortest(t, false);
        e.reproducer = prefix_of(s_.runner.at(fail->run), fail->pos + 1);
        e.passing_order = prefix_of(s_.runner.at(pass->run), pass->pos + 1);
        break;
      }
    }
    if (f.failing_run) e.failing_run = s_.runner.at(*f.failing_run).id;
    if (f.passing_run) e.passing_run = s_.runner.at(*f.passing_run).id;
    if (!e.failing_run) e.failing_run = s_.runner.at(s_.shortest(t, true)->run).id;
    if (!e.passing_run) e.passing_run = s_.runner.at(s_.shortest(t, false)->run).id;
    return v;
  }

  // A victim or brittle test: its role, the tests that decide its outcome, its cleaners, and
  // how far the minimisation and the cleaner search got.
  void explain_role(const Finding& f, core::Verdict& v) const {
    auto& e = v.evidence;
    bool victim = f.kind == Finding::Kind::victim;
    v.category = core::Category::order_dependent;
    e.role = victim ? "victim" : "brittle";
    e.reproducer = f.reproducer;
    e.passing_order = f.passing_order;
    e.related = f.related;
    e.related.insert(e.related.end(), f.cleaners.begin(), f.cleaners.end());
    e.details[victim ? "polluters" : "state_setters"] = join(f.related);
    if (victim && s_.options.find_cleaners) {
      e.details["cleaners"] = join(f.cleaners);
      if (!f.cleaners_from.empty()) e.details["cleaners_from"] = f.cleaners_from;
      if (f.cleaner_search != Finding::CleanerSearch::done)
        e.details["cleaners_unsearched"] = std::string(f.cleaner_search == Finding::CleanerSearch::cut_short ? "cut short: " : "") +
                                           (s_.stopped ? s_.stopped->message : std::string("not reached"));
    }
    e.details["minimisation_runs"] = std::to_string(f.minimisation_probes);
    e.details["minimal"] = f.minimal ? "true" : "false";
    e.reason = victim ? "passes alone and fails after " + join(f.related)
                      : "fails alone and passes after " + join(f.related);
    if (!f.cleaners.empty()) e.reason += "; cleaners: " + join(f.cleaners);
    if (!f.cleaners_from.empty()) e.reason += " (found for " + f.cleaners_from + ", which has the same polluters)";
    if (!f.cleaning_class.empty()) {
      e.details["cleaning_class"] = f.cleaning_class;
      e.reason += "; every test of " + f.cleaning_class + " tried (" + std::to_string(f.cleaning_class_tried) +
                  ") cleans: the class's setup (@BeforeClass, @Before) may be what cleans";
    }
    if (victim && s_.options.find_cleaners && f.cleaner_search != Finding::CleanerSearch::done)
      e.reason += std::string(f.cleaner_search == Finding::CleanerSearch::cut_short ? "; cleaner search cut short ("
                                                                                      : "; cleaners not searched (") +
                  (s_.stopped ? s_.stopped->message : std::string("not reached")) + ")";
    if (f.class_run_cleans) {
      e.details["class_run_cleans"] = "true";
      e.reason += "; it passes when its class runs again after the polluter (the class's setup resets the state), so a test "
                  "of another class between them is no cleaner";
    }
    if (!f.minimal) e.reason += " (not fully minimised: " + (s_.stopped ? s_.stopped->message : std::string()) + ")";
  }

  const OrderState& s_;
  const std::optional<PairCoverage>& coverage_;
};

// Technique `order` in its phases: detection (1), confirmation (2), classification (3), then
// Minimiser (4) and CleanerFinder (5); OrderVerdicts says what was found.
class OrderDetector {
 public:
  OrderDetector(const core::TechniqueInput& input, core::RunLog& log, const OrderOptions& options)
      : input_(input), s_(input, log, options) {}

  util::Result<std::vector<core::Verdict>> run() {
    if (s_.tests.empty()) return std::vector<core::Verdict>{};
    if (auto r = detect(); !r) return std::unexpected(r.error());
    // A test whose outcome changed only in the technique's own later runs (another test's
    // confirmation, minimisation or cleaner search) is followed up the same way, for up to
    // kFollowUpRounds more rounds while the budget lasts.
    // Cleaners come last, once every candidate is classified and minimised: a budget that
    // ends early cuts the cleaner search (which the verdict then says), not a classification.
    std::vector<std::string> batch = s_.candidates;
    for (int round = 0; !batch.empty() && round <= kFollowUpRounds; ++round) {
      if (round > 0) util::logger("order")->info("order: {} more candidates from the technique's own runs", batch.size());
      if (auto r = follow(batch); !r) return std::unexpected(r.error());
      if (s_.stopped) break;
      batch = new_candidates();  // details.detected_in names the run that showed each
      if (batch.empty()) {       // the cleaner search's own runs may show more
        if (auto r = CleanerFinder(s_).search_all_cleaners(); !r) return std::unexpected(r.error());
        if (s_.stopped) break;
        batch = new_candidates();
      }
      s_.candidates.insert(s_.candidates.end(), batch.begin(), batch.end());
    }
    if (auto r = CleanerFinder(s_).search_all_cleaners(); !r) return std::unexpected(r.error());
    return OrderVerdicts(s_, coverage_).all();
  }

 private:
  // Phase 1: original, reverse and random orders, one JVM each (or the runs handed over).
  util::Result<void> detect() {
    std::vector<size_t> detection;
    if (!s_.options.observed.empty()) {
      for (const auto& run : s_.options.observed) detection.push_back(s_.runner.adopt(run));
    } else {
      const int count = input_.budget.max_orders > 0 ? input_.budget.max_orders : default_order_count(s_.tests);
      auto planned = plan_orders(s_.tests, input_.seed, count, same_package);
      std::vector<core::RunSpec> specs;
      for (auto& p : planned) {
        core::RunSpec s;
        s.tests = std::move(p.tests);
        s.purpose = p.purpose;
        s.seed = p.seed;
        specs.push_back(std::move(s));
      }
      auto made = s_.runner.run_all(std::move(specs));
      if (!made) return s_.note(made.error());
      detection = std::move(*made);
    }
    // The pairs the detection orders that ran made consecutive (docs/order.md).
    PairTracker pairs(s_.tests, same_package);
    for (size_t r : detection) pairs.add(s_.runner.at(r).spec.tests);
    coverage_ = pairs.coverage();
    s_.candidates = new_candidates();
    util::logger("order")->info("order: {} runs of {} tests, {} candidates", s_.runner.runs(), s_.tests.size(),
                                s_.candidates.size());
    return {};
  }
  // Tests not yet followed whose runs so far hold both a pass and a failure, in input order;
  // each gets a finding detected in its shortest failing run. After detection these come from
  // the orders the technique ran itself (confirmation, minimisation, cleaner search).
  std::vector<std::string> new_candidates() {
    std::vector<std::string> out;
    auto obs = s_.runner.observations();
    for (const auto& t : s_.tests) {
      auto it = obs.find(t);
      if (it == obs.end() || s_.findings.count(t)) continue;
      bool passed = false, failed = false;
      for (const auto& o : it->second) {
        passed |= o.outcome == Outcome::pass;
        failed |= core::is_failure(o.outcome);
      }
      if (!passed || !failed) continue;
      if (!s_.options.only.empty() && std::find(s_.options.only.begin(), s_.options.only.end(), t) == s_.options.only.end())
        continue;  // a suspect of someone else's (suite isolates one test at a time)
      out.push_back(t);
      s_.findings[t].detected_in = s_.shortest(t, true)->run;
    }
    return out;
  }
  // Phase 2: rerun each distinct failing order; order-dependent only if it fails every time.
  // Runs of exactly that order made before (a test that failed alone in each of its runs
  // alone handed over by suite) count as its reruns: only the rest are made.
  // With `defer`, a candidate that passed every run alone is left to its minimal order
  // (OrderOptions::confirm_by_minimal_order).
  util::Result<void> confirm(const std::vector<std::string>& batch, bool defer = true) {
    if (batch.empty()) return {};
    std::map<size_t, std::vector<std::string>> by_run;  // failing run -> candidates
    for (const auto& t : batch) {
      if (defer && passed_every_run_alone(t)) {
        Finding& f = s_.findings[t];
        f.kind = Finding::Kind::order_dependent;
        f.confirmed_by_minimal_order = true;
        f.reason = "failed in " + s_.runner.at(f.detected_in).spec.purpose + ", to be confirmed by its minimal order";
        continue;
      }
      by_run[s_.findings[t].detected_in].push_back(t);
    }
    std::map<size_t, std::vector<size_t>> reruns_of;  // failing run -> the history's reruns of its order
    std::vector<core::RunSpec> specs;
    std::vector<size_t> source;
    for (const auto& [r, ts] : by_run) {
      // Only the tests up to the last candidate matter: later ones cannot change its outcome.
      const core::RunSpec& ran = s_.runner.at(r).spec;
      size_t last = 0;
      for (size_t i = 0; i < ran.tests.size(); ++i)
        if (std::find(ts.begin(), ts.end(), ran.tests[i]) != ts.end()) last = i;
      core::RunSpec again = ran;
      again.tests.resize(last + 1);
      std::erase_if(again.class_run_starts, [&](size_t s) { return s > last; });
      auto& reruns = reruns_of[r];
      if (!ran.shuffle && !ran.schedule && ran.classpath_prepend.empty())
        for (size_t h : s_.runner.runs_of(again.tests, again.class_run_starts, r)) {
          const auto& run = s_.runner.at(h);
          bool observed = std::all_of(ts.begin(), ts.end(), [&](const std::string& t) {
            return core::is_observation(run.report.outcome_at(position_of(ran, t)));
          });
          if (observed && reruns.size() < size_t(s_.options.confirm_reruns)) reruns.push_back(h);
        }
      for (int k = int(reruns.size()); k < s_.options.confirm_reruns; ++k) {
        core::RunSpec s = again;
        s.purpose = "confirm " + std::to_string(k + 1) + ": rerun of " + ran.purpose;
        specs.push_back(std::move(s));
        source.push_back(r);
      }
    }
    if (!specs.empty()) {
      auto made = s_.runner.run_all(specs);
      if (!made) return s_.note(made.error());
      for (size_t k = 0; k < made->size() && k < specs.size(); ++k) reruns_of[source[k]].push_back((*made)[k]);
    }
    for (const auto& t : batch) {
      Finding& f = s_.findings[t];
      if (f.confirmed_by_minimal_order) continue;
      size_t r = f.detected_in;
      size_t pos = position_of(s_.runner.at(r).spec, t);
      int fails = 0, reruns = 0;
      std::optional<size_t> passed_in;
      for (size_t h : reruns_of[r]) {
        ++reruns;
        auto o = s_.runner.at(h).report.outcome_at(pos);
        if (core::is_failure(o)) ++fails;
        if (o == Outcome::pass && !passed_in) passed_in = h;
      }
      if (passed_in) {
        f.kind = Finding::Kind::not_order_dependent;
        f.failing_run = r;
        f.passing_run = passed_in;
        f.reproducer = prefix_of(s_.runner.at(r), pos + 1);
        f.passing_order = f.reproducer;
        f.reason = "failed in " + s_.runner.at(r).spec.purpose + " and passed when the same order was rerun: "
                   "flaky, but not order-dependent";
      } else if (reruns == s_.options.confirm_reruns && fails == reruns) {
        f.kind = Finding::Kind::order_dependent;
        f.reason = "failed again in " + std::to_string(reruns) + " reruns of " + s_.runner.at(r).spec.purpose;
      } else {
        f.kind = Finding::Kind::unconfirmed;
        f.reason = "outcome changed between orders; the failing order could not be rerun (" +
                   (s_.stopped ? s_.stopped->message : std::string("infrastructure failure")) + ")";
      }
    }
    return {};
  }
  // With OrderOptions::confirm_by_minimal_order: whether `test` passed every one of at least
  // confirm_reruns + 1 runs alone among the runs so far (phase 3 then makes it a victim
  // without a run).
  bool passed_every_run_alone(const std::string& test) const {
    if (!s_.options.confirm_by_minimal_order) return false;
    size_t passed = 0;
    for (size_t r = 0; r < s_.runner.history().size(); ++r) {
      const auto& run = s_.runner.at(r);
      if (run.spec.tests.empty() || run.spec.tests[0] != test) continue;
      const auto o = run.report.outcome_at(0);
      if (core::is_failure(o)) return false;
      if (o == Outcome::pass) ++passed;
    }
    return passed >= size_t(s_.options.confirm_reruns) + 1;
  }
  // Phase 3: each order-dependent candidate alone in a fresh JVM, confirm_reruns + 1 times
  // (reusing runs where it was first), then victim (passes every time alone) or brittle
  // (fails every time alone). A test that both passes and fails alone is flaky, but its order
  // does not decide its outcome: no order-dependent category for it.
  util::Result<void> classify(const std::vector<std::string>& batch) {
    const size_t wanted = static_cast<size_t>(s_.options.confirm_reruns) + 1;
    std::map<std::string, std::vector<size_t>> alone;  // test -> history indices where it ran first
    std::vector<core::RunSpec> specs;
    std::vector<std::string> spec_test;
    for (const auto& t : batch) {
      if (s_.findings[t].kind != Finding::Kind::order_dependent) continue;
      auto& runs = alone[t];
      for (size_t r = 0; r < s_.runner.history().size() && runs.size() < wanted; ++r) {
        const auto& run = s_.runner.at(r);
        if (!run.spec.tests.empty() && run.spec.tests[0] == t && core::is_observation(run.report.outcome_at(0)))
          runs.push_back(r);
      }
      for (size_t k = runs.size(); k < wanted; ++k) {
        core::RunSpec s;
        s.tests = {t};
        s.purpose = "alone " + std::to_string(k + 1) + ": " + t;
        specs.push_back(std::move(s));
        spec_test.push_back(t);
      }
    }
    if (!specs.empty()) {
      auto made = s_.runner.run_all(specs);
      if (!made) {
        if (auto r = s_.note(made.error()); !r) return r;
      } else {
        for (size_t k = 0; k < made->size() && k < spec_test.size(); ++k)
          if (core::is_observation(s_.runner.at((*made)[k]).report.outcome_at(0))) alone[spec_test[k]].push_back((*made)[k]);
      }
    }
    for (const auto& t : batch) {
      Finding& f = s_.findings[t];
      if (f.kind != Finding::Kind::order_dependent) continue;
      const auto& runs = alone[t];
      std::optional<size_t> passed, failed;
      for (size_t r : runs) {
        auto o = s_.runner.at(r).report.outcome_at(0);
        if (o == Outcome::pass && !passed) passed = r;
        if (core::is_failure(o) && !failed) failed = r;
      }
      if (passed && failed) {
        f.kind = Finding::Kind::not_order_dependent;
        f.failing_run = failed;
        f.passing_run = passed;
        f.reproducer = {t};
        f.passing_order = {t};
        f.reason = "failed and passed when run alone: flaky, but not decided by the tests before it";
      } else if (runs.size() < wanted) {
        f.reason += "; it ran alone " + std::to_string(runs.size()) + " of " + std::to_string(wanted) + " times (" +
                    (s_.stopped ? s_.stopped->message : std::string("infrastructure failure")) + ")";
      } else if (passed) {
        f.kind = Finding::Kind::victim;
        f.passing_run = passed;
        f.passing_order = {t};
      } else {
        f.kind = Finding::Kind::brittle;
        f.failing_run = failed;
        f.reproducer = {t};
      }
    }
    return {};
  }
  // Phases 2 to 4 for one batch of candidates.
  util::Result<void> follow(const std::vector<std::string>& batch) {
    if (auto r = confirm(batch); !r) return r;
    if (auto r = classify(batch); !r) return r;
    for (const auto& test : batch) {
      Finding& f = s_.findings[test];
      const size_t said_before = f.reason.size();
      if (f.kind == Finding::Kind::victim || f.kind == Finding::Kind::brittle)
        if (auto r = Minimiser(s_).minimise(test, f); !r) return r;
      if (auto r = confirm_failing_order_after_all(test, f, said_before); !r) return r;
    }
    return {};
  }
  // A candidate whose minimal order was to confirm its failing order and did not (no polluter
  // named): its failing order is rerun now, as phase 2 would have, to tell order-dependent
  // from not. What the minimal order's reruns showed stays in the reason.
  // `said_before`: the length of its reason before minimisation.
  util::Result<void> confirm_failing_order_after_all(const std::string& test, Finding& f, size_t said_before) {
    if (!f.confirmed_by_minimal_order) return {};
    f.confirmed_by_minimal_order = false;
    if (f.kind == Finding::Kind::victim) return {};  // confirmed by its minimal order
    const std::string minimal_said = f.reason.substr(std::min(said_before, f.reason.size()));
    if (auto r = confirm({test}, false); !r) return r;
    if (f.kind == Finding::Kind::order_dependent) f.reason += minimal_said;
    return {};
  }
  const core::TechniqueInput& input_;
  OrderState s_;
  std::optional<PairCoverage> coverage_;  // of the detection orders that ran
};

}  // namespace

util::Result<std::vector<core::Verdict>> detect_order_dependent(const core::TechniqueInput& input, core::RunLog& log,
                                                                const OrderOptions& options) {
  OrderDetector detector(input, log, options);
  return detector.run();
}

core::TechniqueFn order_technique(OrderOptions options) {
  return [options](const core::TechniqueInput& input, core::RunLog& log) {
    return detect_order_dependent(input, log, options);
  };
}

}  // namespace flakescan::order
