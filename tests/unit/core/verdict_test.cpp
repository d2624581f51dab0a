#include <catch2/catch.hpp>

#include "core/verdict.hpp"

using namespace flakescan::core;

TEST_CASE("merging verdicts keeps the strongest and adds up runs", "[core][verdict]") {
  Verdict rerun{.test = "p.T#m", .verdict = VerdictKind::not_flaky, .technique = "rerun"};
  rerun.runs = {.total = 10, .passed = 10};
  rerun.evidence.passing_run = 7;
  Verdict order{.test = "p.T#m", .verdict = VerdictKind::flaky, .category = Category::order_dependent, .technique = "order"};
  order.runs = {.total = 3, .passed = 1, .failed = 2};
  order.evidence.failing_run = 12;

  auto merged = merge_verdicts(rerun, order);
  CHECK(merged.verdict == VerdictKind::flaky);
  CHECK(merged.category == Category::order_dependent);
  CHECK(merged.runs.total == 13);
  CHECK(merged.runs.failed == 2);
  CHECK(merged.evidence.failing_run == 12);
  CHECK(merged.evidence.passing_run == 7);
  CHECK(merge_verdicts(order, rerun).technique == "order");
}

TEST_CASE("a specific flaky category beats unknown", "[core][verdict]") {
  Verdict a{.verdict = VerdictKind::flaky, .category = Category::unknown};
  Verdict b{.verdict = VerdictKind::flaky, .category = Category::concurrency};
  CHECK(merge_verdicts(a, b).category == Category::concurrency);
  Verdict c{.verdict = VerdictKind::could_not_run};
  CHECK(merge_verdicts(c, a).verdict == VerdictKind::flaky);
}
