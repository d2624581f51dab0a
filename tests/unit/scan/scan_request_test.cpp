#include <catch2/catch.hpp>

#include "scan/scan_request.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {
const std::vector<std::string> known{"rerun", "order"};
util::Result<scan::ScanRequest> parse(const json& j) { return scan::parse_scan_request(j, known); }
}  // namespace

TEST_CASE("a minimal request gets the documented defaults", "[scan][request]") {
  auto r = parse({{"classpath", "/tmp"}, {"tests", "p.A#one,p.B"}});
  REQUIRE(r);
  CHECK(r->backend == "local");
  CHECK(r->techniques == std::vector<std::string>{"rerun"});
  CHECK(r->budget.runs_per_test == 10);
  CHECK(r->strategy == core::ExploreStrategy::maxdiff);
  CHECK(r->budget.max_runs_per_test == 40);
  CHECK(r->budget.max_seconds_per_test == 120);
  CHECK(r->fresh_jvm_per_run);
  REQUIRE(r->tests.size() == 2);
  CHECK(r->tests[1].is_class());
  CHECK(r->classpath == std::vector<std::string>{"/tmp"});
  // to_json round-trips through the parser.
  auto again = parse(r->to_json());
  REQUIRE(again);
  CHECK(again->to_json() == r->to_json());
}

TEST_CASE("requests with mistakes are refused with the field named", "[scan][request]") {
  struct Case {
    json body;
    std::string says;
  };
  std::vector<Case> cases{
      {json::array(), "JSON object"},
      {{{"tests", "p.A"}}, "'classpath' is required"},
      {{{"classpath", "/tmp"}}, "'tests' is required"},
      {{{"classpath", "/tmp"}, {"tests", 5}}, "'tests' must be"},
      {{{"classpath", "/tmp"}, {"tests", "p.A;rm -rf /"}}, "not a test id"},
      {{{"classpath", "/tmp"}, {"tests", json::array()}}, "at least one test"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"runs", "10"}}, "'runs' must be an integer"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"runs", 0}}, "'runs' must be between"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"techniques", "rerun,magic"}}, "unknown technique 'magic'"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"isolation", "none"}}, "'isolation'"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"tset", "p.A"}}, "unknown field 'tset'"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"budget", {{"max_rusn", 3}}}}, "unknown field 'budget.max_rusn'"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"backend", "ios"}}, "'backend'"},
      {{{"tests", "p.A"}, {"backend", "adb"}}, "'adb' settings are required"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"seed", -1}}, "'seed'"},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"strategy", "random"}}, "'strategy' must be \"flakescanner\", \"maxdiff\" or \"both\""},
      {{{"classpath", "/tmp"}, {"tests", "p.A"}, {"budget", {{"max_runs_per_test", 0}}}}, "'budget.max_runs_per_test' must be between"},
  };
  for (const auto& c : cases) {
    INFO(c.body.dump());
    auto r = parse(c.body);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == util::Errc::invalid_argument);
    CHECK_THAT(r.error().message, Catch::Contains(c.says));
  }
}

TEST_CASE("duplicate tests and techniques are folded", "[scan][request]") {
  auto r = parse({{"classpath", json::array({"/tmp"})}, {"tests", json::array({"p.A#m", "p.A#m"})},
                  {"techniques", json::array({"order", "rerun", "order"})}});
  REQUIRE(r);
  CHECK(r->tests.size() == 1);
  CHECK(r->techniques == std::vector<std::string>{"order", "rerun"});
}

TEST_CASE("working_dir: where the test JVMs run, an existing absolute directory", "[scan][request]") {
  // Seen on marine-api (docs/real-projects.md): its tests open src/test/resources/... relative
  // to the module's directory, as Maven runs them; in the daemon's directory 19 failed.
  auto r = parse({{"classpath", "/tmp"}, {"tests", "p.A"}, {"working_dir", "/tmp"}});
  REQUIRE(r);
  CHECK(r->working_dir == "/tmp");
  auto again = parse(r->to_json());
  REQUIRE(again);
  CHECK(again->working_dir == "/tmp");
  CHECK(parse({{"classpath", "/tmp"}, {"tests", "p.A"}})->working_dir.empty());  // the daemon's own
  for (const auto& [value, says] : std::vector<std::pair<json, std::string>>{
           {json("tmp"), "absolute"}, {json("/no/such/dir"), "not a directory"}, {json(5), "must be a string"}}) {
    auto bad = parse({{"classpath", "/tmp"}, {"tests", "p.A"}, {"working_dir", value}});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("working_dir") != std::string::npos);
    CHECK(bad.error().message.find(says) != std::string::npos);
  }
}

