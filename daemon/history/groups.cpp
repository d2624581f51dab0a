#include "history/groups.hpp"

#include <algorithm>
#include <map>

#include "core/shard.hpp"

namespace flakescan::history {

namespace {

using nlohmann::json;
using util::Errc;

bool finished(const std::string& state) { return state != "queued" && state != "running"; }

}  // namespace

util::Result<json> merge_group(const std::string& group, const std::vector<ShardScan>& scans) {
  if (scans.empty()) return util::fail(Errc::not_found, "no scan in group '" + group + "'");
  // Oldest first: a later scan's verdict of a test replaces an earlier one's.
  std::vector<const ShardScan*> ordered;
  for (const auto& s : scans) ordered.push_back(&s);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const ShardScan* a, const ShardScan* b) { return a->scan.created_at < b->scan.created_at; });
  int count = 0;
  json conflicts = json::array();
  std::map<int, std::vector<const ShardScan*>> by_shard;
  for (const auto* s : ordered) {
    auto shard = core::parse_shard(s->scan.shard);
    if (!shard) continue;
    if (count == 0) count = shard->count;
    if (shard->count != count) {
      conflicts.push_back(s->scan.id + " is shard " + s->scan.shard + " of a group split in " + std::to_string(count));
      continue;
    }
    by_shard[shard->index].push_back(s);
  }
  // A scan that did not complete is superseded by a later completed scan of the same request
  // (the shard's job run again); any other makes its shard, and the group, incomplete.
  auto superseded = [](const std::vector<const ShardScan*>& list, std::size_t i) {
    for (std::size_t j = i + 1; j < list.size(); ++j)
      if (list[j]->scan.state == "completed" && list[j]->scan.request == list[i]->scan.request) return true;
    return false;
  };
  json shards = json::array(), missing = json::array(), verdicts = json::array();
  bool complete = count > 0 && conflicts.empty();
  std::vector<std::string> techniques;
  std::map<std::string, json> by_test;
  for (int i = 1; i <= count; ++i) {
    auto it = by_shard.find(i);
    if (it == by_shard.end()) {
      missing.push_back(std::to_string(i) + "/" + std::to_string(count));
      complete = false;
      continue;
    }
    const auto& list = it->second;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const auto& s = *list[k];
      bool replaced = superseded(list, k);
      if (s.scan.state != "completed" && !replaced) complete = false;
      json entry{{"shard", s.scan.shard}, {"scan", s.scan.id}, {"state", s.scan.state}, {"daemon", s.scan.daemon},
                 {"runs", s.scan.runs_done}, {"verdicts", s.verdicts.size()}};
      if (replaced) entry["superseded"] = true;
      shards.push_back(std::move(entry));
      if (!finished(s.scan.state)) continue;
      for (const auto& t : s.scan.techniques)
        if (std::find(techniques.begin(), techniques.end(), t) == techniques.end()) techniques.push_back(t);
      for (const auto& v : s.verdicts) by_test[v.test] = json::parse(v.body, nullptr, false);
    }
  }
  for (auto& [test, body] : by_test) verdicts.push_back(std::move(body));
  const auto& first = ordered.front()->scan;
  json scan{{"id", "group:" + group}, {"state", complete ? "completed" : "interrupted"}, {"backend", first.backend},
            {"techniques", techniques}, {"seed", first.seed}, {"created_at", first.created_at},
            {"finished_at", nullptr},
            {"error", complete ? json(nullptr) : json("the group is incomplete: see group.missing and group.shards")}};
  json g{{"name", group}, {"count", count}, {"shards", shards}, {"missing", missing}, {"complete", complete}};
  if (!conflicts.empty()) g["conflicts"] = conflicts;
  return json{{"schema_version", 1}, {"scan", scan}, {"group", g}, {"verdicts", verdicts}};
}

util::Result<json> group_verdicts(store::Store& store, const std::string& group) {
  if (auto ok = core::check_group(group); !ok) return std::unexpected(ok.error());
  auto scans = store.scans_of_group(group);
  if (!scans) return std::unexpected(scans.error());
  std::vector<ShardScan> shards;
  for (auto& scan : *scans) {
    auto rows = store.verdicts(scan.id);
    if (!rows) return std::unexpected(rows.error());
    shards.push_back({std::move(scan), std::move(*rows)});
  }
  return merge_group(group, shards);
}

}  // namespace flakescan::history
