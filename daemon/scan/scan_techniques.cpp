#include "scan/scan_techniques.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "scan/merge_and_decide.hpp"
#include "scan/technique_table.hpp"
#include "util/log.hpp"

namespace flakescan::scan {

SelectedTests select_tests(core::TestExecutor& executor, const ScanRequest& request, const std::string& scan_id,
                           store::Store& store, EventLog& events, const std::atomic<bool>& cancel) {
  SelectedTests out;
  auto discovery = executor.discover(request.tests, cancel);
  if (!discovery && discovery.error().code == util::Errc::cancelled) {
    out.cancelled = true;
    return out;
  }
  if (!discovery) {
    out.error = "could not list the tests: " + discovery.error().message;
    return out;
  }
  out.tests = discovery->tests;
  for (const auto& [id, reason] : discovery->missing)
    if (!request.shard || core::in_shard(id, *request.shard)) out.missing.push_back(could_not_run(id, reason));
  if (request.shard) {
    out.tests = core::shard_share(out.tests, *request.shard);
    util::logger("scan")->info("scan {}: shard {} of group {}: {} tests", scan_id, request.shard->str(), request.group,
                               out.tests.size());
  }
  if (!request.new_since.empty()) out.tests = new_since(store, request.new_since, std::move(out.tests), events, scan_id);
  return out;
}

std::vector<std::string> new_since(store::Store& store, const std::string& branch, std::vector<std::string> tests,
                                   EventLog& events, const std::string& scan_id) {
  auto known = store.tests_on_branch(branch);
  std::string message;
  if (!known) {
    message = "could not read the CI history of branch '" + branch + "' (" + known.error().message +
              "): every selected test counts as new";
  } else if (known->imports == 0) {
    message = "no CI results of branch '" + branch + "' in the history (flakescan import-results --branch " + branch +
              "): every selected test counts as new";
  } else {
    std::set<std::string> seen(known->tests.begin(), known->tests.end());
    std::vector<std::string> fresh;
    for (auto& t : tests)
      if (!seen.contains(t)) fresh.push_back(std::move(t));
    message = std::to_string(fresh.size()) + " of the selected tests are new since branch '" + branch + "' (" +
              std::to_string(known->imports) + " imports of it): only they are scanned";
    tests = std::move(fresh);
  }
  util::logger("scan")->info("scan {}: {}", scan_id, message);
  events.append("warning", nlohmann::json{{"message", message}}.dump());
  return tests;
}

namespace {

core::TechniqueInput technique_input(core::TestExecutor& executor, const ScanRequest& request,
                                     const std::vector<std::string>& tests, const std::shared_ptr<core::Tools>& tools) {
  core::TechniqueInput input{tests, request.budget, request.seed, request.fresh_jvm_per_run, request.strategy};
  input.classpath = executor.process_classpath();
  std::error_code cwd_error;
  input.project_dir = !request.working_dir.empty() ? request.working_dir : std::filesystem::current_path(cwd_error).string();
  input.source_roots = request.sources;
  input.shuffle_seeds = request.shuffle_seeds;
  input.shuffle_mode = request.shuffle_mode;
  input.shuffle_rounds = request.shuffle_rounds;
  input.threads = request.threads;
  input.tools = tools;
  return input;
}

}  // namespace

TechniqueResults run_techniques(core::TestExecutor& executor, const ScanRequest& request,
                                const std::vector<std::string>& tests, const RunLogTarget& target,
                                const std::shared_ptr<core::Tools>& tools) {
  int parallelism = request.parallelism > 0 ? request.parallelism : executor.parallelism();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(request.budget.max_seconds);
  ScanRunLog runs(executor, target, parallelism, request.timeout_seconds, deadline);
  core::TechniqueInput input = technique_input(executor, request, tests, tools);
  TechniqueResults out;
  for (const auto& technique : technique_table()) {
    if (std::find(request.techniques.begin(), request.techniques.end(), technique.name) == request.techniques.end())
      continue;
    auto found = technique.run(input, runs);
    if (!found && found.error().code == util::Errc::cancelled) {
      out.cancelled = true;
      return out;
    }
    if (!found) {
      util::logger("scan")->error("scan {}: technique {} failed: {}", target.scan_id, technique.name,
                                  util::describe(found.error()));
      out.error += (out.error.empty() ? "" : "; ") + std::string(technique.name) + ": " + found.error().message;
      continue;
    }
    input.earlier.insert(input.earlier.end(), found->begin(), found->end());  // for `repair`
    merge_found(out.merged, *found);
  }
  return out;
}

}  // namespace flakescan::scan
