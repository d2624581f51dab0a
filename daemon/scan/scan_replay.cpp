#include "scan/scan_replay.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <map>
#include <vector>

#include "scan/event_log.hpp"
#include "scan/scan_run_log.hpp"
#include "scan/technique_table.hpp"

namespace flakescan::scan {

using nlohmann::json;
using util::Errc;

namespace {

struct ReplayTarget {
  store::ScanRecord record;
  json verdict;                         // the stored verdict of the test
  std::vector<std::string> reproducer;  // the order to run
};

util::Result<ReplayTarget> replay_target(store::Store& store, const std::string& id, const std::string& test) {
  ReplayTarget out;
  auto record = store.scan(id);
  if (!record) return std::unexpected(record.error());
  out.record = std::move(*record);
  auto rows = store.verdicts(id);
  if (!rows) return std::unexpected(rows.error());
  auto row = std::find_if(rows->begin(), rows->end(), [&](const store::VerdictRow& r) { return r.test == test; });
  if (row == rows->end()) return util::fail(Errc::not_found, "scan '" + id + "' has no verdict for " + test);
  out.verdict = json::parse(row->body);
  const json& evidence = out.verdict["evidence"];
  if (evidence.contains("reproducer")) out.reproducer = evidence["reproducer"].get<std::vector<std::string>>();
  else if (evidence.contains("failing_run") && evidence["failing_run"].contains("order"))
    out.reproducer = evidence["failing_run"]["order"].get<std::vector<std::string>>();
  if (out.reproducer.empty())
    return util::fail(Errc::conflict, "the verdict for " + test + " has no failing run to replay");
  return out;
}

// Where the reproducer runs a class again (nio-isolated-class: "1" for t | t).
std::vector<size_t> class_run_starts(const json& evidence, size_t reproducer_size) {
  std::vector<size_t> starts;
  if (!evidence.contains("details") || !evidence["details"].contains("class_run_starts") ||
      !evidence["details"]["class_run_starts"].is_string())
    return starts;
  std::string text = evidence["details"]["class_run_starts"].get<std::string>();
  for (size_t at = 0; at < text.size();) {
    size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    size_t pos = 0;
    auto [end, ec] = std::from_chars(text.data() + at, text.data() + comma, pos);
    if (ec == std::errc{} && end == text.data() + comma && pos > 0 && pos < reproducer_size) starts.push_back(pos);
    at = comma + 1;
  }
  return starts;
}

std::vector<core::RunSpec> replay_specs(const ReplayTarget& target, const std::string& test, int runs_wanted,
                                        std::uint64_t seed) {
  auto starts = class_run_starts(target.verdict["evidence"], target.reproducer.size());
  std::vector<core::RunSpec> specs(static_cast<size_t>(runs_wanted));
  for (int i = 0; i < runs_wanted; ++i) {
    specs[i].tests = target.reproducer;
    specs[i].class_run_starts = starts;
    specs[i].technique = "replay";
    specs[i].purpose = "replay " + std::to_string(i + 1) + "/" + std::to_string(runs_wanted) + " of " + test;
    specs[i].seed = seed;
  }
  return specs;
}

util::Result<std::vector<core::RecordedRun>> run_replays(const ReplayTarget& target, const std::string& test,
                                                         int runs_wanted, const std::vector<core::RunSpec>& specs,
                                                         ScanRunLog& runs) {
  // A technique whose reproducer is a schedule (explore) replays through its table entry.
  std::string technique = target.verdict.value("technique", "");
  auto entry = std::find_if(technique_table().begin(), technique_table().end(),
                            [&](const TechniqueEntry& t) { return t.name == technique && t.replay; });
  if (entry == technique_table().end()) return runs.run_all(specs);
  util::Result<std::vector<core::RecordedRun>> finished = std::vector<core::RecordedRun>{};
  const json& evidence = target.verdict["evidence"];
  auto details = evidence.value("details", json::object()).get<std::map<std::string, std::string>>();
  for (int i = 0; i < runs_wanted && finished; ++i) {
    auto run = entry->replay(test, details, runs);
    if (run) finished->push_back(std::move(*run));
    else finished = std::unexpected(run.error());
  }
  return finished;
}

// A replayed schedule (technique threads): whether the run followed the recorded decisions
// to the end, and where it could not.
json schedule_followed(const core::ThreadSchedule& record) {
  json out{{"exact", record.exact},
           {"followed", record.replay_followed ? json(*record.replay_followed) : json(nullptr)},
           {"diverged_at", record.replay_diverged_at ? json(*record.replay_diverged_at) : json(nullptr)}};
  if (!record.record_error.empty()) out["record_error"] = record.record_error;
  return out;
}

json replay_answer(const std::string& id, const std::string& test, const ReplayTarget& target,
                   const std::vector<core::RecordedRun>& finished, int runs_wanted) {
  const json& failing_run = target.verdict["evidence"].value("failing_run", json::object());
  const std::string failing_signature = failing_run.is_object() ? failing_run.value("signature", "") : "";
  json run_list = json::array();
  bool followed = true, scheduled = false;
  for (const auto& run : finished) {
    std::string outcome = "infra";
    json entry{{"id", run.id}};
    for (const auto& r : run.report.results) {
      if (r.test != test) continue;
      // The test's last occurrence decides (a NIO reproducer runs it twice; the second fails).
      outcome = std::string(core::outcome_name(r.outcome));
      if (core::is_failure(r.outcome) && !failing_signature.empty()) entry["same_failure"] = r.signature == failing_signature;
      if (r.threads) {
        entry["schedule"] = schedule_followed(*r.threads);
        scheduled = true;
        followed = followed && r.threads->record_error.empty() && !r.threads->replay_diverged_at;
      }
    }
    entry["outcome"] = outcome;
    run_list.push_back(std::move(entry));
  }
  int failed = 0;
  for (const auto& r : run_list) failed += r["outcome"] == "fail" || r["outcome"] == "error";
  json answer{{"scan", id}, {"test", test}, {"reproducer", target.reproducer}, {"runs", run_list},
              {"failed", failed}, {"total", runs_wanted}, {"reproduced", failed > 0}};
  if (scheduled) answer["schedule_followed"] = followed;
  return answer;
}

}  // namespace

util::Result<json> replay_verdict(store::Store& store, const std::string& id, const json& body,
                                  const ReplayExecutorFactory& make_executor) {
  auto asked = parse_replay_request(body);
  if (!asked) return std::unexpected(asked.error());
  auto target = replay_target(store, id, asked->test);
  if (!target) return std::unexpected(target.error());
  auto request = parse_scan_request(json::parse(target->record.request), technique_names());
  if (!request) return util::fail(Errc::conflict, "the scan can no longer run: " + request.error().message);
  auto executor = make_executor(*request);
  if (!executor) return std::unexpected(executor.error());
  std::atomic<bool> cancel{false};
  std::atomic<int> done{0}, planned{0};
  EventLog scratch;
  ScanRunLog runs(**executor, RunLogTarget{id, store, scratch, cancel, done, planned}, (*executor)->parallelism(),
                  request->timeout_seconds, std::chrono::steady_clock::time_point::max());
  auto specs = replay_specs(*target, asked->test, asked->runs, request->seed);
  auto finished = run_replays(*target, asked->test, asked->runs, specs, runs);
  if (!finished) return std::unexpected(finished.error());
  return replay_answer(id, asked->test, *target, *finished, asked->runs);
}

}  // namespace flakescan::scan
