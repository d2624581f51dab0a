#pragma once
// Verdicts: what a scan concludes about each test. A test is *flaky* only with evidence:
// at least one observed passing run and one observed failing run of it, both in the store,
// and the order or schedule that produced the failure. Techniques add their own details
// (role and reproducer for order-dependence, schedule for concurrency) to the same record.
//
// A verdict never contradicts its evidence: a test that flakescan saw fail is never
// `not_flaky` (honest_verdict): it is `flaky` when it also passed (category `unknown` when no
// technique explains it) and `failing` when it failed every observed run. Merging keeps every
// technique's finding, not only the one that gives the primary category.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flakescan::core {

// failing: failed every run that reached it (broken, not flaky); never mixed up with not_flaky.
// skipped: every run that reached it skipped it (@Ignore, @Disabled, a failed assumption): it
// ran, and said it does not apply; not a problem of the scan (could_not_run).
enum class VerdictKind { flaky, not_flaky, failing, skipped, could_not_run };
// implementation_dependent: the test reads an order the Java API leaves unspecified
// (HashMap iteration, getDeclaredMethods, ...): it passes on this JDK and fails under a
// shuffled order (technique `shuffle`).
enum class Category { none, concurrency, order_dependent, nio, implementation_dependent, unknown };
// Every category a flaky verdict can have, `unknown` last.
inline constexpr Category flaky_categories[] = {Category::concurrency, Category::order_dependent, Category::nio,
                                                Category::implementation_dependent, Category::unknown};

std::string_view verdict_name(VerdictKind kind);
std::string_view category_name(Category category);  // none -> ""
std::optional<Category> parse_category(std::string_view name);  // "" -> none

struct FailureGroup {
  std::string signature;
  std::string exception_type;
  std::string message;          // of the first failure with this signature
  int count = 0;
  std::int64_t example_run = 0; // a run in which it happened
};

struct RunCounts {
  int total = 0;    // runs that reached the test (pass + fail + skipped + infra)
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int infra = 0;
};

struct Evidence {
  std::optional<std::int64_t> passing_run;
  std::optional<std::int64_t> failing_run;
  std::vector<FailureGroup> failures;
  std::string reason;  // human sentence: why this verdict
  // Order-dependence and NIO (technique `order`, `nio`).
  std::string role;                          // victim, brittle, polluter, state_setter, cleaner, nio
  std::vector<std::string> reproducer;       // exact test list in one process that fails
  std::vector<std::string> passing_order;    // a test list in one process in which it passes
  std::vector<std::string> related;          // polluters / state-setters / cleaners found
  // Technique-specific facts for the verdict file, as text (e.g. schedule of `explore`).
  std::map<std::string, std::string> details;
};

// One technique's own conclusion about a test, kept whole when verdicts are merged.
struct Finding {
  std::string technique;
  VerdictKind verdict = VerdictKind::could_not_run;
  Category category = Category::none;
  Evidence evidence;  // its own; `failures` are left out (the merged verdict has them all)
  // Empty: the category stands. Else why its condition did not decide the outcome (e.g. the
  // failing order also passed); such a finding gives no category to the verdict.
  std::string not_deciding;
};

struct Verdict {
  std::string test;
  VerdictKind verdict = VerdictKind::could_not_run;
  Category category = Category::none;  // the primary category
  std::string technique;  // the technique whose evidence decided it
  RunCounts runs;
  Evidence evidence;
  std::vector<Finding> findings;  // every technique's finding; empty: this verdict is one
};

// The verdict's findings: `findings`, or the verdict itself as its only finding.
std::vector<Finding> findings_of(const Verdict& v);
// Every category the findings give (deciding flaky findings), the primary one first;
// `unknown` only when no specific category is given.
std::vector<Category> categories_of(const Verdict& v);

// Combines verdicts of several techniques for the same test: flaky beats not_flaky beats
// failing beats could_not_run; among flaky verdicts a specific category beats `unknown`; run
// counts add up; findings of both are kept.
Verdict merge_verdicts(const Verdict& a, const Verdict& b);

// Picks the primary category again from the deciding findings (after some were found not to
// decide), and makes the verdict agree with the runs it counts: observed failures are never
// `not_flaky`. Idempotent.
Verdict honest_verdict(Verdict v);

}  // namespace flakescan::core
