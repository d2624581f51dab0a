// The CI history resources through the Router, as plain functions (no sockets): imports of
// real-shaped reports, suspects from two CI runs, quarantine formats from verdicts written
// into the store, and every bad input answered as a 4xx problem+json.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "api/history_routes.hpp"
#include "history/history.hpp"
#include "report/junit_import.hpp"
#include "report/report.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/junit/" + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Fixture {
  fs::path dir;
  std::unique_ptr<store::Store> store;
  std::unique_ptr<scan::ScanManager> scans;
  std::unique_ptr<api::Router> router;

  explicit Fixture(const std::string& name)
      : dir(fs::temp_directory_path() / ("flakescan-history-test-" + std::to_string(getpid()) + "-" + name)) {
    fs::remove_all(dir);
    store = store::Store::open(dir / "store.db").value();
    scan::ScanManagerConfig config;
    config.data_dir = dir;
    scans = std::make_unique<scan::ScanManager>(*store, config);
    router = std::make_unique<api::Router>(*scans, api::history_routes(*store));
  }

  api::Response call(std::string method, std::string target, std::string body = {},
                     std::string content_type = "application/xml") {
    return router->route({std::move(method), std::move(target), std::move(body), std::move(content_type), ""});
  }

  json import(const std::string& query, const std::string& file) {
    auto r = call("POST", "/v1/results?" + query, fixture(file));
    INFO(r.body);
    REQUIRE(r.status == 201);
    return json::parse(r.body);
  }

  void verdicts(const std::string& scan_id, const std::vector<store::VerdictRow>& rows) {
    store::ScanRecord r{.id = scan_id, .state = "completed", .request = "{}", .backend = "local", .techniques = {"rerun"}};
    REQUIRE(store->create_scan(r));
    REQUIRE(store->save_verdicts(scan_id, rows));
  }
};

void check_problem(const api::Response& r, int status, const std::string& says) {
  INFO(r.body);
  CHECK(r.status == status);
  CHECK(r.content_type == "application/problem+json");
  auto body = json::parse(r.body, nullptr, false);
  REQUIRE(body.is_object());
  CHECK(body["status"] == status);
  CHECK_THAT(body["detail"].get<std::string>(), Catch::Contains(says));
}

std::map<std::string, json> suspects_by_test(const json& body) {
  std::map<std::string, json> out;
  for (const auto& s : body["suspects"]) out[s["test"]] = s;
  return out;
}

}  // namespace

TEST_CASE("POST /v1/results imports a Surefire report and answers 201 with its counts", "[history][api]") {
  Fixture f("import");
  auto first = f.import("source=gh%2F1234%2Fattempt+1&commit=4f2a9c1&branch=feature%2Fcart", "surefire-reruns.xml");
  CHECK(first["source"] == "gh/1234/attempt 1");
  CHECK(first["commit"] == "4f2a9c1");
  CHECK(first["branch"] == "feature/cart");
  CHECK(first["imported"] == 7);
  CHECK(first["passed"] == 4);
  CHECK(first["failed"] == 2);
  CHECK(first["skipped"] == 1);
  CHECK(first["flaky_by_rerun"] == 1);
  CHECK(first["testcases"] == 7);
  CHECK(first["replaced"].is_null());
  CHECK(first["id"].is_number_integer());

  // The same source again replaces the first import: nothing is counted twice.
  auto again = f.import("source=gh%2F1234%2Fattempt+1&commit=4f2a9c1", "surefire-reruns.xml");
  CHECK(again["replaced"] == first["id"]);
  CHECK(again["id"] != first["id"]);
  CHECK(again["branch"].is_null());
  CHECK(f.store->ci_import_count().value() == 1);
  auto suspects = json::parse(f.call("GET", "/v1/suspects").body);
  REQUIRE(suspects["suspects"].size() == 1);
  CHECK(suspects["suspects"][0]["counts"]["flaky_by_rerun"] == 1);
  CHECK(suspects["suspects"][0]["evidence"].size() == 1);
}

