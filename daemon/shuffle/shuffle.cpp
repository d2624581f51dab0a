#include "shuffle/shuffle.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <set>

#include "core/run_seeds.hpp"
#include "rerun/outcome_tally.hpp"
#include "shuffle/site_location.hpp"
#include "shuffle/fix_search.hpp"

namespace flakescan::shuffle {

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

core::RunSpec clean_spec(const std::string& test, const std::string& why, std::uint64_t seed) {
  core::RunSpec s;
  s.tests = {test};
  s.technique = "shuffle";
  s.purpose = "shuffle: " + why + " of " + test + " on the plain JDK";
  s.seed = seed;
  return s;
}

core::RunSpec seeded_spec(const std::string& test, const std::string& why, std::uint64_t seed, const std::string& mode) {
  core::RunSpec s;
  s.tests = {test};
  s.technique = "shuffle";
  s.purpose = "shuffle: " + why + " of " + test + ", seed " + std::to_string(seed) + " (" + mode + ")";
  s.seed = seed;
  s.shuffle = core::ShuffleSpec{.seed = seed, .mode = mode};
  return s;
}

bool failed(const core::RecordedRun& run) { return core::is_failure(run.report.outcome_at(0)); }
bool passed(const core::RecordedRun& run) { return run.report.outcome_at(0) == core::Outcome::pass; }
bool made(const core::RecordedRun& run) { return run.id != 0 || !run.report.results.empty(); }

// The sites a run permuted while the test ran.
std::vector<core::ShuffledSite> permuted(const core::RecordedRun& run) {
  std::vector<core::ShuffledSite> out;
  if (run.report.results.empty()) return out;
  for (const auto& s : run.report.results[0].shuffled)
    if (s.shuffled > 0) out.push_back(s);
  return out;
}

// What one test went through; filled in the order of the steps.
struct Subject {
  std::string test;
  std::deque<core::RecordedRun> runs;      // every run of it this technique made (not the fix checks)
  const core::RecordedRun* clean = nullptr;
  std::vector<const core::RecordedRun*> seeded;
  std::vector<std::uint64_t> failing_seeds;
  const core::RecordedRun* failing = nullptr;  // the first failing seeded run
  bool confirmed = false;
  std::string not_confirmed;                   // why a failure under a seed is not called ID
  std::optional<Located> located;
  std::string locate_error;
  std::optional<FixResult> fix;
  std::set<std::string> sites_seen;
};

class Shuffler {
 public:
  Shuffler(const core::TechniqueInput& input, core::RunLog& log, const ShuffleOptions& options)
      : input_(input),
        log_(log),
        options_(options),
        seeds_(options.seeds.empty() ? shuffle_seeds(input.seed, std::max(1, input.shuffle_seeds)) : options.seeds) {}

  util::Result<std::vector<core::Verdict>> run() {
    for (const auto& t : input_.tests) subjects_.push_back(Subject{.test = t});
    if (auto r = clean_runs(); !r) return std::unexpected(r.error());
    if (auto r = seeded_runs(); !r) return std::unexpected(r.error());
    if (!unavailable_.empty()) return verdicts();
    if (auto r = confirm(); !r) return std::unexpected(r.error());
    explain();
    return verdicts();
  }

 private:
  // Runs `specs` (one per subject in `who`) and files each run under its subject; the runs it
  // returns stay where they are (a deque does not move its elements when it grows).
  util::Result<std::vector<const core::RecordedRun*>> run_for(const std::vector<Subject*>& who, const std::vector<core::RunSpec>& specs) {
    log_.plan(int(specs.size()));
    auto done = log_.run_all(specs);
    if (!done) return std::unexpected(done.error());
    std::vector<const core::RecordedRun*> out;
    for (size_t i = 0; i < done->size(); ++i) {
      who[i]->runs.push_back(std::move((*done)[i]));
      out.push_back(&who[i]->runs.back());
    }
    return out;
  }

