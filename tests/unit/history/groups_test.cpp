// Merging a sharded scan's group: the union of the shards' verdicts, complete only when every
// shard 1..N completed; a shard run twice counts once (its newest finished scan).
#include <catch2/catch.hpp>

#include "history/groups.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {

history::ShardScan shard_scan(const std::string& id, const std::string& shard, const std::string& state,
                              const std::string& created, std::vector<std::string> tests, const std::string& verdict = "not_flaky") {
  history::ShardScan s;
  s.scan = {.id = id, .state = state, .backend = "local", .techniques = {"rerun"}, .seed = 3, .created_at = created,
            .daemon = "runner-" + shard, .group = "g1", .shard = shard};
  for (const auto& t : tests) s.verdicts.push_back({t, verdict, "", json{{"test", t}, {"verdict", verdict}, {"scan", id}}.dump()});
  return s;
}

}  // namespace

TEST_CASE("a complete group merges every shard's verdicts, sorted by test", "[groups]") {
  auto merged = history::merge_group("g1", {shard_scan("s2", "2/2", "completed", "t2", {"p.B#b", "p.D#d"}, "flaky"),
                                            shard_scan("s1", "1/2", "completed", "t1", {"p.A#a", "p.C#c"})})
                    .value();
  CHECK(merged["scan"]["id"] == "group:g1");
  CHECK(merged["scan"]["state"] == "completed");
  CHECK(merged["group"]["complete"] == true);
  CHECK(merged["group"]["count"] == 2);
  CHECK(merged["group"]["missing"].empty());
  REQUIRE(merged["verdicts"].size() == 4);
  std::vector<std::string> order;
  for (const auto& v : merged["verdicts"]) order.push_back(v["test"]);
  CHECK(order == std::vector<std::string>{"p.A#a", "p.B#b", "p.C#c", "p.D#d"});
  CHECK(merged["verdicts"][1]["verdict"] == "flaky");
  CHECK(merged["group"]["shards"][0]["daemon"] == "runner-1/2");
}

TEST_CASE("a missing or unfinished shard makes the group incomplete, and says which", "[groups]") {
  auto missing = history::merge_group("g1", {shard_scan("s1", "1/3", "completed", "t1", {"p.A#a"}),
                                             shard_scan("s3", "3/3", "interrupted", "t3", {"p.C#c"})})
                     .value();
  CHECK(missing["group"]["complete"] == false);
  CHECK(missing["scan"]["state"] == "interrupted");
  CHECK(missing["group"]["missing"] == json::array({"2/3"}));
  CHECK(missing["verdicts"].size() == 2);  // what the shards found is kept
}

TEST_CASE("a test scanned twice in a group has the newest finished scan's verdict", "[groups]") {
  auto merged = history::merge_group("g1", {shard_scan("new", "1/1", "completed", "t2", {"p.A#a"}, "not_flaky"),
                                            shard_scan("old", "1/1", "completed", "t1", {"p.A#a"}, "flaky")})
                    .value();
  CHECK(merged["group"]["shards"].size() == 2);
  REQUIRE(merged["verdicts"].size() == 1);
  CHECK(merged["verdicts"][0]["scan"] == "new");
  CHECK(merged["group"]["complete"] == true);
  // A scan still running makes the group incomplete; its (absent) verdicts take nothing away.
  auto live = history::merge_group("g1", {shard_scan("old", "1/1", "completed", "t1", {"p.A#a"}, "flaky"),
                                          shard_scan("live", "1/1", "running", "t3", {})})
                  .value();
  CHECK(live["group"]["complete"] == false);
  CHECK(live["verdicts"].size() == 1);
}

TEST_CASE("one shard holds the scans of several modules, and all their verdicts are merged", "[groups]") {
  auto app = shard_scan("app", "1/1", "completed", "t1", {"p.App#a"});
  auto lib = shard_scan("lib", "1/1", "completed", "t2", {"p.Lib#b"}, "flaky");
  app.scan.request = R"({"tests":"p.App"})";
  lib.scan.request = R"({"tests":"p.Lib"})";
  auto merged = history::merge_group("g1", {app, lib}).value();
  CHECK(merged["verdicts"].size() == 2);
  CHECK(merged["group"]["complete"] == true);
  // An interrupted module scan is superseded only by a later completed scan of the same request.
  auto cut = shard_scan("cut", "1/1", "interrupted", "t0", {});
  cut.scan.request = app.scan.request;
  CHECK(history::merge_group("g1", {cut, app, lib}).value()["group"]["complete"] == true);
  cut.scan.request = R"({"tests":"p.Other"})";
  CHECK(history::merge_group("g1", {cut, app, lib}).value()["group"]["complete"] == false);
}

TEST_CASE("shards of different splits in one group are a conflict, and no group is not found", "[groups]") {
  auto merged = history::merge_group("g1", {shard_scan("a", "1/2", "completed", "t1", {"p.A#a"}),
                                            shard_scan("b", "2/2", "completed", "t2", {"p.B#b"}),
                                            shard_scan("c", "1/3", "completed", "t3", {"p.C#c"})})
                    .value();
  CHECK(merged["group"]["complete"] == false);
  CHECK(merged["group"]["conflicts"].size() == 1);
  CHECK(history::merge_group("none", {}).error().code == util::Errc::not_found);
}