TEST_CASE("suspects from two Gradle CI runs on one commit", "[history][api]") {
  Fixture f("suspects");
  f.import("source=run-1&commit=c0ffee&branch=main", "gradle-retry.xml");
  f.import("source=run-2&commit=c0ffee&branch=main", "gradle-run-2.xml");
  auto r = f.call("GET", "/v1/suspects");
  REQUIRE(r.status == 200);
  CHECK(r.content_type == "application/json");
  auto body = json::parse(r.body);
  CHECK(body["window"] == 20);
  CHECK(body["imports"] == 2);
  auto s = suspects_by_test(body);
  CHECK(s.size() == 2);

  // Passed on the retry in run 1, passed in run 2: flaky by rerun only.
  const auto& retried = s["com.example.login.LoginViewModelTest#showsErrorOnTimeout"];
  CHECK(retried["reasons"] == json::array({"passed_on_rerun"}));
  CHECK(retried["counts"]["passed"] == 2);
  CHECK(retried["counts"]["flaky_by_rerun"] == 1);

  // Passed in run 1, failed in run 2, same commit.
  const auto& logs_in = s["com.example.login.LoginViewModelTest#logsIn"];
  CHECK(logs_in["reasons"] == json::array({"same_commit", "mixed_recently"}));
  CHECK(logs_in["commits"] == json::array({"c0ffee"}));
  CHECK(logs_in["counts"]["failed"] == 1);
  REQUIRE(logs_in["evidence"].size() == 2);
  CHECK(logs_in["evidence"][0]["source"] == "run-2");
  CHECK(logs_in["evidence"][0]["outcome"] == "fail");
  CHECK(logs_in["evidence"][0]["message"] == "kotlinx.coroutines.TimeoutCancellationException: Timed out waiting for 2000 ms");
  CHECK(logs_in["evidence"][1]["source"] == "run-1");

  // Failing every time is not flaky.
  CHECK_FALSE(s.contains("com.example.login.LoginViewModelTest#rejectsEmptyPassword"));

  // A window of one import (run 2) keeps the same-commit evidence only.
  auto narrow = suspects_by_test(json::parse(f.call("GET", "/v1/suspects?window=1").body));
  CHECK(narrow["com.example.login.LoginViewModelTest#logsIn"]["reasons"] == json::array({"same_commit"}));
}

TEST_CASE("GET /v1/quarantine in every format, from the latest verdicts in the store", "[history][api]") {
  Fixture f("quarantine");
  f.verdicts("s-old", {{"demo.A#flaky", "flaky", "concurrency", R"({"evidence":{"reason":"3 out of 10 runs failed"}})"},
                       {"demo.A#fixed", "flaky", "unknown", "{}"},
                       {"demo.B#param[1]", "flaky", "order_dependent", "{}"}});
  f.verdicts("s-new", {{"demo.A#fixed", "not_flaky", "", "{}"}, {"demo.C#gone", "could_not_run", "", "{}"}});

  auto r = f.call("GET", "/v1/quarantine");
  REQUIRE(r.status == 200);
  CHECK(r.content_type == "application/json");
  auto body = json::parse(r.body);
  CHECK(body["count"] == 2);
  REQUIRE(body["tests"].size() == 2);
  CHECK(body["tests"][0]["test"] == "demo.A#flaky");
  CHECK(body["tests"][0]["category"] == "concurrency");
  CHECK(body["tests"][0]["scan"] == "s-old");
  CHECK(body["tests"][0]["reason"] == "3 out of 10 runs failed");
  CHECK(body["tests"][0]["links"]["verdicts"] == "/v1/scans/s-old/verdicts");
  CHECK(body["tests"][1]["test"] == "demo.B#param[1]");
  CHECK(f.call("GET", "/v1/quarantine?format=json").body == r.body);

  auto txt = f.call("GET", "/v1/quarantine?format=notTestFile");
  REQUIRE(txt.status == 200);
  CHECK(txt.content_type == "text/plain; charset=utf-8");
  CHECK(txt.body == "demo.A#flaky\ndemo.B#param\n");  // a parameterised test as a whole method

  auto gradle = f.call("GET", "/v1/quarantine?format=gradle");
  REQUIRE(gradle.status == 200);
  CHECK_THAT(gradle.body, Catch::Contains("    'demo.A.flaky',\n") && Catch::Contains("    'demo.B.param[*',\n") &&
                              Catch::Contains("excludeTestsMatching") && Catch::Contains("(scan s-old)"));
  CHECK_THAT(gradle.body, !Catch::Contains("demo.A.fixed"));

  // The same text the report layer writes for a verdict file with these flaky tests.
  report::Report rep;
  rep.scan.id = "s-old";
  for (const char* t : {"demo.A#flaky", "demo.B#param[1]"}) {
    report::LocatedEntry le;
    le.entry.verdict.verdict = core::VerdictKind::flaky;
    std::string id = t;
    le.entry.class_name = id.substr(0, id.find('#'));
    le.entry.method = id.substr(id.find('#') + 1);
    rep.entries.push_back(le);
  }
  CHECK(gradle.body == report::render_quarantine_gradle(rep));
  CHECK(txt.body == report::render_quarantine_txt(rep));

  // A later scan that finds the last ones not flaky empties the list.
  f.verdicts("s-newest", {{"demo.A#flaky", "not_flaky", "", "{}"}, {"demo.B#param[1]", "not_flaky", "", "{}"}});
  CHECK(json::parse(f.call("GET", "/v1/quarantine").body)["count"] == 0);
  CHECK(f.call("GET", "/v1/quarantine?format=notTestFile").body.empty());
}