  util::Result<void> clean_runs() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    for (auto& s : subjects_) {
      who.push_back(&s);
      specs.push_back(clean_spec(s.test, "clean run", input_.seed));
    }
    auto done = run_for(who, specs);
    if (!done) return std::unexpected(done.error());
    for (size_t i = 0; i < who.size(); ++i) who[i]->clean = (*done)[i];
    return {};
  }

  util::Result<void> seeded_runs() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    for (auto& s : subjects_) {
      if (!s.clean || !passed(*s.clean)) continue;  // a test that fails clean is not ID: not shuffled
      for (size_t i = 0; i < seeds_.size(); ++i) {
        who.push_back(&s);
        specs.push_back(seeded_spec(s.test, "seed " + std::to_string(i + 1) + "/" + std::to_string(seeds_.size()), seeds_[i],
                                    input_.shuffle_mode));
      }
    }
    if (specs.empty()) return {};
    // The first run finds out whether this backend can shuffle at all (the shuffling JDK is
    // prepared then, once per machine): without it, no run of the batch could be made.
    auto first = log_.run(specs.front());
    if (!first) {
      if (first.error().code == util::Errc::cancelled) return std::unexpected(first.error());
      unavailable_ = first.error().message;
      return {};
    }
    who.front()->runs.push_back(std::move(*first));
    who.erase(who.begin());
    specs.erase(specs.begin());
    auto done = run_for(who, specs);
    if (!done) return std::unexpected(done.error());
    for (auto& s : subjects_)
      for (const auto& r : s.runs)
        if (r.spec.shuffle) s.seeded.push_back(&r);
    return {};
  }

  // A failure under a seed is ID only when it comes back under that seed and the test passes
  // clean again: a test that fails at random would fail under some seed too.
  util::Result<void> confirm() {
    std::vector<Subject*> who;
    std::vector<core::RunSpec> specs;
    for (auto& s : subjects_) {
      for (const auto* r : s.seeded) {
        for (const auto& site : r->report.results.empty() ? std::vector<core::ShuffledSite>{} : r->report.results[0].shuffled)
          s.sites_seen.insert(site.key);
        if (!failed(*r)) continue;
        s.failing_seeds.push_back(r->spec.shuffle->seed);
        if (!s.failing) s.failing = r;
      }
      if (!s.failing) continue;
      if (permuted(*s.failing).empty()) {
        s.not_confirmed = "it failed under seed " + std::to_string(s.failing->spec.shuffle->seed) + " (run " +
                          std::to_string(s.failing->id) + "), but that run permuted no order: the shuffle cannot have caused it";
        continue;
      }
      who.push_back(&s);
      specs.push_back(seeded_spec(s.test, "confirm the failure", s.failing->spec.shuffle->seed, s.failing->spec.shuffle->mode));
      who.push_back(&s);
      specs.push_back(clean_spec(s.test, "confirm the clean pass", input_.seed));
    }
    if (specs.empty()) return {};
    auto done = run_for(who, specs);
    if (!done) return std::unexpected(done.error());
    for (size_t i = 0; i + 1 < who.size(); i += 2) {
      Subject& s = *who[i];
      const auto& again = *(*done)[i];
      const auto& clean = *(*done)[i + 1];
      if (!failed(again))
        s.not_confirmed = "it failed under seed " + std::to_string(s.failing->spec.shuffle->seed) + " in run " +
                          std::to_string(s.failing->id) + " but passed under the same seed in run " + std::to_string(again.id);
      else if (!passed(clean))
        s.not_confirmed = "it failed under a seed, and also on the plain JDK in run " + std::to_string(clean.id);
      else
        s.confirmed = true;
    }
    return {};
  }

  // Locate and fix the confirmed ones, a lane per core.
  void explain() {
    std::vector<Subject*> todo;
    for (auto& s : subjects_)
      if (s.confirmed) todo.push_back(&s);
    core::in_lanes(todo.size(), log_.parallelism(), [&](size_t i) {
      explain_one(*todo[i]);
      return true;
    });
  }

  void explain_one(Subject& s) {
    if (!options_.locate || log_.cancelled()) return;
    auto located = locate_sites(s.test, *s.failing->spec.shuffle, permuted(*s.failing), log_, options_.max_locate_runs);
    if (!located) {
      s.locate_error = located.error().message;
      return;
    }
    s.located = std::move(*located);
    if (!options_.fix || log_.cancelled()) return;
    FixSearch search(input_, log_, options_.max_fixes_tried);
    std::vector<std::uint64_t> fresh = shuffle_seeds(core::mix64(input_.seed) ^ 0x5eed5eedull, 2);
    s.fix = search.find(s.test, *s.located, s.failing_seeds, fresh, input_.shuffle_mode, bystanders_of(s));
  }

  // The tests a fix of `s` must leave passing: the others that passed their clean run.
  std::vector<std::string> bystanders_of(const Subject& s) const {
    std::vector<std::string> out;
    for (const auto& t : options_.bystanders)
      if (t != s.test) out.push_back(t);
    if (!options_.bystanders.empty()) return out;
    for (const auto& other : subjects_)
      if (other.test != s.test && other.clean && passed(*other.clean)) out.push_back(other.test);
    return out;
  }

  core::Verdict verdict_of(const Subject& s) const {
    rerun::OutcomeTally tally;
    for (const auto& r : s.runs) tally.add(r);
    core::Verdict v = rerun::verdict_from_tally(s.test, tally.find(s.test), "shuffle");
    auto& d = v.evidence.details;
    d["mode"] = input_.shuffle_mode;
    std::vector<std::string> tried;
    for (auto seed : seeds_) tried.push_back(std::to_string(seed));
    d["seeds"] = join(tried, ",");
    if (!s.clean || !made(*s.clean)) return v;
    if (!passed(*s.clean)) {
      if (v.verdict != core::VerdictKind::could_not_run)
        v.evidence.reason = "it did not pass its clean run on the plain JDK (run " + std::to_string(s.clean->id) +
                            "), so it is not implementation-dependent; it was not shuffled";
      d.erase("seeds");
      return v;
    }
    if (!unavailable_.empty()) {
      v.verdict = core::VerdictKind::could_not_run;
      v.category = core::Category::none;
      v.evidence.reason = "passed its clean run, but no shuffled run could be made: " + unavailable_;
      return v;
    }
    d["sites_seen"] = std::to_string(s.sites_seen.size());
    if (!s.seeded.empty() && !s.seeded.front()->report.runtime.empty()) d["shuffle_jdk"] = s.seeded.front()->report.runtime;
    if (!s.failing) {
      if (v.verdict == core::VerdictKind::not_flaky)
        v.evidence.reason = "passed on the plain JDK and under " + std::to_string(s.seeded.size()) + " seeds (mode " +
                            input_.shuffle_mode + "); " +
                            (s.sites_seen.empty() ? std::string("no unspecified order was read from outside the JDK and the test runner")
                                                  : std::to_string(s.sites_seen.size()) + " call site(s) with an unspecified order were shuffled");
      return v;
    }
    std::vector<std::string> failing;
    for (auto seed : s.failing_seeds) failing.push_back(std::to_string(seed));
    d["failing_seeds"] = join(failing, ",");
    d["seed"] = std::to_string(s.failing->spec.shuffle->seed);
    v.evidence.failing_run = s.failing->id;
    v.evidence.passing_run = s.clean->id;
    v.evidence.reproducer = {s.test};
    if (!s.confirmed) {
      v.evidence.reason = (s.not_confirmed.empty() ? std::string("failed under a seed") : s.not_confirmed) +
                          ": not called implementation-dependent";
      return v;
    }
    v.verdict = core::VerdictKind::flaky;
    v.category = core::Category::implementation_dependent;
    describe_sites(s, v);
    return v;
  }

  void describe_sites(const Subject& s, core::Verdict& v) const {
    auto& d = v.evidence.details;
    const std::string seed = d["seed"];
    std::string where;
    if (s.located && !s.located->sites.empty()) {
      const auto& first = s.located->sites.front();
      d["api"] = first.api;
      d["site"] = first.key;
      d["site_frame"] = first.frames.empty() ? "" : first.frames.front();
      d["via"] = join(first.via, " <- ");
      d["frames"] = join(first.frames, "\n");
      d["locate_runs"] = std::to_string(s.located->runs);
      if (s.located->run) d["located_by_run"] = std::to_string(s.located->run);
      auto user = find_user_frame(first);
      if (user) d["user_frame"] = user->text;
      where = first.api + " at " + (user ? user->text : d["site_frame"]);
      if (s.located->sites.size() == 1) {
        d["located"] = s.located->runs == 0 ? "one site: the only one the failing run permuted"
                       : s.located->complete ? "one site"
                                             : "one site (the search stopped early: " + s.located->stopped + ")";
      } else {
        std::vector<std::string> keys;
        for (const auto& site : s.located->sites) keys.push_back(site.key);
        d["located"] = std::to_string(s.located->sites.size()) + " sites together: " + join(keys, "; ");
        where += " together with " + std::to_string(s.located->sites.size() - 1) + " more site(s)";
      }
    } else {
      d["located"] = "not located: " + (s.locate_error.empty() ? std::string("the search was not run") : s.locate_error);
    }
    v.evidence.reason = "passes on the plain JDK and fails when an unspecified order comes out otherwise (seed " + seed +
                        ", mode " + input_.shuffle_mode + ")" + (where.empty() ? "" : ": " + where);
    if (!s.fix) return;
    if (s.fix->verified) {
      d["fix"] = s.fix->description;
      d["fix_kind"] = s.fix->kind;
      d["patch"] = s.fix->diff;
      d["patch_file"] = s.fix->path;
      d["verified_by_run"] = std::to_string(s.fix->verified_by_run);
    } else {
      d["fix_refused"] = s.fix->why_not;
    }
  }

  std::optional<UserFrame> find_user_frame(const core::ShuffledSite& site) const {
    FixSearch search(input_, log_, 0);
    return search.user_frame_of(site);
  }

  std::vector<core::Verdict> verdicts() const {
    std::vector<core::Verdict> out;
    for (const auto& s : subjects_) out.push_back(verdict_of(s));
    return out;
  }

  const core::TechniqueInput& input_;
  core::RunLog& log_;
  ShuffleOptions options_;
  std::vector<std::uint64_t> seeds_;
  std::vector<Subject> subjects_;
  std::string unavailable_;  // why no shuffled run could be made
};

}  // namespace

