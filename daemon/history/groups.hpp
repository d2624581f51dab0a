#pragma once
// The verdicts of a sharded scan's group (core/shard.hpp): the union of its shards' verdicts.
// No run of one shard holds a test of another (shards split by class), so each test's verdict
// was decided from every run of the group that reached it: what one machine would have
// decided from the same runs.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "util/error.hpp"

namespace flakescan::history {

// One shard scan of a group and its verdict rows (as stored).
struct ShardScan {
  store::ScanRecord scan;
  std::vector<store::VerdictRow> verdicts;
};

// The group's verdict file: {"schema_version", "scan" (the group as one scan: id "group:G",
// state completed only when every shard 1..N has scans and each completed), "group" {name,
// count, shards (every scan), missing, complete}, "verdicts" (sorted by test)}. A shard may hold
// several scans (one per module or test task of the build); each test's verdict is that of
// the newest finished scan that decided it. A scan that did not complete is superseded by a
// later completed scan of the same request (the job run again). Fails not_found for a group
// with no scan.
util::Result<nlohmann::json> merge_group(const std::string& group, const std::vector<ShardScan>& scans);

// Reads the group's scans and verdicts from the store and merges them.
util::Result<nlohmann::json> group_verdicts(store::Store& store, const std::string& group);

}  // namespace flakescan::history
