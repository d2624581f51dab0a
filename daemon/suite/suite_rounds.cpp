#include "suite/suite_rounds.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "classfile/classpath.hpp"
#include "classfile/random_or_clock.hpp"
#include "classfile/static_writers.hpp"
#include "core/deciding.hpp"
#include "core/run_index.hpp"
#include "rerun/outcome_tally.hpp"
#include "rerun/rerun.hpp"
#include "shuffle/shuffle.hpp"
#include "suite/suite_isolation.hpp"
#include "suite/suite_plan.hpp"
#include "util/log.hpp"

namespace flakescan::suite {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double reserve_for_suspects = 0.3;
constexpr int isolated_reruns = 3;

struct Rounds {
  std::vector<core::RecordedRun> runs;  // every run of every round, continuations included
  std::vector<std::string> kinds;       // per round run
  int runs_made = 0;
  std::string thread_repeats;           // the repeats of RepeatedTests, as a sentence (or empty)
};

// Runs a batch of rounds at the same time, one JVM each; a run cut short by its JVM going
// down is continued with the tests that did not run, in a fresh JVM (up to three times).
util::Result<void> run_rounds(const std::vector<Round>& batch, core::RunLog& log, Rounds& out, const std::string& shuffle_mode = "full") {
  std::vector<core::RunSpec> specs;
  for (const auto& round : batch)
    for (size_t s = 0; s < round.shards.size(); ++s) {
      core::RunSpec spec;
      spec.tests = round.shards[s];
      spec.technique = "suite";
      spec.purpose = "suite round " + std::to_string(round.index + 1) + " (" + round.kind + ")" +
                     (round.shards.size() > 1 ? ", shard " + std::to_string(s + 1) + "/" + std::to_string(round.shards.size()) : "");
      spec.seed = round.seed;
      if (round.shuffled) spec.shuffle = core::ShuffleSpec{.seed = round.seed, .mode = shuffle_mode};
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

// Rounds on the shuffling JDK, after the order rounds, while the rounds' share of the budget
// lasts: each the original order under a seed of its own. A backend that cannot shuffle is
// said in `unavailable`, and the scan goes on without them.
void run_shuffled_rounds(const core::TechniqueInput& input, core::RunLog& log, int first_index, int jvms,
                         const std::function<bool()>& budget_left, Rounds& out, std::string& unavailable) {
  const auto seeds = shuffle::shuffle_seeds(input.seed ^ 0x5375697465ull, input.shuffle_rounds);  // "Suite"
  for (size_t r = 0; r < seeds.size() && budget_left();) {
    std::vector<Round> batch;
    for (size_t k = 0; k < size_t(jvms) && r + k < seeds.size(); ++k)
      batch.push_back(plan_shuffled_round(input.tests, first_index + int(r + k), seeds[r + k]));
    if (auto done = run_rounds(batch, log, out, input.shuffle_mode); !done) {
      if (done.error().code != util::Errc::cancelled) unavailable = done.error().message;
      return;
    }
    for (const auto& b : batch) out.kinds.push_back(b.kind);
    r += batch.size();
  }
}

// The tests that passed every order round and failed in a shuffled one are handed to
// technique `shuffle` (clean, the seeds of the rounds they failed in, confirmation, the site,
// a fix); its verdict joins theirs.
util::Result<void> shuffle_suspects(const core::TechniqueInput& input, core::RunLog& log, const Rounds& shuffled,
                                    std::vector<core::Verdict>& out) {
  std::map<std::string, std::vector<std::uint64_t>> failed_in;
  for (const auto& run : shuffled.runs)
    for (size_t i = 0; i < run.report.results.size(); ++i)
      if (core::is_failure(run.report.results[i].outcome)) {
        auto& seeds = failed_in[run.report.results[i].test];
        if (std::find(seeds.begin(), seeds.end(), run.spec.shuffle->seed) == seeds.end()) seeds.push_back(run.spec.shuffle->seed);
      }
  for (auto& v : out) {
    auto it = failed_in.find(v.test);
    if (it == failed_in.end() || v.verdict != core::VerdictKind::not_flaky) continue;
    core::TechniqueInput sub = input;
    sub.tests = {v.test};
    shuffle::ShuffleOptions options;
    options.seeds = it->second;
    options.bystanders = input.tests;  // a fix must leave the rest of the suite passing
    auto found = shuffle::detect_implementation_dependent(sub, log, options);
    if (!found) return std::unexpected(found.error());
    for (auto& f : *found) v = core::honest_verdict(core::merge_verdicts(v, f));
  }
  return {};
}

// What the bytecode of the classpath's class directories says of the tests (a build's
// classes/test and classes/main; jars are not read, and a class not found is not followed).
struct FromBytecode {
  std::set<std::string> writers;  // change static state (classfile/static_writers.hpp)
  std::set<std::string> chance;   // draw a random number or read the clock (classfile/random_or_clock.hpp)
};
FromBytecode read_bytecode(const core::TechniqueInput& input) {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  for (const auto& entry : input.classpath)
    if (std::filesystem::is_directory(entry, ec)) dirs.emplace_back(entry);
  if (dirs.empty()) return {};
  constexpr size_t kMostClasses = 5000;
  std::map<std::string, std::optional<classfile::ClassFile>> cache;
  auto lookup = [&](const std::string& name) -> const classfile::ClassFile* {
    auto it = cache.find(name);
    if (it == cache.end()) {
      if (cache.size() >= kMostClasses || name.starts_with("java/") || name.starts_with("[")) return nullptr;
      it = cache.emplace(name, std::nullopt).first;
      if (auto bytes = classfile::read_class_bytes(dirs, name))
        if (auto parsed = classfile::parse_class(*bytes)) it->second = std::move(*parsed);
    }
    return it->second ? &*it->second : nullptr;
  };
  return {classfile::static_writers(input.tests, lookup), classfile::random_or_clock_readers(input.tests, lookup)};
}

// The scan's budget as run_suite spends it: seconds since it started, against the total.
struct Spending {
  Clock::time_point started;
  BudgetLeft total;
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - started).count(); }
};

// The tests that repeat in the rounds (suite_plan.hpp, thread_repeats): those that created
// threads in the rounds so far, and those whose bytecode draws a random number or reads the
// clock (`chance`), once a round has run them; what one execution of each and one round took.
class RepeatedTests {
 public:
  explicit RepeatedTests(const std::set<std::string>& chance) : chance_(chance) {}
  void learn(const std::vector<core::RecordedRun>& round) {
    double round_ms = 0;
    for (const auto& run : round)
      for (const auto& result : run.report.results) {
        round_ms += result.duration_ms;
        if (result.threads_created > 0) repeated_[result.test].threads = true;
        else if (chance_.contains(result.test)) repeated_.try_emplace(result.test);
        if (auto it = repeated_.find(result.test); it != repeated_.end()) {
          it->second.ms += result.duration_ms;
          ++it->second.executions;
        }
      }
    if (!round_ms_) round_ms_ = round_ms;  // the first round, whose tests ran once (or twice)
  }
  ThreadRepeats repeats() const {
    std::map<std::string, double> ms;
    for (const auto& [test, seen] : repeated_) ms[test] = seen.ms / std::max(1, seen.executions);
    ThreadRepeats out = thread_repeats(ms, round_ms_.value_or(0), kRepeats, kRepeatsShare);
    const size_t threads = threads_among(out.tests);
    out.why = threads == out.tests.size() ? "that created threads"
              : threads == 0              ? "that draw a random number or read the clock"
                                          : "that created threads or draw a random number or read the clock";
    return out;
  }
  // Of `tests` (repeated), those that created threads.
  size_t threads_among(const std::set<std::string>& tests) const {
    return size_t(std::count_if(tests.begin(), tests.end(), [&](const std::string& t) {
      auto it = repeated_.find(t);
      return it != repeated_.end() && it->second.threads;
    }));
  }

