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

TEST_CASE("merging keeps every technique's finding: one category does not hide another", "[core][verdict]") {
  Verdict order{.test = "p.T#m", .verdict = VerdictKind::flaky, .category = Category::order_dependent, .technique = "order"};
  order.evidence.reason = "fails after p.U#x";
  order.runs = {.total = 4, .passed = 2, .failed = 2};
  Verdict nio{.test = "p.T#m", .verdict = VerdictKind::flaky, .category = Category::nio, .technique = "nio"};
  nio.evidence.reason = "fails on its second run in one JVM";
  nio.runs = {.total = 4, .passed = 2, .failed = 2};
  Verdict rerun{.test = "p.T#m", .verdict = VerdictKind::not_flaky, .technique = "rerun"};
  rerun.runs = {.total = 10, .passed = 10};

  auto merged = honest_verdict(merge_verdicts(merge_verdicts(rerun, order), nio));
  REQUIRE(merged.findings.size() == 3);
  CHECK(merged.findings[0].technique == "rerun");
  CHECK(merged.findings[1].technique == "order");
  CHECK(merged.findings[2].technique == "nio");
  CHECK(merged.category == Category::order_dependent);
  CHECK(categories_of(merged) == std::vector<Category>{Category::order_dependent, Category::nio});
  // Merging again (a verdict file merged with another) does not duplicate or lose findings.
  auto again = merge_verdicts(merged, Verdict{.test = "p.T#m", .verdict = VerdictKind::not_flaky, .technique = "noise"});
  CHECK(again.findings.size() == 4);
  CHECK(categories_of(again) == std::vector<Category>{Category::order_dependent, Category::nio});
}

TEST_CASE("an observed failure never ends in not_flaky", "[core][verdict]") {
  // explore's own verdict used to say not_flaky while its runs held a failure and passes.
  Verdict explore{.test = "p.T#m", .verdict = VerdictKind::not_flaky, .technique = "explore"};
  explore.runs = {.total = 3, .passed = 2, .failed = 1};
  explore.evidence.failing_run = 41;
  auto v = honest_verdict(explore);
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::unknown);
  CHECK(v.evidence.failing_run == 41);
  CHECK_THAT(v.evidence.reason, Catch::Contains("failed 1 of 3"));

  Verdict broken{.test = "p.T#m", .verdict = VerdictKind::not_flaky, .technique = "rerun"};
  broken.runs = {.total = 5, .failed = 5};
  CHECK(honest_verdict(broken).verdict == VerdictKind::failing);

  Verdict clean{.test = "p.T#m", .verdict = VerdictKind::not_flaky, .technique = "rerun"};
  clean.runs = {.total = 5, .passed = 5};
  CHECK(honest_verdict(clean).verdict == VerdictKind::not_flaky);
  CHECK(honest_verdict(honest_verdict(explore)).verdict == VerdictKind::flaky);  // idempotent
}

TEST_CASE("a finding whose condition does not decide gives no category", "[core][verdict]") {
  Verdict order{.test = "p.T#m", .verdict = VerdictKind::flaky, .category = Category::order_dependent, .technique = "order"};
  order.evidence.role = "brittle";
  order.evidence.reproducer = {"p.T#m"};
  order.runs = {.total = 4, .passed = 2, .failed = 2};
  Verdict rerun{.test = "p.T#m", .verdict = VerdictKind::flaky, .category = Category::unknown, .technique = "rerun"};
  rerun.runs = {.total = 10, .passed = 7, .failed = 3};
  auto merged = merge_verdicts(rerun, order);
  REQUIRE(merged.category == Category::order_dependent);
  for (auto& f : merged.findings)
    if (f.technique == "order") f.not_deciding = "the failing order (alone) also passed";
  auto v = honest_verdict(merged);
  CHECK(v.verdict == VerdictKind::flaky);
  CHECK(v.category == Category::unknown);
  CHECK(v.evidence.role.empty());
  CHECK(v.evidence.reproducer.empty());
  CHECK(categories_of(v) == std::vector<Category>{Category::unknown});
  CHECK(v.findings.size() == 2);  // the undecided finding stays, marked
}

TEST_CASE("every category's name reads back, implementation_dependent included", "[core][verdict]") {
  for (auto c : flaky_categories) {
    auto back = parse_category(category_name(c));
    REQUIRE(back);
    CHECK(*back == c);
  }
  CHECK(category_name(Category::implementation_dependent) == "implementation_dependent");
  CHECK(parse_category("") == Category::none);
  CHECK_FALSE(parse_category("order-dependent"));
}

TEST_CASE("a test every run skipped is skipped, not could_not_run; a pass or a failure still decides", "[core][verdict]") {
  Verdict ignored{.test = "p.T#off", .verdict = VerdictKind::could_not_run, .technique = "rerun"};
  ignored.runs = {.total = 3, .skipped = 3};
  ignored.evidence.reason = "skipped: waits for the tax service";
  auto v = honest_verdict(ignored);
  CHECK(v.verdict == VerdictKind::skipped);
  CHECK(verdict_name(v.verdict) == "skipped");
  CHECK(v.evidence.reason == "skipped in all 3 runs that reached it (@Ignore, @Disabled or a failed assumption): waits for the tax service");

  // No run reached it at all: the scan could not run it.
  Verdict unreached{.verdict = VerdictKind::could_not_run};
  unreached.runs = {.total = 2, .infra = 2};
  CHECK(honest_verdict(unreached).verdict == VerdictKind::could_not_run);

  // A failed assumption in one run and a failure in another is a failure seen: not skipped.
  Verdict mixed{.verdict = VerdictKind::could_not_run};
  mixed.runs = {.total = 2, .failed = 1, .skipped = 1};
  CHECK(honest_verdict(mixed).verdict != VerdictKind::skipped);

  // Merging: skipped outranks could_not_run (another technique did not reach the test), and a
  // technique that saw it pass outranks skipped.
  Verdict other{.verdict = VerdictKind::could_not_run, .technique = "order"};
  CHECK(merge_verdicts(other, v).verdict == VerdictKind::skipped);
  Verdict passed{.verdict = VerdictKind::not_flaky, .technique = "nio"};
  passed.runs = {.total = 1, .passed = 1};
  CHECK(merge_verdicts(v, passed).verdict == VerdictKind::not_flaky);
}

TEST_CASE("failures on a port in use stay counted, and the reason says they came from the infrastructure", "[core][verdict]") {
  Verdict v{.test = "p.Server#starts", .verdict = VerdictKind::flaky, .category = Category::unknown, .technique = "rerun"};
  v.runs = {.total = 10, .passed = 8, .failed = 2};
  v.evidence.reason = "2 out of 10 runs failed";
  v.evidence.failures.push_back({.signature = "java.net.BindException at p.Server.starts:12", .exception_type = "java.net.BindException",
                                 .message = "Address already in use", .count = 2});
  auto honest = honest_verdict(v);
  CHECK(honest.verdict == VerdictKind::flaky);
  CHECK(honest.runs.failed == 2);
  CHECK_THAT(honest.evidence.reason, Catch::StartsWith("2 out of 10 runs failed; 2 failures were java.net.BindException: a port "
                                                       "the test binds was in use (infrastructure"));
  // Said once, however often the verdict is made honest again (merging reads verdict files back).
  CHECK(honest_verdict(honest).evidence.reason == honest.evidence.reason);
}
