#include "core/verdict.hpp"

namespace flakescan::core {

std::string_view verdict_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::flaky: return "flaky";
    case VerdictKind::not_flaky: return "not_flaky";
    case VerdictKind::could_not_run: return "could_not_run";
  }
  return "could_not_run";
}

std::string_view category_name(Category category) {
  switch (category) {
    case Category::none: return "";
    case Category::concurrency: return "concurrency";
    case Category::order_dependent: return "order_dependent";
    case Category::nio: return "nio";
    case Category::unknown: return "unknown";
  }
  return "";
}

namespace {

int rank(const Verdict& v) {
  switch (v.verdict) {
    case VerdictKind::flaky: return v.category == Category::unknown ? 3 : 4;
    case VerdictKind::not_flaky: return 2;
    case VerdictKind::could_not_run: return 1;
  }
  return 0;
}

}  // namespace

Verdict merge_verdicts(const Verdict& a, const Verdict& b) {
  Verdict out = rank(b) > rank(a) ? b : a;
  const Verdict& other = rank(b) > rank(a) ? a : b;
  out.runs.total = a.runs.total + b.runs.total;
  out.runs.passed = a.runs.passed + b.runs.passed;
  out.runs.failed = a.runs.failed + b.runs.failed;
  out.runs.skipped = a.runs.skipped + b.runs.skipped;
  out.runs.infra = a.runs.infra + b.runs.infra;
  // Keep the other technique's evidence runs where the winner has none.
  if (!out.evidence.passing_run) out.evidence.passing_run = other.evidence.passing_run;
  if (!out.evidence.failing_run && out.verdict == VerdictKind::flaky)
    out.evidence.failing_run = other.evidence.failing_run;
  return out;
}

}  // namespace flakescan::core
