#pragma once
// Checks every flaky verdict against the runs the fake actually made: the failing run
// failed the test, the passing run passed it, and the reproducer fails under the model.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/verdict.hpp"
#include "support/order/fake_suite.hpp"

namespace flakescan::test_support {

inline const core::RecordedRun* find_run(const FakeRunLog& log, std::int64_t id) {
  for (const auto& r : log.made())
    if (r.id == id) return &r;
  return nullptr;
}

inline bool run_has(const core::RecordedRun& run, const std::string& test, bool failing) {
  for (size_t i = 0; i < run.spec.tests.size(); ++i)
    if (run.spec.tests[i] == test) {
      auto o = run.report.outcome_at(i);
      if (failing ? core::is_failure(o) : o == core::Outcome::pass) return true;
    }
  return false;
}

inline void check_evidence(FakeRunLog& log, const std::vector<core::Verdict>& verdicts) {
  for (const auto& v : verdicts) {
    if (v.verdict != core::VerdictKind::flaky) continue;
    INFO(v.test << ": " << v.evidence.reason);
    REQUIRE(v.evidence.failing_run);
    REQUIRE(v.evidence.passing_run);
    auto* f = find_run(log, *v.evidence.failing_run);
    auto* p = find_run(log, *v.evidence.passing_run);
    REQUIRE(f);
    REQUIRE(p);
    CHECK(run_has(*f, v.test, true));
    CHECK(run_has(*p, v.test, false));
    REQUIRE_FALSE(v.evidence.reproducer.empty());
    CHECK(v.evidence.reproducer.back() == v.test);
    if (v.category == core::Category::order_dependent || v.category == core::Category::nio) {
      CHECK(core::is_failure(log.predict(v.evidence.reproducer)));
      CHECK(log.predict(v.evidence.passing_order) == core::Outcome::pass);
    }
  }
}

inline const core::Verdict& verdict_of(const std::vector<core::Verdict>& verdicts, const std::string& test) {
  auto it = std::find_if(verdicts.begin(), verdicts.end(), [&](const core::Verdict& v) { return v.test == test; });
  REQUIRE(it != verdicts.end());
  return *it;
}

}  // namespace flakescan::test_support
