#include "scan/verdict_json.hpp"

#include <algorithm>

#include "report/findings_json.hpp"

namespace flakescan::scan {

namespace {

using nlohmann::json;

constexpr size_t max_stack = 8192;

// The test's result in a run; when the test ran more than once in it (a NIO run: it passed,
// then failed), the first failing occurrence, or with `want_pass` the first passing one, so
// that a verdict's passing_run shows the pass and its failing_run the failure.
const core::TestResult* result_of(const core::RecordedRun& run, const std::string& test, bool want_pass = false) {
  const core::TestResult* first = nullptr;
  for (const auto& r : run.report.results) {
    if (r.test != test) continue;
    if (want_pass ? r.outcome == core::Outcome::pass : core::is_failure(r.outcome)) return &r;
    if (!first) first = &r;
  }
  return first;
}

// The run, seen from `test`: its order, and the test's result in it.
json run_json(const core::RecordedRun& run, const std::string& test, bool want_pass) {
  json j{{"id", run.id}, {"order", run.spec.tests}, {"seed", run.spec.seed}, {"outcome", "infra"}};
  const core::TestResult* chosen = result_of(run, test, want_pass);
  if (!chosen) return j;
  j["outcome"] = core::outcome_name(chosen->outcome);
  j["duration_ms"] = chosen->duration_ms;
  if (!chosen->message.empty()) j["message"] = chosen->message;
  if (!chosen->exception_type.empty()) j["exception"] = chosen->exception_type;
  if (!chosen->signature.empty()) j["signature"] = chosen->signature;
  if (!chosen->stack.empty()) j["stack"] = chosen->stack.substr(0, max_stack);
  return j;
}

// Every run that had the test in its order; a run cut short before the test is `infra`.
json run_strip(const std::vector<core::RecordedRun>& runs, const std::string& test) {
  json strip = json::array();
  for (const auto& run : runs) {
    if (strip.size() >= max_strip_runs) break;
    if (std::find(run.spec.tests.begin(), run.spec.tests.end(), test) == run.spec.tests.end()) continue;
    const core::TestResult* r = result_of(run, test);
    strip.push_back({{"run", run.id}, {"outcome", r ? core::outcome_name(r->outcome) : "infra"},
                     {"technique", run.spec.technique}});
  }
  return strip;
}

}  // namespace

json verdict_to_json(const core::Verdict& v, const RunLookup& lookup, const std::vector<core::RecordedRun>* scan_runs) {
  size_t hash = v.test.find('#');
  json evidence{{"reason", v.evidence.reason}};
  for (auto [key, id] : {std::pair{"passing_run", v.evidence.passing_run}, std::pair{"failing_run", v.evidence.failing_run}}) {
    if (!id) continue;
    if (auto run = lookup(*id)) evidence[key] = run_json(*run, v.test, std::string_view(key) == "passing_run");
  }
  if (!v.evidence.failures.empty()) {
    json groups = json::array();
    for (const auto& g : v.evidence.failures)
      groups.push_back({{"signature", g.signature}, {"exception", g.exception_type}, {"message", g.message},
                        {"count", g.count}, {"example_run", g.example_run}});
    evidence["failures"] = groups;
  }
  if (!v.evidence.role.empty()) evidence["role"] = v.evidence.role;
  if (!v.evidence.reproducer.empty()) evidence["reproducer"] = v.evidence.reproducer;
  if (!v.evidence.passing_order.empty()) evidence["passing_order"] = v.evidence.passing_order;
  if (!v.evidence.related.empty()) evidence["related"] = v.evidence.related;
  if (!v.evidence.details.empty()) evidence["details"] = v.evidence.details;
  if (scan_runs)
    if (auto strip = run_strip(*scan_runs, v.test); !strip.empty()) evidence["run_strip"] = std::move(strip);

  json category = v.category == core::Category::none ? json(nullptr) : json(core::category_name(v.category));
  return json{{"test", v.test},
              {"class", v.test.substr(0, hash)},
              {"method", hash == std::string::npos ? "" : v.test.substr(hash + 1)},
              {"verdict", core::verdict_name(v.verdict)},
              {"category", category},
              {"technique", v.technique},
              {"categories", report::categories_json(v)},
              {"findings", report::findings_json(v)},
              {"runs", {{"total", v.runs.total}, {"passed", v.runs.passed}, {"failed", v.runs.failed},
                        {"skipped", v.runs.skipped}, {"infra", v.runs.infra}}},
              {"evidence", evidence}};
}

}  // namespace flakescan::scan
