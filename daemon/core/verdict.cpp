#include "core/verdict.hpp"

#include <algorithm>

namespace flakescan::core {

std::string_view verdict_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::flaky: return "flaky";
    case VerdictKind::not_flaky: return "not_flaky";
    case VerdictKind::failing: return "failing";
    case VerdictKind::skipped: return "skipped";
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
    case Category::implementation_dependent: return "implementation_dependent";
    case Category::unknown: return "unknown";
  }
  return "";
}

std::optional<Category> parse_category(std::string_view name) {
  if (name.empty()) return Category::none;
  for (auto c : flaky_categories)
    if (category_name(c) == name) return c;
  return std::nullopt;
}

namespace {

int category_rank(Category c) { return c == Category::none ? 0 : c == Category::unknown ? 1 : 2; }

int rank(const Verdict& v) {
  switch (v.verdict) {
    case VerdictKind::flaky: return 4 + category_rank(v.category);
    case VerdictKind::not_flaky: return 4;
    case VerdictKind::failing: return 3;
    case VerdictKind::skipped: return 2;
    case VerdictKind::could_not_run: return 1;
  }
  return 0;
}

Finding finding_of(const Verdict& v) {
  Finding f{.technique = v.technique, .verdict = v.verdict, .category = v.category, .evidence = v.evidence};
  f.evidence.failures.clear();
  return f;
}

}  // namespace

std::vector<Finding> findings_of(const Verdict& v) {
  if (!v.findings.empty()) return v.findings;
  return {finding_of(v)};
}

std::vector<Category> categories_of(const Verdict& v) {
  std::vector<Category> out;
  auto add = [&](Category c) {
    if (c == Category::none || c == Category::unknown) return;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  if (v.verdict != VerdictKind::flaky) return out;
  add(v.category);
  for (const auto& f : v.findings)
    if (f.verdict == VerdictKind::flaky && f.not_deciding.empty()) add(f.category);
  if (out.empty()) out.push_back(Category::unknown);
  return out;
}

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
  if (!out.evidence.failing_run) out.evidence.failing_run = other.evidence.failing_run;
  // Failure groups of both, by signature.
  for (const auto& g : other.evidence.failures) {
    auto same = std::find_if(out.evidence.failures.begin(), out.evidence.failures.end(),
                             [&](const FailureGroup& h) { return h.signature == g.signature; });
    if (same == out.evidence.failures.end()) out.evidence.failures.push_back(g);
    else same->count += g.count;
  }
  auto fa = findings_of(a), fb = findings_of(b);
  out.findings = std::move(fa);
  out.findings.insert(out.findings.end(), fb.begin(), fb.end());
  return out;
}

Verdict honest_verdict(Verdict v) {
  // The primary category comes from a deciding flaky finding; a primary finding whose
  // condition did not decide gives way to the next one.
  if (!v.findings.empty() && v.verdict == VerdictKind::flaky) {
    const Finding* best = nullptr;
    for (const auto& f : v.findings)
      if (f.verdict == VerdictKind::flaky && f.not_deciding.empty() &&
          (!best || category_rank(f.category) > category_rank(best->category)))
        best = &f;
    Category primary = best ? best->category : Category::unknown;
    if (primary == Category::none) primary = Category::unknown;
    if (primary != v.category) {
      v.category = primary;
      if (best && category_rank(best->category) == 2) {
        v.technique = best->technique;
        auto failures = std::move(v.evidence.failures);
        v.evidence = best->evidence;
        v.evidence.failures = std::move(failures);
      } else {
        v.evidence.reason = "passed " + std::to_string(v.runs.passed) + " and failed " + std::to_string(v.runs.failed) +
                            " of its runs; no technique's condition decides the outcome";
        v.evidence.role.clear();
        v.evidence.reproducer.clear();
        v.evidence.passing_order.clear();
        v.evidence.related.clear();
        v.evidence.details.clear();
      }
    }
  }
  if (v.verdict == VerdictKind::not_flaky && v.runs.failed > 0) {
    const auto findings = findings_of(v);
    const Finding* failing = nullptr;
    for (const auto& f : findings)
      if (f.evidence.failing_run) { failing = &f; break; }
    if (v.runs.passed > 0) {
      v.verdict = VerdictKind::flaky;
      v.category = Category::unknown;
      v.evidence.reason = "failed " + std::to_string(v.runs.failed) + " of " + std::to_string(v.runs.passed + v.runs.failed) +
                          " runs that reached it" + (failing ? " (" + failing->technique + ")" : std::string()) +
                          "; no technique explains the failure";
    } else {
      v.verdict = VerdictKind::failing;
      v.category = Category::none;
      v.evidence.reason = "failed all " + std::to_string(v.runs.failed) + " runs that reached it: a broken test, not a flaky one";
    }
    if (!v.evidence.failing_run && failing) v.evidence.failing_run = failing->evidence.failing_run;
  }
  if (v.verdict == VerdictKind::flaky && v.category == Category::none) v.category = Category::unknown;
  // A port already in use: flakescan never runs a test on its own twice at once
  // (run_in_parallel), so another process held it. The failures stay counted (they were seen);
  // the reason says where they came from.
  int port_in_use = 0;
  for (const auto& g : v.evidence.failures)
    if (g.exception_type == "java.net.BindException" || g.message.find("Address already in use") != std::string::npos)
      port_in_use += g.count;
  const std::string port_note = "a port the test binds was in use";
  if (port_in_use > 0 && v.evidence.reason.find(port_note) == std::string::npos)
    v.evidence.reason += "; " + std::to_string(port_in_use) + (port_in_use == 1 ? " failure was" : " failures were") + " java.net.BindException: " +
                         port_note + " (infrastructure: another process on this machine held it, never a second run of the test by "
                         "flakescan); a test that binds a fixed port fails wherever that port is taken";
  // Runs reached the test and every one skipped it: the test says it does not apply here,
  // which no technique could change; the scan did not fail to run it.
  if (v.verdict == VerdictKind::could_not_run && v.runs.skipped > 0 && v.runs.passed == 0 && v.runs.failed == 0) {
    v.verdict = VerdictKind::skipped;
    v.category = Category::none;
    const std::string& said = v.evidence.reason;
    const std::string why = said.starts_with("skipped: ") ? said.substr(9) : said;
    v.evidence.reason = "skipped in " + std::string(v.runs.skipped == 1 ? "the run" : "all " + std::to_string(v.runs.skipped) + " runs") +
                        " that reached it (@Ignore, @Disabled or a failed assumption)" + (why.empty() ? "" : ": " + why);
  }
  return v;
}

}  // namespace flakescan::core
