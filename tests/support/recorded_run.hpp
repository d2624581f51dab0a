#pragma once
// A stored run made by hand: its id, its order and the outcome of each entry (fewer outcomes
// than tests: the run ended before the rest). For tests of code that reads a scan's runs.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/run.hpp"

namespace flakescan::test_support {

inline core::RecordedRun recorded_run(std::int64_t id, std::vector<std::string> tests, std::vector<core::Outcome> outcomes) {
  core::RecordedRun r{.id = id};
  r.spec.tests = std::move(tests);
  for (size_t i = 0; i < outcomes.size(); ++i) r.report.results.push_back({.test = r.spec.tests[i], .outcome = outcomes[i]});
  return r;
}

}  // namespace flakescan::test_support
