#include "scan/verdict_json.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "report/findings_json.hpp"

namespace flakescan::scan {

namespace {

using nlohmann::json;

constexpr size_t max_stack = 8192;

// The test's executions in `run`: from the index when the run is one of its runs, else by
// looking through the run's order (a run read back from the store).
std::vector<size_t> positions_in(const core::RecordedRun& run, const std::string& test, const core::RunIndex* index) {
  std::vector<size_t> out;
  if (index && index->by_id(run.id) == &run) {
    for (const auto& place : index->places(test))
      if (place.run == &run) out.push_back(place.pos);
    return out;
  }
  for (size_t i = 0; i < run.spec.tests.size(); ++i)
    if (run.spec.tests[i] == test) out.push_back(i);
  return out;
}

// The execution to show when the test ran more than once in the run (a NIO run: it passed,
// then failed): the first failing one, or with `want_pass` the first passing one, so that a
// verdict's passing_run shows the pass and its failing_run the failure; else the first
// observed one; else the first (the run ended before it). Npos when the test is not in it.
size_t shown_position(const core::RecordedRun& run, const std::vector<size_t>& positions, bool want_pass) {
  size_t first_observed = std::string::npos;
  for (size_t pos : positions) {
    if (pos >= run.report.results.size()) continue;
    const auto outcome = run.report.results[pos].outcome;
    if (want_pass ? outcome == core::Outcome::pass : core::is_failure(outcome)) return pos;
    if (first_observed == std::string::npos) first_observed = pos;
  }
  if (first_observed != std::string::npos) return first_observed;
  return positions.empty() ? std::string::npos : positions.front();
}

// The run, seen from `test`: the test's result in it and, when `with_order`, the tests of the
// run up to and including that execution (what ran before it in that JVM; the tests after it
// cannot have changed its outcome).
json run_json(const core::RecordedRun& run, const std::string& test, bool want_pass, bool with_order,
              const core::RunIndex* index) {
  json j{{"id", run.id}, {"seed", run.spec.seed}, {"outcome", "infra"}};
  const size_t pos = shown_position(run, positions_in(run, test, index), want_pass);
  if (with_order) {
    const size_t end = pos == std::string::npos ? run.spec.tests.size() : pos + 1;
    j["order"] = std::vector<std::string>(run.spec.tests.begin(), run.spec.tests.begin() + long(end));
  }
  if (pos == std::string::npos || pos >= run.report.results.size()) return j;
  const core::TestResult& chosen = run.report.results[pos];
  j["outcome"] = core::outcome_name(chosen.outcome);
  j["duration_ms"] = chosen.duration_ms;
  if (!chosen.message.empty()) j["message"] = chosen.message;
  if (!chosen.exception_type.empty()) j["exception"] = chosen.exception_type;
  if (!chosen.signature.empty()) j["signature"] = chosen.signature;
  if (!chosen.stack.empty()) j["stack"] = chosen.stack.substr(0, max_stack);
  return j;
}

// Every run that had the test in its order (once per run: its first failing execution, else
// its first); a run cut short before the test is `infra`.
json run_strip(const core::RunIndex& index, const std::string& test) {
  json strip = json::array();
  const auto places = index.places(test);
  for (size_t k = 0; k < places.size() && strip.size() < max_strip_runs;) {
    const core::RecordedRun& run = *places[k].run;
    std::vector<size_t> positions;
    for (; k < places.size() && places[k].run == &run; ++k) positions.push_back(places[k].pos);
    const size_t pos = shown_position(run, positions, /*want_pass=*/false);
    strip.push_back({{"run", run.id}, {"outcome", core::outcome_name(run.report.outcome_at(pos))},
                     {"technique", run.spec.technique}});
  }
  return strip;
}

}  // namespace

json verdict_to_json(const core::Verdict& v, const RunLookup& lookup, const core::RunIndex* scan_runs) {
  size_t hash = v.test.find('#');
  json evidence{{"reason", v.evidence.reason}};
  const bool with_order = v.verdict == core::VerdictKind::flaky || v.verdict == core::VerdictKind::failing;
  for (auto [key, id] : {std::pair{"passing_run", v.evidence.passing_run}, std::pair{"failing_run", v.evidence.failing_run}}) {
    if (!id) continue;
    const core::RecordedRun* run = scan_runs ? scan_runs->by_id(*id) : nullptr;
    std::optional<core::RecordedRun> read;
    if (!run && (read = lookup(*id))) run = &*read;
    if (run) evidence[key] = run_json(*run, v.test, std::string_view(key) == "passing_run", with_order, scan_runs);
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
