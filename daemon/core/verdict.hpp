#pragma once
// Verdicts: what a scan concludes about each test. A test is *flaky* only with evidence:
// at least one observed passing run and one observed failing run of it, both in the store,
// and the order or schedule that produced the failure. Techniques add their own details
// (role and reproducer for order-dependence, schedule for concurrency) to the same record.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flakescan::core {

enum class VerdictKind { flaky, not_flaky, could_not_run };
enum class Category { none, concurrency, order_dependent, nio, unknown };

std::string_view verdict_name(VerdictKind kind);
std::string_view category_name(Category category);  // none -> ""

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

struct Verdict {
  std::string test;
  VerdictKind verdict = VerdictKind::could_not_run;
  Category category = Category::none;
  std::string technique;  // the technique whose evidence decided it
  RunCounts runs;
  Evidence evidence;
};

// Combines verdicts of several techniques for the same test: flaky beats not_flaky beats
// could_not_run; among flaky verdicts a specific category beats `unknown`; run counts add up.
Verdict merge_verdicts(const Verdict& a, const Verdict& b);

}  // namespace flakescan::core
