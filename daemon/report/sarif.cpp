#include <nlohmann/json.hpp>

#include "report/report.hpp"
#include "report/text.hpp"
#include "report/unified_diff.hpp"

namespace flakescan::report {

using nlohmann::json;

namespace {

struct Rule {
  const char* id;
  const char* name;
  const char* short_text;
  const char* full_text;
  const char* level;
};

// One rule per kind of finding, so code scanning can filter and dismiss them separately.
constexpr Rule rules[] = {
    {"flakescan/flaky/concurrency", "FlakyTestConcurrency", "Flaky test: depends on the order of asynchronous events",
     "The test passed and failed on the same code; flakescan changed the order of asynchronous events or thread scheduling and the outcome changed.",
     "warning"},
    {"flakescan/flaky/order-dependent", "FlakyTestOrderDependent", "Flaky test: depends on the tests that run before it",
     "The test's outcome depends on which tests ran before it in the same process (a polluted shared state, usually a static field).",
     "warning"},
    {"flakescan/flaky/nio", "FlakyTestNonIdempotent", "Flaky test: fails when run twice in the same process",
     "The test passes on its first run and fails on a second run in the same process: it pollutes state that it depends on itself.",
     "warning"},
    {"flakescan/flaky/unknown", "FlakyTest", "Flaky test",
     "The test passed and failed on the same code in separate runs; no specific cause was established.", "warning"},
    {"flakescan/could-not-run", "FlakyTestCouldNotRun", "flakescan could not run the test",
     "flakescan could not observe enough runs of this test to decide whether it is flaky.", "note"},
    {"flakescan/failing", "FailingTest", "Test fails in every run",
     "The test failed in every run flakescan made of it: it is broken, not flaky.", "warning"},
    {"flakescan/flaky/implementation-dependent", "FlakyTestImplementationDependent",
     "Flaky test: depends on an order the Java API leaves unspecified",
     "The test passes on this JDK and fails when an order the Java API does not specify (HashMap iteration, Class.getDeclaredMethods, File.list, ...) comes out otherwise, as it may on another JDK, vendor or hash seed.",
     "warning"},
};

std::size_t rule_index(const core::Verdict& v) {
  if (v.verdict == core::VerdictKind::could_not_run) return 4;
  if (v.verdict == core::VerdictKind::failing) return 5;
  switch (v.category) {
    case core::Category::concurrency: return 0;
    case core::Category::order_dependent: return 1;
    case core::Category::nio: return 2;
    case core::Category::implementation_dependent: return 6;
    default: return 3;
  }
}

// The verified repair of the test as SARIF fixes (§3.55), one per file its patch changes, the
// replacements read from the diff's hunks; none when there is no patch or it does not parse.
json repair_fixes(const core::Verdict& v) {
  json fixes = json::array();
  auto f = repair_finding(v);
  if (!f) return fixes;
  const auto& d = f->evidence.details;
  auto patch = d.find("patch");
  if (patch == d.end() || patch->second.empty()) return fixes;
  auto files = parse_unified_diff(patch->second);
  if (!files) return fixes;
  std::string text;
  if (auto cleaner = d.find("cleaner"); cleaner != d.end() && !cleaner->second.empty()) {
    // Where the repair put it (patch_placement); older verdict files have none: the test's start.
    auto where = d.find("patch_placement");
    text = "Insert " + cleaner->second + " " + (where != d.end() && !where->second.empty() ? where->second : "at the start of the test");
  }
  else
    text = "Apply the repair flakescan verified";
  if (auto field = d.find("polluted_field"); field != d.end() && !field->second.empty()) text += " (it resets " + field->second + ")";
  if (auto run = d.find("verified_by_run"); run != d.end() && !run->second.empty()) text += "; verified by run " + run->second;
  text += ".";
  json changes = json::array();
  for (const auto& file : *files) {
    if (file.replacements.empty() || file.path() == "/dev/null") continue;
    json replacements = json::array();
    for (const auto& r : file.replacements) {
      // The old file's lines start_line .. start_line+deleted-1, whole; an insertion is the
      // empty region at the start of line start_line.
      json region = {{"startLine", r.start_line}, {"startColumn", 1}, {"endLine", r.start_line + r.deleted_lines}, {"endColumn", 1}};
      json rep = {{"deletedRegion", std::move(region)}};
      if (!r.inserted.empty()) rep["insertedContent"] = {{"text", r.inserted}};
      replacements.push_back(std::move(rep));
    }
    changes.push_back({{"artifactLocation", {{"uri", file.path()}, {"uriBaseId", "%SRCROOT%"}}}, {"replacements", std::move(replacements)}});
  }
  if (!changes.empty()) fixes.push_back({{"description", {{"text", text}}}, {"artifactChanges", std::move(changes)}});
  return fixes;
}

}  // namespace

std::string render_sarif(const Report& report) {
  json rule_list = json::array();
  for (const auto& r : rules) {
    rule_list.push_back({{"id", r.id},
                         {"name", r.name},
                         {"shortDescription", {{"text", r.short_text}}},
                         {"fullDescription", {{"text", r.full_text}}},
                         {"help", {{"text", std::string(r.full_text) + " Each result carries the runs that showed it."}}},
                         {"defaultConfiguration", {{"level", r.level}}},
                         {"properties", {{"tags", {"flaky-test", "reliability"}}, {"precision", "high"}}}});
  }
  json results = json::array();
  for (const auto& le : report.entries) {
    const auto& v = le.entry.verdict;
    if (v.verdict == core::VerdictKind::not_flaky || v.verdict == core::VerdictKind::skipped) continue;
    const std::size_t idx = rule_index(v);
    std::string text = v.verdict == core::VerdictKind::flaky     ? "Flaky test " + v.test + ": " + evidence_sentence(v)
                       : v.verdict == core::VerdictKind::failing ? "Test " + v.test + " failed in every run: " + v.evidence.reason
                                                                 : "flakescan could not run " + v.test +
                                                                       (v.evidence.reason.empty() ? "." : ": " + v.evidence.reason);
    json result = {{"ruleId", rules[idx].id},
                   {"ruleIndex", idx},
                   {"level", rules[idx].level},
                   {"message", {{"text", text}}},
                   {"partialFingerprints", {{"flakescanTest/v1", v.test}}}};
    json logical = {{"fullyQualifiedName", v.test}, {"name", le.entry.method}, {"kind", "function"}};
    json location = {{"logicalLocations", json::array({logical})}};
    if (!le.path.empty()) {
      json physical = {{"artifactLocation", {{"uri", le.path}, {"uriBaseId", "%SRCROOT%"}}}};
      if (le.where && le.where->line > 0) physical["region"] = {{"startLine", le.where->line}};
      location["physicalLocation"] = std::move(physical);
    }
    result["locations"] = json::array({location});
    if (auto fixes = repair_fixes(v); !fixes.empty()) result["fixes"] = std::move(fixes);
    json props = {{"runs", {{"total", v.runs.total}, {"passed", v.runs.passed}, {"failed", v.runs.failed}}}};
    if (!v.technique.empty()) props["technique"] = v.technique;
    if (v.category != core::Category::none) props["category"] = std::string(core::category_name(v.category));
    if (auto categories = core::categories_of(v); !categories.empty()) {
      json names = json::array();
      for (auto c : categories) names.push_back(std::string(core::category_name(c)));
      props["categories"] = std::move(names);
    }
    json findings = json::array();
    for (const auto& f : core::findings_of(v)) {
      json fj = {{"technique", f.technique}, {"verdict", std::string(core::verdict_name(f.verdict))}, {"reason", f.evidence.reason}};
      if (f.category != core::Category::none) fj["category"] = std::string(core::category_name(f.category));
      if (!f.not_deciding.empty()) fj["notDeciding"] = f.not_deciding;
      findings.push_back(std::move(fj));
    }
    props["findings"] = std::move(findings);
    if (v.evidence.failing_run) props["failingRun"] = *v.evidence.failing_run;
    if (v.evidence.passing_run) props["passingRun"] = *v.evidence.passing_run;
    if (!v.evidence.reproducer.empty()) props["reproducer"] = v.evidence.reproducer;
    result["properties"] = std::move(props);
    results.push_back(std::move(result));
  }
  json run = {{"tool", {{"driver", {{"name", "flakescan"},
                                    {"version", report.tool_version},
                                    {"semanticVersion", report.tool_version},
                                    {"informationUri", "https://github.com/flakescan/flakescan"},
                                    {"rules", std::move(rule_list)}}}}},
              {"automationDetails", {{"id", "flakescan/" + report.scan.id}}},
              {"invocations", json::array({{{"executionSuccessful", report.scan.state == "completed"}}})},
              {"columnKind", "utf16CodeUnits"},
              {"results", std::move(results)}};
  if (!report.scan.error.empty())
    run["invocations"][0]["toolExecutionNotifications"] =
        json::array({{{"level", "error"}, {"message", {{"text", report.scan.error}}}}});
  json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({std::move(run)})}};
  return log.dump(2) + "\n";
}

}  // namespace flakescan::report