TEST_CASE("strategy and the per-test budget of explore are read and written back", "[scan][request]") {
  auto r = parse({{"classpath", "/tmp"}, {"tests", "p.A"}, {"strategy", "both"},
                  {"budget", {{"max_runs_per_test", 12}, {"max_seconds_per_test", 30}}}});
  REQUIRE(r);
  CHECK(r->strategy == core::ExploreStrategy::both);
  CHECK(r->budget.max_runs_per_test == 12);
  CHECK(r->budget.max_seconds_per_test == 30);
  CHECK(r->to_json()["strategy"] == "both");
  auto again = parse(r->to_json());
  REQUIRE(again);
  CHECK(again->strategy == core::ExploreStrategy::both);
  CHECK(again->budget.max_runs_per_test == 12);
}

TEST_CASE("a replay request names its test and takes 1 to 100 runs, 3 by default", "[scan][request][replay]") {
  auto r = scan::parse_replay_request({{"test", "p.A#one"}});
  REQUIRE(r);
  CHECK(r->test == "p.A#one");
  CHECK(r->runs == 3);
  CHECK(r->to_json() == json{{"test", "p.A#one"}, {"runs", 3}});
  auto five = scan::parse_replay_request({{"test", "p.A#one"}, {"runs", 5}});
  REQUIRE(five);
  CHECK(five->runs == 5);
  for (const json& bad : {json::array(), json{{"runs", 2}}, json{{"test", 7}}, json{{"test", "p.A#one"}, {"runs", 0}},
                          json{{"test", "p.A#one"}, {"runs", 101}}, json{{"test", "p.A#one"}, {"runs", 2.5}},
                          json{{"test", "p.A#one"}, {"repeat", 2}}}) {
    INFO(bad.dump());
    auto refused = scan::parse_replay_request(bad);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == util::Errc::invalid_argument);
  }
}

TEST_CASE("a run budget smaller than rerun needs is said before the first run", "[scan][request]") {
  scan::ScanRequest r;
  r.techniques = {"rerun"};
  r.budget.runs_per_test = 100;
  r.budget.max_runs = 2000;
  // 21 tests x 100 runs: 2,100 wanted, 2,000 allowed; 95 each, 5 of them 96.
  CHECK(scan::budget_warning(r, 21) ==
        "rerun asks for 2100 runs (21 tests x 100), more than the scan's run budget of 2000 (--max-runs): each test gets 95 or 96; "
        "the verdicts say how many were made");
  CHECK(scan::budget_warning(r, 20).empty());  // exactly the budget
  CHECK(scan::budget_warning(r, 0).empty());
  r.budget.max_runs = 50;
  CHECK_THAT(scan::budget_warning(r, 100), Catch::Contains("some tests get no run"));
  r.budget.max_runs = 2000;
  r.budget.runs_per_test = 200;
  CHECK_THAT(scan::budget_warning(r, 20), Catch::Contains("each test gets 100;"));
  // Without rerun, or with every run in one JVM (one run per round), nothing to say.
  r.techniques = {"order"};
  CHECK(scan::budget_warning(r, 100).empty());
  r.techniques = {"rerun"};
  r.fresh_jvm_per_run = false;
  CHECK(scan::budget_warning(r, 100).empty());
}

TEST_CASE("shard and group: a CI matrix job's share, read and written back", "[scan][request][shard]") {
  json base{{"classpath", "/tmp"}, {"tests", "p.A#a"}};
  auto with = [&](json extra) {
    json j = base;
    j.update(extra);
    return parse(j);
  };
  auto r = with({{"shard", "2/4"}, {"group", "ci-991"}});
  INFO((r ? std::string() : r.error().message));
  REQUIRE(r);
  REQUIRE(r->shard);
  CHECK(*r->shard == core::Shard{2, 4});
  CHECK(r->group == "ci-991");
  auto back = r->to_json();
  CHECK(back["shard"] == "2/4");
  CHECK(back["group"] == "ci-991");
  CHECK(parse(back).value().shard == r->shard);
  auto alone = with({{"group", "one"}});  // a group alone is one shard
  REQUIRE(alone);
  CHECK(alone->shard->str() == "1/1");
  CHECK_FALSE(parse(base).value().shard);
  CHECK(with({{"shard", "2/4"}}).error().message.find("needs a 'group'") != std::string::npos);
  CHECK(with({{"shard", "5/4"}, {"group", "g"}}).error().code == util::Errc::invalid_argument);
  CHECK(with({{"shard", 2}, {"group", "g"}}).error().message.find("shard") != std::string::npos);
  CHECK(with({{"shard", "1/2"}, {"group", "a b"}}).error().code == util::Errc::invalid_argument);
  auto since = with({{"new_since", "release/2.x"}});
  REQUIRE(since);
  CHECK(since->new_since == "release/2.x");
  CHECK(since->to_json()["new_since"] == "release/2.x");
  CHECK(with({{"new_since", ""}}).error().message.find("new_since") != std::string::npos);
  CHECK(with({{"new_since", 3}}).error().code == util::Errc::invalid_argument);
}

