#include "threads/conflict.hpp"

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "threads/schedule_record.hpp"

namespace flakescan::threads {

namespace {

using Key = std::tuple<int, std::string, std::string, std::string>;  // thread, op, target, site

Key key_of(const core::ScheduleStep& s) { return {s.thread, s.op, s.target, s.site}; }

// Each listed step's occurrence number among the steps like it (same key) before it.
std::vector<std::size_t> occurrences(const std::vector<core::ScheduleStep>& steps) {
  std::map<Key, std::size_t> seen;
  std::vector<std::size_t> out;
  out.reserve(steps.size());
  for (const auto& s : steps) out.push_back(seen[key_of(s)]++);
  return out;
}

// Where each (key, occurrence) stands in a schedule's listed steps.
class Positions {
 public:
  explicit Positions(const std::vector<core::ScheduleStep>& steps) {
    auto occ = occurrences(steps);
    for (std::size_t i = 0; i < steps.size(); ++i) at_[{key_of(steps[i]), occ[i]}] = i;
  }
  std::optional<std::size_t> find(const core::ScheduleStep& s, std::size_t occurrence) const {
    auto it = at_.find({key_of(s), occurrence});
    if (it == at_.end()) return std::nullopt;
    return it->second;
  }

 private:
  std::map<std::pair<Key, std::size_t>, std::size_t> at_;
};

bool is_data(std::string_view op) {
  return op == "field_read" || op == "field_write" || op == "call_read" || op == "call_write" || op == "atomic";
}

bool is_signal(std::string_view op) { return op == "notify" || op == "notify_all"; }

// How telling a racing pair is (lower is better). The data the threads share (fields, calls on
// collections, atomics), or a notify and a wait on one monitor, say what the race is about; the
// order of two monitor enters or lock steps mostly follows from it (who got into the critical
// section first), so it comes second.
int tier(const core::ScheduleStep& a, const core::ScheduleStep& b) {
  if (is_data(a.op) && is_data(b.op)) return 0;
  if ((is_signal(a.op) && b.op == "wait") || (a.op == "wait" && is_signal(b.op))) return 0;
  return 1;
}

// The op that took `target` last in `thread`'s steps (monitor_enter, lock, try_lock), else "".
std::string taking_op(const core::ThreadSchedule& record, int thread, const std::string& target) {
  for (auto it = record.steps.rbegin(); it != record.steps.rend(); ++it)
    if (it->thread == thread && it->target == target && is_write(it->op) && !is_signal(it->op)) return it->op;
  return {};
}

// The failing schedule deadlocked: the first blocked thread (in the deadlock's order) that waits
// for a monitor or lock another blocked thread holds, paired with where that one took it.
std::optional<Conflict> from_deadlock(const core::ThreadSchedule& record) {
  const auto blocked = deadlocked_threads(record.deadlock);
  for (const auto& waiter : blocked) {
    if (waiter.waits_for.target.empty()) continue;
    for (const auto& holder : blocked) {
      if (holder.thread == waiter.thread) continue;
      for (const auto& hold : holder.holds) {
        if (hold.target != waiter.waits_for.target) continue;
        std::string op = waiter.waits_for.op;
        if (op.empty()) op = taking_op(record, holder.thread, hold.target);
        if (op.empty()) op = "monitor_enter";
        core::ScheduleStep took{holder.thread, op, hold.target, hold.site};
        core::ScheduleStep attempt{waiter.thread, op, hold.target, waiter.waits_for.site};
        return Conflict{took, attempt, false, true};
      }
    }
  }
  return std::nullopt;
}

// Each listed step's place in the other schedule (matched by key and occurrence), if it is there.
std::vector<std::optional<std::size_t>> places_in(const std::vector<core::ScheduleStep>& from, const std::vector<core::ScheduleStep>& to) {
  const auto occ = occurrences(from);
  const Positions in_to(to);
  std::vector<std::optional<std::size_t>> out(from.size());
  for (std::size_t i = 0; i < from.size(); ++i) out[i] = in_to.find(from[i], occ[i]);
  return out;
}

bool is_read(std::string_view op) { return op == "field_read" || op == "call_read"; }

// The candidates, best level first; within a level the one closest to the end of the failing
// schedule wins: the later second step, then the later first one.
enum Level { split_tier0, differs_tier0, differs_tier1, write_tier0, write_tier1, any_tier0, any_tier1, levels };
using Position = std::pair<std::size_t, std::size_t>;

class Candidates {
 public:
  void offer(Level level, Position position, Conflict c) {
    auto& best = best_[level];
    if (!best || position > best->first) best = std::pair{position, std::move(c)};
  }
  std::optional<Conflict> best() const {
    for (const auto& b : best_)
      if (b) return b->second;
    return std::nullopt;
  }