 private:
  static constexpr int kRepeats = 5;
  static constexpr double kRepeatsShare = 0.1;
  struct Seen {
    bool threads = false;  // else it draws a random number or reads the clock
    double ms = 0;
    int executions = 0;
  };
  const std::set<std::string>& chance_;
  std::map<std::string, Seen> repeated_;
  std::optional<double> round_ms_;
};

// The sentence of the verdicts' reasons on the repeats: `threads` tests that created threads and
// `chance` that draw a random number or read the clock ran up to `times` times in a row.
std::string repeats_sentence(size_t threads, size_t chance, int times) {
  auto tests = [](size_t n) { return std::to_string(n) + (n == 1 ? " test" : " tests"); };
  std::string who;
  if (threads > 0) who = "the " + tests(threads) + " that created threads";
  if (chance > 0)
    who += (who.empty() ? "the " + tests(chance) : " and the " + std::to_string(chance)) +
           (chance == 1 ? " that draws a random number or reads the clock" : " that draw a random number or read the clock");
  const std::string which = chance == 0 ? "the one that showed " : threads == 0 ? "the first that ran " : "the one that showed or ran ";
  return who + " ran up to " + std::to_string(times) + " times in a row in the rounds after " + which +
         (threads + chance == 1 ? "it" : "them");
}

// 1. Rounds: `parallelism` rounds at a time, each in one JVM, so every round keeps its whole
// order (a shard boundary would part the tests whose order matters). A lane starts the next
// round as soon as its own ends: the round that runs each test twice takes about twice as
// long as the one beside it, and a batch that waited for both left a core idle meanwhile.
// After each round the budget says how many rounds fit. The rounds' runs are kept in the
// order of the rounds (whichever lane finished first), so that a suspect's isolation starts
// from the same round for the same seed. The kinds of the rounds run; an error only when the
// scan was cancelled.
util::Result<std::vector<std::string>> run_order_rounds(const core::TechniqueInput& input, core::RunLog& runs, int wanted,
                                                        int jvms, const Spending& budget, const FromBytecode& bytecode,
                                                        Rounds& rounds) {
  std::mutex mutex;  // everything below, shared by the lanes
  RepeatedTests repeated(bytecode.chance);
  size_t most_threads = 0, most_chance = 0;  // the most tests repeated in one round, of each kind, and the most times
  int most_times = 1;
  std::vector<Rounds> by_round(static_cast<size_t>(wanted));
  std::vector<std::string> kind_of(static_cast<size_t>(wanted));
  int planned = wanted, finished = 0, runs_made = 0;
  bool ended = false;  // the scan's own budget ended: what ran stays
  std::optional<util::Error> cancelled;
  const std::vector<Round> plan = plan_rounds(input.tests, wanted, input.seed, 1, bytecode.writers);
  core::in_lanes(size_t(wanted), jvms, [&](size_t r) {
    {
      std::lock_guard lock(mutex);
      if (cancelled || ended || int(r) >= planned) return false;
    }
    if (runs.cancelled()) {
      std::lock_guard lock(mutex);
      cancelled = util::Error{util::Errc::cancelled, "scan cancelled"};
      return false;
    }
    Round round;
    {
      std::lock_guard lock(mutex);
      const ThreadRepeats repeats = repeated.repeats();
      round = with_thread_repeats(plan[r], repeats);
      if (repeats.times > 1) {
        const size_t threads = repeated.threads_among(repeats.tests);
        most_threads = std::max(most_threads, threads);
        most_chance = std::max(most_chance, repeats.tests.size() - threads);
        most_times = std::max(most_times, repeats.times);
      }
    }
    Rounds mine;
    auto done = run_rounds({round}, runs, mine);
    std::lock_guard lock(mutex);
    repeated.learn(mine.runs);
    runs_made += mine.runs_made;
    by_round[r] = std::move(mine);
    if (!done) {
      if (done.error().code == util::Errc::cancelled) cancelled = done.error();
      ended = true;
      return false;
    }
    kind_of[r] = plan[r].kind;
    ++finished;
    const double per_round = budget.elapsed() / finished;
    const int runs_per_round = std::max(1, runs_made / finished);
    planned = rounds_that_fit(wanted, finished, per_round, runs_per_round, budget.total, {budget.elapsed(), runs_made},
                              reserve_for_suspects);
    return true;
  });
  if (most_threads + most_chance > 0) rounds.thread_repeats = repeats_sentence(most_threads, most_chance, most_times);
  std::vector<std::string> kinds;
  for (size_t r = 0; r < by_round.size(); ++r) {
    rounds.runs_made += by_round[r].runs_made;
    for (auto& run : by_round[r].runs) rounds.runs.push_back(std::move(run));
    if (!kind_of[r].empty()) kinds.push_back(kind_of[r]);
  }
  if (cancelled) return std::unexpected(*cancelled);
  return kinds;
}

// What the rounds were, for the verdicts' details and reasons.
struct RoundsRun {
  int wanted = 0;
  int rounds_run = 0;
  std::string orders;               // the kinds of the rounds, as a sentence
  size_t shuffled_rounds = 0;
  std::string shuffle_unavailable;  // why no round ran on the shuffling JDK, if one could not
};

// 3. Verdicts from the rounds for the tests that never differed. The places in the result of
// the tests whose outcome differed (the suspects) go to `suspects`.
std::vector<core::Verdict> round_verdicts(const core::TechniqueInput& input, const rerun::OutcomeTally& tally,
                                          const RoundsRun& r, std::vector<size_t>& suspects) {
  std::vector<core::Verdict> out;
  for (const auto& test : input.tests) {
    core::Verdict v = rerun::verdict_from_tally(test, tally.find(test), "suite");
    v.evidence.details["rounds"] = std::to_string(r.rounds_run);
    v.evidence.details["rounds_wanted"] = std::to_string(r.wanted);
    if (input.shuffle_rounds > 0) {
      v.evidence.details["shuffled_rounds"] = std::to_string(r.shuffled_rounds);
      if (!r.shuffle_unavailable.empty()) v.evidence.details["shuffled_rounds_unavailable"] = r.shuffle_unavailable;
    }
    if (v.verdict == core::VerdictKind::not_flaky)
      v.evidence.reason = "passed all " + std::to_string(v.runs.passed) + " runs in " + std::to_string(r.rounds_run) +
                          " suite rounds, each in another order (" + r.orders + ")";
    if (v.verdict == core::VerdictKind::flaky) {
      v.evidence.reason = "its outcome differed between suite rounds (" + v.evidence.reason + ")";
      suspects.push_back(out.size());
    } else if (r.rounds_run < r.wanted) {
      v.evidence.details["unscanned"] = std::to_string(r.wanted - r.rounds_run) + " rounds (budget)";
    }
    out.push_back(std::move(v));
  }
  return out;
}

// 2. The suspects, isolated `jvms` at a time: one lane per suspect being isolated, in the
// order of the selection while the budget lasts; the lanes share the JVMs (JvmSlots), so a
// lane uses those of a lane that has no suspect left. Their
// verdicts in `out` become those of the isolation; the runs each lane kept, per suspect.
util::Result<std::vector<std::vector<core::RecordedRun>>> isolate_suspects(
    const core::TechniqueInput& input, core::RunLog& runs, int jvms, const Spending& budget, std::atomic<int>& made,
    const std::map<std::string, std::vector<Seen>>& seen, const std::vector<size_t>& suspects, const std::set<std::string>& writers,
    std::vector<core::Verdict>& out) {
  const BudgetLeft& total = budget.total;
  std::vector<std::vector<core::RecordedRun>> kept(suspects.size());
  std::mutex error_mutex;
  std::optional<util::Error> stop;
  KnownPolluters known;
  JvmSlots slots(jvms);
  const int lanes = std::max(1, std::min(jvms, int(suspects.size())));
  core::in_lanes(suspects.size(), lanes, [&](size_t k) {
    core::Verdict& v = out[suspects[k]];
    {
      std::lock_guard lock(error_mutex);
      if (stop) return false;
    }
    if (budget.elapsed() >= total.seconds || made >= total.runs || runs.cancelled()) {
      v.evidence.reason += "; the budget ended before its isolated runs";
      v.evidence.details["unscanned"] = "isolation";
      return true;
    }
    Lane lane(runs, slots, made, total.runs);
    core::TechniqueInput sub = input;
    sub.budget.max_seconds = std::max(1, int(total.seconds - budget.elapsed()));
    sub.budget.max_runs = std::max(1, total.runs - made.load());
    sub.budget.runs_per_test = isolated_reruns;
    sub.fresh_jvm_per_run = true;
    sub.tests = {v.test};
    ++slots.isolating;
    auto isolated = isolate({v.test, v, seen.at(v.test)}, sub, lane, known, writers);
    --slots.isolating;
    kept[k] = lane.take_kept();
    if (!isolated) {
      std::lock_guard lock(error_mutex);
      if (!stop) stop = isolated.error();
      return false;
    }
    v = std::move(*isolated);
    return true;
  });
  if (stop) return std::unexpected(*stop);
  return kept;
}

// 2b. Tests whose outcome never differed between rounds but did in a run of another suspect's
// isolation (a victim run as a candidate cleaner right after a polluter, a test that failed
// in the prefix of another's order): core::check_other_runs makes their round verdict
// `flaky`, naming that run, and they are isolated like suspects, those runs among their
// observations. Again while isolations turn up new ones; the budget checks of
// isolate_suspects end it. Their places in `out` are added to `suspects`, the runs to `iso`.
util::Result<void> isolate_later_suspects(const core::TechniqueInput& input, core::RunLog& runs, int jvms, const Spending& budget,
                                          std::atomic<int>& made, const std::map<std::string, std::vector<Seen>>& seen,
                                          const std::set<std::string>& writers, std::vector<size_t>& suspects,
                                          std::vector<core::RecordedRun>& iso, std::vector<core::Verdict>& out) {
  std::vector<bool> is_suspect(out.size(), false);
  for (size_t k : suspects) is_suspect[k] = true;
  for (;;) {
    std::vector<size_t> fresh;
    std::map<std::string, std::vector<Seen>> fresh_seen;  // points into `iso`, which stays as it is until they are done
    {
      const core::RunIndex index(iso);
      for (size_t i = 0; i < out.size(); ++i) {
        if (is_suspect[i] || out[i].evidence.details.contains("unscanned")) continue;
        auto checked = core::check_other_runs(out[i], index);
        if (checked.verdict != core::VerdictKind::flaky) continue;
        checked.evidence.reason = "its outcome never differed between suite rounds, but did in another suspect's isolation (" +
                                  checked.evidence.reason + ")";
        out[i] = std::move(checked);
        is_suspect[i] = true;
        fresh.push_back(i);
        auto& s = fresh_seen[out[i].test];
        if (auto it = seen.find(out[i].test); it != seen.end()) s = it->second;
        for (const auto& place : index.places(out[i].test)) s.push_back({place.run, place.pos, place.outcome()});
      }
    }
    if (fresh.empty()) return {};
    auto kept = isolate_suspects(input, runs, jvms, budget, made, fresh_seen, fresh, writers, out);
    if (!kept) return std::unexpected(kept.error());
    suspects.insert(suspects.end(), fresh.begin(), fresh.end());
    for (auto& k : *kept) iso.insert(iso.end(), std::make_move_iterator(k.begin()), std::make_move_iterator(k.end()));
  }
}

// Every finding of every suspect checked against every run of the scan's rounds and
// isolations (core/deciding.hpp), once all of them are known.
void check_suspects(std::vector<core::Verdict>& out, const std::vector<size_t>& suspects,
                    const std::vector<core::RecordedRun>& all, bool spent) {
  for (size_t k : suspects) {
    core::Verdict& v = out[k];
    if (v.evidence.details.contains("unscanned")) continue;
    v = core::honest_verdict(core::check_deciding(std::move(v), all));
    if (spent && v.category == core::Category::unknown) {
      v.evidence.details["unscanned"] = "isolation cut short by the budget";
      v.evidence.reason += "; the budget ended during its isolated runs";
    }
  }
}

}  // namespace