TEST_CASE("threads: the agent's step limit and the classes it rewrites, defaults, read back", "[scan][request][threads]") {
  auto plain = parse({{"classpath", "/tmp"}, {"tests", "p.A"}});
  REQUIRE(plain);
  CHECK(plain->threads.max_steps == 100000);
  CHECK(plain->threads.include.empty());
  CHECK_FALSE(plain->to_json()["threads"].contains("include"));
  auto r = parse({{"classpath", "/tmp"}, {"tests", "p.A"},
                  {"threads", {{"max_steps", 2000000}, {"include", {"org.apache.derby.", "com.acme.Cache", "a$b._c1"}}}}});
  REQUIRE(r);
  CHECK(r->threads.max_steps == 2000000);
  CHECK(r->threads.include == std::vector<std::string>{"org.apache.derby.", "com.acme.Cache", "a$b._c1"});
  auto again = parse(r->to_json());
  REQUIRE(again);
  CHECK(again->threads.max_steps == 2000000);
  CHECK(again->threads.include == r->threads.include);
}

TEST_CASE("threads: strategy, schedules, bug depth and virtual time, defaults, read back, mistakes refused", "[scan][request][threads]") {
  auto plain = parse({{"classpath", "/tmp"}, {"tests", "p.A"}});
  REQUIRE(plain);
  CHECK(plain->threads.strategy == "pct");
  CHECK(plain->threads.schedules == 100);
  CHECK(plain->threads.depth == 3);
  CHECK(plain->threads.virtual_time);
  auto r = parse({{"classpath", "/tmp"}, {"tests", "p.A"},
                  {"threads", {{"strategy", "pos"}, {"schedules", 50}, {"depth", 4}, {"virtual_time", false}}}});
  REQUIRE(r);
  CHECK(r->threads.strategy == "pos");
  CHECK(r->threads.schedules == 50);
  CHECK(r->threads.depth == 4);
  CHECK_FALSE(r->threads.virtual_time);
  auto again = parse(r->to_json());
  REQUIRE(again);
  CHECK(again->to_json() == r->to_json());
  CHECK(again->threads.strategy == "pos");
  CHECK_FALSE(again->threads.virtual_time);

  struct Case {
    json threads;
    std::string says;
  };
  std::vector<Case> cases{
      {"pct", "'threads' must be an object"},
      {{{"strategy", "fair"}}, "'threads.strategy' must be \"pct\""},
      {{{"strategy", 1}}, "'threads.strategy' must be"},
      {{{"schedules", 0}}, "'threads.schedules' must be between 1 and 10000"},
      {{{"schedules", "100"}}, "'threads.schedules' must be an integer"},
      {{{"depth", 21}}, "'threads.depth' must be between 1 and 20"},
      {{{"virtual_time", "on"}}, "'threads.virtual_time' must be true or false"},
      {{{"seeds", 3}}, "unknown field 'threads.seeds'"},
      {{{"max_steps", 0}}, "'threads.max_steps' must be between 1 and 100000000"},
      {{{"max_steps", "500"}}, "'threads.max_steps' must be an integer"},
      {{{"include", "org.example."}}, "'threads.include' must be a list of 1 to 100 class-name prefixes"},
      {{{"include", json::array()}}, "'threads.include' must be a list"},
      {{{"include", {"org..example"}}}, "'threads.include' must be a list"},
      {{{"include", {"org.example,com.acme"}}}, "'threads.include' must be a list"},
      {{{"include", {"1org"}}}, "'threads.include' must be a list"},
      {{{"include", {1}}}, "'threads.include' must be a list"},
  };
  for (const auto& c : cases) {
    INFO(c.threads.dump());
    auto bad = parse({{"classpath", "/tmp"}, {"tests", "p.A"}, {"threads", c.threads}});
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == util::Errc::invalid_argument);
    CHECK_THAT(bad.error().message, Catch::Contains(c.says));
  }
}
