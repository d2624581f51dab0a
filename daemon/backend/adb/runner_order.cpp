#include "backend/adb/runner_order.hpp"

#include <algorithm>

namespace flakescan::backend::adb {

std::string class_of(const std::string& test) { return test.substr(0, test.find('#')); }

void RunnerOrder::learn(const std::vector<std::string>& executed) {
  for (size_t i = 0; i < executed.size(); ++i)
    for (size_t j = i + 1; j < executed.size(); ++j) {
      const auto& a = executed[i];
      const auto& b = executed[j];
      if (a == b || class_of(a) != class_of(b)) continue;
      before_.erase({b, a});
      before_.insert({a, b});
    }
}

std::vector<std::vector<std::string>> RunnerOrder::segments(const std::vector<std::string>& tests) const {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> current;
  std::set<std::string> classes_done;  // classes of the segment other than the last one
  for (const auto& t : tests) {
    const std::string cls = class_of(t);
    bool split = std::find(current.begin(), current.end(), t) != current.end() || classes_done.count(cls) > 0;
    for (size_t i = current.size(); !split && i-- > 0 && class_of(current[i]) == cls;)
      split = knows(t, current[i]);  // the runner would run t before a test listed earlier
    if (split) {
      out.push_back(std::move(current));
      current.clear();
      classes_done.clear();
    }
    if (!current.empty() && class_of(current.back()) != cls) classes_done.insert(class_of(current.back()));
    current.push_back(t);
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

std::vector<std::vector<std::string>> RunnerOrder::singletons(const std::vector<std::string>& tests) {
  std::vector<std::vector<std::string>> out;
  for (const auto& t : tests) out.push_back({t});
  return out;
}

bool RunnerOrder::ran_as_listed(const std::vector<std::string>& requested, const std::vector<std::string>& executed) {
  // The executed tests that were requested, in executed order, must be a prefix-respecting
  // subsequence of the request: each one later in the request than the one before it.
  size_t at = 0;
  for (const auto& t : executed) {
    auto it = std::find(requested.begin() + long(at), requested.end(), t);
    if (it == requested.end()) {
      if (std::find(requested.begin(), requested.end(), t) != requested.end()) return false;  // came too late
      continue;  // not requested (class-level entries and the like)
    }
    at = size_t(it - requested.begin()) + 1;
  }
  return true;
}

}  // namespace flakescan::backend::adb
