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

bool racing(const core::ScheduleStep& a, const core::ScheduleStep& b) {
  return a.thread != b.thread && !a.target.empty() && a.target == b.target;
}

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

constexpr int tiers = 2;

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

}  // namespace

bool is_write(std::string_view op) {
  return op == "field_write" || op == "call_write" || op == "atomic" || op == "monitor_enter" || op == "lock" || op == "try_lock" || op == "notify" ||
         op == "notify_all";
}

std::optional<Conflict> find_conflict(const core::ThreadSchedule& failing, const core::ThreadSchedule& passing) {
  if (failing.deadlocked())
    if (auto c = from_deadlock(failing)) return c;
  const auto& steps = failing.steps;
  const auto occ = occurrences(steps);
  const Positions in_passing(passing.steps);
  std::vector<std::optional<std::size_t>> there(steps.size());  // each failing step's place in the passing schedule
  for (std::size_t i = 0; i < steps.size(); ++i) there[i] = in_passing.find(steps[i], occ[i]);
  // Per tier: the reversed pair, and the fallbacks (with a write, any), each the first met from the end.
  std::optional<Conflict> reversed[tiers], last_with_write[tiers], last_any[tiers];
  // From the end of the failing schedule: the later the second step, the closer to the failure.
  for (std::size_t j = steps.size(); j-- > 0;) {
    for (std::size_t i = j; i-- > 0;) {
      const auto& a = steps[i];
      const auto& b = steps[j];
      if (!racing(a, b)) continue;
      const int t = tier(a, b);
      const bool write = is_write(a.op) || is_write(b.op);
      if (!last_any[t]) last_any[t] = Conflict{a, b, false};
      if (!write) continue;
      if (!last_with_write[t]) last_with_write[t] = Conflict{a, b, false};
      if (!reversed[t] && there[i] && there[j] && *there[j] < *there[i]) reversed[t] = Conflict{a, b, true};
    }
  }
  for (auto* pick : {reversed, last_with_write, last_any})
    for (int t = 0; t < tiers; ++t)
      if (pick[t]) return pick[t];
  return std::nullopt;
}

}  // namespace flakescan::threads
