#pragma once
// POST /v1/scans bodies, validated (schema/scan-request.schema.json describes them).
// Validation is strict where a mistake would silently change results: unknown fields,
// wrong types, unknown techniques, test ids outside the grammar, missing classpath entries.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/technique.hpp"
#include "core/test_id.hpp"
#include "core/shard.hpp"
#include "util/error.hpp"

namespace flakescan::scan {

struct ScanRequest {
  std::string backend = "local";
  std::vector<std::string> classpath;
  std::vector<core::TestId> tests;
  std::vector<std::string> techniques{"rerun"};
  core::Budget budget;
  bool fresh_jvm_per_run = true;
  std::uint64_t seed = 1;
  core::ExploreStrategy strategy = core::ExploreStrategy::maxdiff;  // explore's strategy
  int timeout_seconds = 120;       // per run
  int parallelism = 0;             // 0: as many runs at once as the machine has cores
  std::vector<std::string> jvm_args;
  std::string working_dir;         // local: the test JVMs' working directory (Maven and Gradle use
                                   // the module's); empty: the daemon's own
  std::vector<std::string> sources; // repair: test source roots (absolute); empty: working_dir
  nlohmann::json adb;              // backend "adb": its settings, checked by that backend
  int shuffle_seeds = 3;           // shuffle: seeded runs per test
  std::string shuffle_mode = "full";  // shuffle: "full" or "one"
  int shuffle_rounds = 0;          // suite: rounds on the shuffling JDK
  core::ThreadsSettings threads;   // threads: strategy, schedules per test, bug depth, virtual time
  std::optional<core::Shard> shard; // run only this shard's share of the tests (core/shard.hpp)
  std::string group;               // the group of a sharded scan (required with shard)
  std::string new_since;           // scan only tests with no CI result on this branch (new in a pull request)

  nlohmann::json to_json() const;
};

// Validates a parsed body; `known_techniques` are the names the daemon has.
util::Result<ScanRequest> parse_scan_request(const nlohmann::json& body,
                                             const std::vector<std::string>& known_techniques);

// What the scan's run budget will cut, said before the first run (event `warning`): rerun
// wants `tests` x `runs` runs in fresh JVMs; more than budget.max_runs leaves each test fewer.
// Empty when the budget is enough.
std::string budget_warning(const ScanRequest& request, std::size_t tests);

// POST /v1/scans/{id}/replays: {"test": "pkg.Class#method", "runs": 1..100 (default 3)}.
struct ReplayRequest {
  std::string test;
  int runs = 3;

  nlohmann::json to_json() const;
};

util::Result<ReplayRequest> parse_replay_request(const nlohmann::json& body);

}  // namespace flakescan::scan