util::Result<std::vector<core::Verdict>> run_suite(const core::TechniqueInput& input, core::RunLog& runs) {
  const Spending budget{Clock::now(), {double(input.budget.max_seconds), input.budget.max_runs}};
  const BudgetLeft& total = budget.total;
  const int wanted = std::max(1, input.budget.runs_per_test);
  const int jvms = std::max(1, runs.parallelism());

  // Round 7 puts the writers last in their class; minimising a suspect's order tries them
  // first. The tests that draw a random number or read the clock repeat in the rounds.
  const FromBytecode bytecode = read_bytecode(input);
  util::logger("suite")->info("suite: of {} tests, {} change static state and {} draw a random number or read the clock (bytecode)",
                              input.tests.size(), bytecode.writers.size(), bytecode.chance.size());
  const auto& writers = bytecode.writers;
  Rounds rounds;
  auto kinds = run_order_rounds(input, runs, wanted, jvms, budget, bytecode, rounds);
  if (!kinds) return std::unexpected(kinds.error());
  Rounds shuffled;
  RoundsRun summary{.wanted = wanted, .rounds_run = int(kinds->size())};
  if (input.shuffle_rounds > 0)
    run_shuffled_rounds(input, runs, int(kinds->size()), jvms,
                        [&] { return budget.elapsed() < total.seconds * (1 - reserve_for_suspects) && rounds.runs_made + shuffled.runs_made < total.runs; },
                        shuffled, summary.shuffle_unavailable);
  summary.shuffled_rounds = shuffled.kinds.size();
  for (const auto& k : *kinds) summary.orders += (summary.orders.empty() ? "" : ", ") + k;
  if (!shuffled.kinds.empty()) summary.orders += ", and " + std::to_string(shuffled.kinds.size()) + " on the shuffling JDK";
  if (!rounds.thread_repeats.empty()) summary.orders += "; " + rounds.thread_repeats;

  rerun::OutcomeTally tally;
  std::map<std::string, std::vector<Seen>> seen;
  for (const auto& run : rounds.runs) {
    tally.add(run);
    for (size_t i = 0; i < run.spec.tests.size(); ++i)
      seen[run.spec.tests[i]].push_back({&run, i, run.report.outcome_at(i)});
  }
  std::vector<size_t> suspects;  // their places in `out`
  std::vector<core::Verdict> out = round_verdicts(input, tally, summary, suspects);

  std::atomic<int> made{rounds.runs_made + shuffled.runs_made};
  auto kept = isolate_suspects(input, runs, jvms, budget, made, seen, suspects, writers, out);
  if (!kept) return std::unexpected(kept.error());
  std::vector<core::RecordedRun> iso;  // every isolated run
  for (auto& k : *kept) iso.insert(iso.end(), std::make_move_iterator(k.begin()), std::make_move_iterator(k.end()));
  if (auto later = isolate_later_suspects(input, runs, jvms, budget, made, seen, writers, suspects, iso, out); !later)
    return std::unexpected(later.error());

  // Suspects of the shuffled rounds: passed every order round, failed on the shuffling JDK.
  if (auto done = shuffle_suspects(input, runs, shuffled, out); !done) return std::unexpected(done.error());

  std::vector<core::RecordedRun> all = std::move(rounds.runs);
  all.insert(all.end(), std::make_move_iterator(iso.begin()), std::make_move_iterator(iso.end()));
  const bool spent = budget.elapsed() >= total.seconds || made >= total.runs;
  check_suspects(out, suspects, all, spent);
  return out;
}

}  // namespace flakescan::suite