TEST_CASE("bad history requests are 4xx problem+json naming the problem", "[history][api]") {
  Fixture f("bad");
  std::string xml = fixture("surefire-reruns.xml");
  check_problem(f.call("POST", "/v1/results", xml), 400, "'source' is required");
  check_problem(f.call("POST", "/v1/results?source=", xml), 400, "'source' is required");
  check_problem(f.call("POST", "/v1/results?source=a&sauce=b", xml), 400, "unknown query parameter 'sauce'");
  check_problem(f.call("POST", "/v1/results?source=a&source=b", xml), 400, "given twice");
  check_problem(f.call("POST", "/v1/results?source=a%2", xml), 400, "percent-encoding");
  check_problem(f.call("POST", "/v1/results?source=a%0Ab", xml), 400, "control character");
  check_problem(f.call("POST", "/v1/results?source=a&commit=ab%20cd", xml), 400, "'commit' holds a space");
  check_problem(f.call("POST", "/v1/results?source=" + std::string(300, 'x'), xml), 400, "longer than 256");
  check_problem(f.call("POST", "/v1/results?source=a", xml, "application/json"), 400, "JUnit XML report");
  check_problem(f.call("POST", "/v1/results?source=a", fixture("truncated.xml")), 400, "not well-formed XML");
  check_problem(f.call("POST", "/v1/results?source=a", fixture("not-junit.xml")), 400, "root is <project>");
  check_problem(f.call("POST", "/v1/results?source=a", fixture("empty-suite.xml")), 400, "holds no <testcase>");
  check_problem(f.call("GET", "/v1/results"), 405, "not allowed");
  check_problem(f.call("GET", "/v1/suspects?window=abc"), 400, "whole number");
  check_problem(f.call("GET", "/v1/suspects?window=0"), 400, "between 1 and");
  check_problem(f.call("GET", "/v1/suspects?window=-1"), 400, "whole number");
  check_problem(f.call("GET", "/v1/suspects?limit=3"), 400, "unknown query parameter 'limit'");
  check_problem(f.call("GET", "/v1/quarantine?format=csv"), 400, "json, notTestFile or gradle");
  check_problem(f.call("DELETE", "/v1/quarantine"), 405, "not allowed");
  // Nothing bad was stored.
  CHECK(f.store->ci_import_count().value() == 0);
  // text/xml and a charset are fine; the route's body limit is the importer's.
  CHECK(f.call("POST", "/v1/results?source=a", xml, "text/xml; charset=UTF-8").status == 201);
  CHECK(f.router->body_limit("POST", "/v1/results?source=a") == report::max_junit_report_bytes);
}

TEST_CASE("GET /v1/groups/{group}/verdicts merges the shards written to the store", "[history][api][groups]") {
  Fixture f("groups");
  auto shard = [&](const std::string& id, const std::string& which, const std::string& test, const std::string& verdict) {
    store::ScanRecord r{.id = id, .state = "completed", .request = "{}", .backend = "local", .techniques = {"rerun"},
                        .daemon = "runner-" + which, .group = "ci-77", .shard = which};
    REQUIRE(f.store->create_scan(r));
    REQUIRE(f.store->save_verdicts(id, {{test, verdict, "", json{{"test", test}, {"verdict", verdict}}.dump()}}));
  };
  shard("s1", "1/2", "p.A#a", "flaky");
  auto half = f.call("GET", "/v1/groups/ci-77/verdicts");
  REQUIRE(half.status == 200);
  CHECK(json::parse(half.body)["group"]["missing"] == json::array({"2/2"}));
  shard("s2", "2/2", "p.B#b", "not_flaky");
  auto whole = f.call("GET", "/v1/groups/ci-77/verdicts");
  REQUIRE(whole.status == 200);
  auto body = json::parse(whole.body);
  CHECK(body["group"]["complete"] == true);
  CHECK(body["verdicts"].size() == 2);
  CHECK(body["scan"]["state"] == "completed");
  check_problem(f.call("GET", "/v1/groups/nobody/verdicts"), 404, "no scan in group 'nobody'");
  check_problem(f.call("GET", "/v1/groups/bad%20name/verdicts"), 400, "must be 1-128 characters");
  check_problem(f.call("GET", "/v1/groups/ci-77/other"), 404, "GET /v1/groups/{group}/verdicts");
}
