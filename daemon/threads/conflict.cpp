#include "threads/conflict.hpp"

#include <map>
#include <string>
#include <tuple>
#include <vector>

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

}  // namespace

bool is_write(std::string_view op) {
  return op == "field_write" || op == "call_write" || op == "atomic" || op == "monitor_enter" || op == "lock" || op == "try_lock" || op == "notify" ||
         op == "notify_all";
}

std::optional<Conflict> find_conflict(const core::ThreadSchedule& failing, const core::ThreadSchedule& passing) {
  const auto& steps = failing.steps;
  const auto occ = occurrences(steps);
  const Positions in_passing(passing.steps);
  std::vector<std::optional<std::size_t>> there(steps.size());  // each failing step's place in the passing schedule
  for (std::size_t i = 0; i < steps.size(); ++i) there[i] = in_passing.find(steps[i], occ[i]);
  std::optional<Conflict> last_with_write, last_any;
  // From the end of the failing schedule: the later the second step, the closer to the failure.
  for (std::size_t j = steps.size(); j-- > 0;) {
    for (std::size_t i = j; i-- > 0;) {
      const auto& a = steps[i];
      const auto& b = steps[j];
      if (!racing(a, b)) continue;
      const bool write = is_write(a.op) || is_write(b.op);
      if (!last_any) last_any = Conflict{a, b, false};
      if (!write) continue;
      if (!last_with_write) last_with_write = Conflict{a, b, false};
      if (there[i] && there[j] && *there[j] < *there[i]) return Conflict{a, b, true};
    }
  }
  return last_with_write ? last_with_write : last_any;
}

}  // namespace flakescan::threads
