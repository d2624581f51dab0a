#include "order/budgeted_runs.hpp"

#include <algorithm>
#include <utility>

#include "util/log.hpp"

namespace flakescan::order {

namespace {
constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t fnv_prime = 0x100000001b3ULL;

std::uint64_t mix(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * fnv_prime;
  return (h ^ 0x1f) * fnv_prime;  // separator: "ab","c" differs from "a","bc"
}

constexpr int max_continuations = 2;
}  // namespace

std::uint64_t sequence_hash(const std::vector<std::string>& tests, size_t count) {
  std::uint64_t h = fnv_offset;
  for (size_t i = 0; i < count && i < tests.size(); ++i) h = mix(h, tests[i]);
  return h;
}

BudgetedRuns::BudgetedRuns(core::RunLog& log, const core::Budget& budget, std::string technique)
    : log_(log), budget_(budget), technique_(std::move(technique)), started_(std::chrono::steady_clock::now()) {}

bool BudgetedRuns::unrun(const core::RecordedRun& run) {
  // The scan's own time budget hands back runs that never started: id 0, no results.
  if (run.id != 0 || !run.report.results.empty()) return false;
  scan_out_of_time_ = true;
  return true;
}

std::optional<util::Error> BudgetedRuns::exhausted() const {
  if (log_.cancelled()) return util::Error{util::Errc::cancelled, "scan cancelled"};
  if (scan_out_of_time_) return util::Error{util::Errc::timeout, "the scan's time budget is spent"};
  if (runs_made() >= budget_.max_runs)
    return util::Error{util::Errc::too_large, "run budget of " + std::to_string(budget_.max_runs) + " runs spent"};
  auto elapsed = std::chrono::steady_clock::now() - started_;
  if (elapsed >= std::chrono::seconds(budget_.max_seconds))
    return util::Error{util::Errc::timeout, "time budget of " + std::to_string(budget_.max_seconds) + " s spent"};
  return std::nullopt;
}

core::RunSpec BudgetedRuns::spec(std::vector<std::string> tests, std::string purpose, std::uint64_t seed) const {
  core::RunSpec s;
  s.tests = std::move(tests);
  s.technique = technique_;
  s.purpose = std::move(purpose);
  s.seed = seed;
  return s;
}

size_t BudgetedRuns::record(core::RecordedRun run) {
  size_t index = history_.size();
  std::uint64_t h = fnv_offset;
  const auto& starts = run.spec.class_run_starts;
  for (size_t i = 0; i < run.spec.tests.size(); ++i) {
    // A new run of a class is another prefix than the same ids in one run of it.
    if (std::find(starts.begin(), starts.end(), i) != starts.end()) h = mix(h, "|");
    h = mix(h, run.spec.tests[i]);
    auto outcome = run.report.outcome_at(i);
    // Only real observations go in the cache: an infra outcome says nothing about the test.
    if (core::is_observation(outcome)) by_prefix_[h] = Observation{index, i, outcome};
  }
  history_.push_back(std::move(run));
  return index;
}

size_t BudgetedRuns::adopt(core::RecordedRun run) {
  size_t index = record(std::move(run));
  if (index == adopted_) ++adopted_;  // only before the runner's own runs
  return index;
}

std::optional<size_t> BudgetedRuns::first_cut_short(const core::RecordedRun& run) const {
  for (size_t i = 0; i < run.spec.tests.size(); ++i)
    if (run.report.outcome_at(i) == core::Outcome::infra) return i;
  return std::nullopt;
}

util::Result<std::vector<size_t>> BudgetedRuns::run(std::vector<std::string> tests, std::string purpose,
                                              std::uint64_t seed, bool continue_after_crash) {
  return run(spec(std::move(tests), std::move(purpose), seed), continue_after_crash);
}

util::Result<std::vector<size_t>> BudgetedRuns::run(core::RunSpec current, bool continue_after_crash) {
  current.technique = technique_;
  std::vector<size_t> made;
  for (int attempt = 0;; ++attempt) {
    if (auto why = exhausted()) {
      if (made.empty()) return std::unexpected(*why);
      return made;
    }
    log_.plan(1);
    auto r = log_.run(current);
    if (!r) return std::unexpected(r.error());
    if (unrun(*r)) {
      if (made.empty()) return std::unexpected(exhausted().value_or(util::Error{util::Errc::timeout, "no run started"}));
      return made;
    }
    size_t index = record(std::move(*r));
    made.push_back(index);
    auto cut = first_cut_short(history_[index]);
    if (!continue_after_crash || !cut || attempt >= max_continuations) return made;
    const auto& ran = history_[index].spec.tests;
    if (*cut + 1 >= ran.size()) return made;
    util::logger("order")->info("run {} ended early at {} ({}); running it again without that test",
                                history_[index].id, ran[*cut], history_[index].report.infra_reason);
    current = without(history_[index].spec, *cut);
  }
}

core::RunSpec BudgetedRuns::without(const core::RunSpec& ran, size_t cut) {
  core::RunSpec out = ran;
  out.tests.erase(out.tests.begin() + static_cast<long>(cut));
  out.purpose = again_purpose(ran.purpose, ran.tests[cut]);
  // A class run that began at the cut entry now begins at the entry after it.
  out.class_run_starts.clear();
  for (size_t s : ran.class_run_starts) {
    size_t moved = s > cut ? s - 1 : s;
    if (moved > 0 && moved < out.tests.size() &&
        (out.class_run_starts.empty() || out.class_run_starts.back() != moved))
      out.class_run_starts.push_back(moved);
  }
  return out;
}

std::string BudgetedRuns::again_purpose(const std::string& purpose, const std::string& ended) {
  return purpose + " (again without " + ended + ", which ended the JVM)";
}

util::Result<std::vector<size_t>> BudgetedRuns::run_all(std::vector<core::RunSpec> specs) {
  if (specs.empty()) return std::vector<size_t>{};
  if (auto why = exhausted()) return std::unexpected(*why);
  size_t room = static_cast<size_t>(budget_.max_runs - runs_made());
  if (specs.size() > room) specs.resize(room);
  for (auto& s : specs) s.technique = technique_;
  log_.plan(static_cast<int>(specs.size()));
  auto r = log_.run_all(specs);
  if (!r) return std::unexpected(r.error());
  std::vector<size_t> made;
  for (auto& run : *r) {
    if (unrun(run)) break;  // the scan's time budget: later specs did not run either
    made.push_back(record(std::move(run)));
  }
  if (made.empty()) return std::unexpected(exhausted().value_or(util::Error{util::Errc::timeout, "no run started"}));
  // Continue runs cut short by a crash, one after another (rare, so not worth a batch).
  size_t batch = made.size();
  for (size_t k = 0; k < batch; ++k) {
    const auto& ran = history_[made[k]];
    auto cut = first_cut_short(ran);
    if (!cut || *cut + 1 >= ran.spec.tests.size()) continue;
    util::logger("order")->info("run {} ended early at {} ({}); running it again without that test", ran.id,
                                ran.spec.tests[*cut], ran.report.infra_reason);
    auto more = run(without(ran.spec, *cut));
    if (!more) {
      if (more.error().code == util::Errc::cancelled) return std::unexpected(more.error());
      break;  // budget spent: keep what ran
    }
    made.insert(made.end(), more->begin(), more->end());
  }
  return made;
}

util::Result<Observation> BudgetedRuns::outcome_after(const std::vector<std::string>& order, const std::string& purpose) {
  if (order.empty()) return util::fail(util::Errc::internal, "outcome_after needs a test");
  if (auto it = by_prefix_.find(sequence_hash(order, order.size())); it != by_prefix_.end()) {
    // Guard against hash collisions: the cached run must hold exactly this prefix.
    const auto& tests = history_[it->second.run].spec.tests;
    if (it->second.pos + 1 == order.size() && std::equal(order.begin(), order.end(), tests.begin())) return it->second;
  }
  auto made = run(order, purpose, 0, false);
  if (!made) return std::unexpected(made.error());
  size_t index = made->front();
  return Observation{index, order.size() - 1, history_[index].report.outcome_at(order.size() - 1)};
}

std::vector<size_t> BudgetedRuns::runs_of(const std::vector<std::string>& order, const std::vector<size_t>& starts,
                                          size_t except) const {
  std::vector<size_t> out;
  for (size_t r = 0; r < history_.size(); ++r) {
    const auto& spec = history_[r].spec;
    if (r == except || spec.shuffle || spec.schedule || !spec.classpath_prepend.empty() || spec.tests.size() < order.size() ||
        !std::equal(order.begin(), order.end(), spec.tests.begin()))
      continue;
    std::vector<size_t> within;
    for (size_t s : spec.class_run_starts)
      if (s < order.size()) within.push_back(s);
    if (within == starts) out.push_back(r);
  }
  return out;
}

std::unordered_map<std::string, std::vector<Observation>> BudgetedRuns::observations() const {
  std::unordered_map<std::string, std::vector<Observation>> out;
  for (size_t r = 0; r < history_.size(); ++r) {
    const auto& run = history_[r];
    for (size_t i = 0; i < run.spec.tests.size(); ++i)
      out[run.spec.tests[i]].push_back(Observation{r, i, run.report.outcome_at(i)});
  }
  return out;
}

}  // namespace flakescan::order
