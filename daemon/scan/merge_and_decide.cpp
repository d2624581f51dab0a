#include "scan/merge_and_decide.hpp"

#include <optional>

#include <nlohmann/json.hpp>

#include "core/deciding.hpp"
#include "scan/verdict_json.hpp"

namespace flakescan::scan {

core::Verdict could_not_run(const std::string& test, const std::string& reason) {
  core::Verdict v;
  v.test = test;
  v.verdict = core::VerdictKind::could_not_run;
  v.evidence.reason = reason;
  return v;
}

void merge_found(std::map<std::string, core::Verdict>& merged, std::vector<core::Verdict>& found) {
  for (auto& v : found) {
    auto it = merged.find(v.test);
    if (it == merged.end()) merged.emplace(v.test, std::move(v));
    else it->second = core::merge_verdicts(it->second, v);
  }
}

std::vector<core::Verdict> decide_verdicts(const std::vector<std::string>& tests,
                                           const std::map<std::string, core::Verdict>& merged,
                                           const core::RunIndex* scan_runs) {
  std::vector<core::Verdict> verdicts;
  for (const auto& test : tests) {
    auto it = merged.find(test);
    if (it == merged.end()) {
      verdicts.push_back(could_not_run(test, "no technique reached this test"));
      continue;
    }
    if (!scan_runs) {
      verdicts.push_back(core::honest_verdict(it->second));
      continue;
    }
    core::Verdict v = core::check_other_runs(core::check_deciding(it->second, scan_runs->runs()), *scan_runs);
    verdicts.push_back(core::with_detection_bound(core::honest_verdict(std::move(v)), *scan_runs));
  }
  return verdicts;
}

std::vector<store::VerdictRow> publish_verdicts(const std::vector<core::Verdict>& verdicts, store::Store& store,
                                                const core::RunIndex* scan_runs, EventLog& events) {
  RunLookup lookup = [&](std::int64_t id) -> std::optional<core::RecordedRun> {
    auto r = store.run(id);
    return r ? std::optional(*r) : std::nullopt;
  };
  std::vector<store::VerdictRow> rows;
  for (const auto& v : verdicts) {
    std::string body = verdict_to_json(v, lookup, scan_runs).dump();
    events.append("verdict", body);
    rows.push_back({v.test, std::string(core::verdict_name(v.verdict)), std::string(core::category_name(v.category)),
                    std::move(body)});
  }
  return rows;
}

}  // namespace flakescan::scan