std::vector<std::uint64_t> shuffle_seeds(std::uint64_t scan_seed, int n) { return core::run_seeds(scan_seed, n); }

util::Result<std::vector<core::Verdict>> detect_implementation_dependent(const core::TechniqueInput& input, core::RunLog& log,
                                                                         const ShuffleOptions& options) {
  Shuffler shuffler(input, log, options);
  return shuffler.run();
}

core::TechniqueFn shuffle_technique(ShuffleOptions options) {
  return [options](const core::TechniqueInput& input, core::RunLog& log) { return detect_implementation_dependent(input, log, options); };
}

util::Result<core::RecordedRun> replay_shuffle(const std::string& test, const std::map<std::string, std::string>& details,
                                               core::RunLog& runs) {
  auto seed = details.find("seed");
  if (seed == details.end()) return util::fail(util::Errc::conflict, "the verdict for " + test + " names no failing seed");
  std::uint64_t value = 0;
  try {
    value = std::stoull(seed->second);
  } catch (const std::exception&) {
    return util::fail(util::Errc::conflict, "the verdict's seed is not a number: " + seed->second);
  }
  auto mode = details.find("mode");
  auto spec = seeded_spec(test, "replay", value, mode == details.end() ? "full" : mode->second);
  spec.technique = "replay";
  return runs.run(spec);
}

}  // namespace flakescan::shuffle