 private:
  std::optional<std::pair<Position, Conflict>> best_[levels];
};

// The failing schedule's steps grouped by target, in order.
std::map<std::string, std::vector<std::size_t>> by_target(const std::vector<core::ScheduleStep>& steps) {
  std::map<std::string, std::vector<std::size_t>> out;
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (!steps[i].target.empty()) out[steps[i].target].push_back(i);
  return out;
}

// Pairs of the failing schedule on one target: reversed against the passing one, or the fallbacks.
void pairs_of_failing(const core::ThreadSchedule& failing, const std::vector<std::optional<std::size_t>>& there,
                      const std::vector<std::size_t>& on_target, Candidates& out) {
  const auto& f = failing.steps;
  for (std::size_t y = 0; y < on_target.size(); ++y) {
    for (std::size_t x = 0; x < y; ++x) {
      const std::size_t i = on_target[x], j = on_target[y];
      if (f[i].thread == f[j].thread) continue;
      const int t = tier(f[i], f[j]);
      const bool write = is_write(f[i].op) || is_write(f[j].op);
      out.offer(t == 0 ? any_tier0 : any_tier1, {j, i}, Conflict{f[i], f[j], false});
      if (!write) continue;
      out.offer(t == 0 ? write_tier0 : write_tier1, {j, i}, Conflict{f[i], f[j], false});
      if (there[i] && there[j] && *there[j] < *there[i])
        out.offer(t == 0 ? differs_tier0 : differs_tier1, {j, i}, Conflict{f[i], f[j], true});
    }
  }
}

// A thread's read of a target and its next step on it, a write, split by another thread's write
// in between (the read is stale when the write lands: a lost update, a check-then-act), unless
// the passing schedule split them the same way. Names the read and the other thread's write.
void splits_of_failing(const core::ThreadSchedule& failing, const std::vector<std::optional<std::size_t>>& there,
                       const std::vector<std::size_t>& on_target, Candidates& out) {
  const auto& f = failing.steps;
  for (std::size_t x = 0; x < on_target.size(); ++x) {
    const std::size_t i = on_target[x];
    if (!is_read(f[i].op)) continue;
    std::size_t z = x + 1;
    while (z < on_target.size() && f[on_target[z]].thread != f[i].thread) ++z;
    if (z == on_target.size() || !is_data(f[on_target[z]].op) || !is_write(f[on_target[z]].op)) continue;
    const std::size_t k = on_target[z];
    for (std::size_t y = x + 1; y < z; ++y) {
      const std::size_t j = on_target[y];
      if (!is_data(f[j].op) || !is_write(f[j].op)) continue;
      const bool split_in_passing = there[i] && there[j] && there[k] && *there[i] < *there[j] && *there[j] < *there[k];
      if (split_in_passing) continue;
      Conflict c{f[i], f[j], there[i] && there[j] && *there[j] < *there[i]};
      c.split = true;
      out.offer(split_tier0, {j, i}, std::move(c));
    }
  }
}

// Pairs of the passing schedule whose first step the failing schedule does not have at all: the
// failing one has the second step with nothing of the first before it (a worker's write that
// came after the test's read, or never). Named in the failing order: the step that is there, then the missing one.
void missing_in_failing(const core::ThreadSchedule& passing, const std::vector<std::optional<std::size_t>>& there_in_failing,
                        Candidates& out) {
  const auto& p = passing.steps;
  for (const auto& [target, on_target] : by_target(p)) {
    for (std::size_t y = 0; y < on_target.size(); ++y) {
      const std::size_t q = on_target[y];
      if (!there_in_failing[q]) continue;
      for (std::size_t x = 0; x < y; ++x) {
        const std::size_t e = on_target[x];
        if (p[e].thread == p[q].thread || there_in_failing[e] || !(is_write(p[e].op) || is_write(p[q].op))) continue;
        const int t = tier(p[e], p[q]);
        Conflict c{p[q], p[e], true};
        c.second_absent = true;
        out.offer(t == 0 ? differs_tier0 : differs_tier1, {*there_in_failing[q], 0}, std::move(c));
      }
    }
  }
}

}  // namespace

bool is_write(std::string_view op) {
  return op == "field_write" || op == "call_write" || op == "atomic" || op == "monitor_enter" || op == "lock" || op == "try_lock" || op == "notify" ||
         op == "notify_all";
}

std::optional<Conflict> find_conflict(const core::ThreadSchedule& failing, const core::ThreadSchedule& passing) {
  if (failing.deadlocked())
    if (auto c = from_deadlock(failing)) return c;
  const auto there = places_in(failing.steps, passing.steps);
  Candidates candidates;
  for (const auto& [target, on_target] : by_target(failing.steps)) {
    pairs_of_failing(failing, there, on_target, candidates);
    splits_of_failing(failing, there, on_target, candidates);
  }
  missing_in_failing(passing, places_in(passing.steps, failing.steps), candidates);
  return candidates.best();
}

}  // namespace flakescan::threads
