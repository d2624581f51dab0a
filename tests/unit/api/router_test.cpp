// The router as a plain function: requests in, responses out, no sockets.
#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>
#include <unistd.h>

#include "api/router.hpp"
#include "support/scan/finished_scan.hpp"
#include "support/scan/scripted_executor.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct RouterFixture {
  fs::path dir = fs::temp_directory_path() / ("flakescan-router-test-" + std::to_string(getpid()));
  std::unique_ptr<store::Store> store;
  std::unique_ptr<scan::ScanManager> scans;
  std::unique_ptr<api::Router> router;

  RouterFixture() {
    fs::remove_all(dir);
    store = store::Store::open(dir / "store.db").value();
    scan::ScanManagerConfig config;
    config.data_dir = dir;
    config.backends["local"] = [](const scan::ScanRequest&, const fs::path&) -> util::Result<std::unique_ptr<core::TestExecutor>> {
      return std::make_unique<testing::ScriptedExecutor>(
          std::vector<std::string>{"p.A#x"}, [](const std::vector<std::string>&, size_t, int) { return core::Outcome::pass; }, 1);
    };
    scans = std::make_unique<scan::ScanManager>(*store, config);
    api::ExtraRoute echo{"POST", "/v1/echo", 8, [](const api::Request& r) -> util::Result<std::string> {
                           if (r.body.empty()) return util::fail(util::Errc::invalid_argument, "empty");
                           return json{{"echo", r.body}}.dump();
                         }};
    router = std::make_unique<api::Router>(*scans, std::vector<api::ExtraRoute>{echo});
  }

  api::Response call(std::string method, std::string target, std::string body = {}) {
    return router->route({std::move(method), std::move(target), std::move(body), "application/json", ""});
  }
};

}  // namespace

TEST_CASE("a scan goes through the router from POST to verdicts", "[api][router]") {
  RouterFixture f;
  auto created = f.call("POST", "/v1/scans", json{{"classpath", "/tmp"}, {"tests", "p.A"}, {"runs", 2}}.dump());
  REQUIRE(created.status == 202);
  std::string id = json::parse(created.body)["id"];
  CHECK(created.headers["Location"] == "/v1/scans/" + id);
  REQUIRE(testing::finished_scan(*f.scans, id));  // its event log closed: the last state is stored
  json status = json::parse(f.call("GET", "/v1/scans/" + id).body);
  CHECK(status["state"] == "completed");
  CHECK(status["progress"]["runs_done"] == 2);
  auto verdicts = f.call("GET", "/v1/scans/" + id + "/verdicts?x=1");
  REQUIRE(verdicts.status == 200);
  CHECK(json::parse(verdicts.body)["verdicts"][0]["verdict"] == "not_flaky");
  auto events = f.call("GET", "/v1/scans/" + id + "/events");
  REQUIRE(events.stream);
  CHECK(events.content_type == "text/event-stream");
  CHECK(f.call("GET", "/v1/scans/" + id + "/events").stream_after == 0);
  auto list = json::parse(f.call("GET", "/v1/scans").body);
  CHECK(list["scans"].size() == 1);
}

TEST_CASE("the router answers bad requests with problem+json", "[api][router]") {
  RouterFixture f;
  auto bad = f.call("POST", "/v1/scans", "{");
  CHECK(bad.status == 400);
  CHECK(bad.content_type == "application/problem+json");
  CHECK(f.call("GET", "/v2/health").status == 404);
  CHECK(f.call("PATCH", "/v1/scans").status == 405);
  CHECK(f.call("GET", "/v1/scans/x/nothing").status == 404);
  auto text = f.router->route({"POST", "/v1/scans", "tests=p.A", "text/plain", ""});
  CHECK(text.status == 400);
  CHECK_THAT(text.body, Catch::Contains("application/json"));
  CHECK(f.router->route({"GET", "/v1/scans/x/events", "", "", "abc"}).status == 404);
}

TEST_CASE("bad threads settings are a 400 problem+json naming the field", "[api][router][threads]") {
  RouterFixture f;
  for (const auto& [threads, says] : {std::pair{json{{"max_steps", 0}}, "'threads.max_steps' must be between 1 and 100000000"},
                                      {json{{"include", {"org..example"}}}, "'threads.include' must be a list of 1 to 100 class-name prefixes"}}) {
    auto bad = f.call("POST", "/v1/scans",
                      json{{"classpath", "/tmp"}, {"tests", "p.A"}, {"techniques", {"threads"}}, {"threads", threads}}.dump());
    INFO(bad.body);
    CHECK(bad.status == 400);
    CHECK(bad.content_type == "application/problem+json");
    CHECK_THAT(bad.body, Catch::Contains(says));
  }
}

TEST_CASE("extra routes get their own body limit and errors", "[api][router]") {
  RouterFixture f;
  CHECK(f.router->body_limit("POST", "/v1/echo?mode=x") == 8);
  CHECK(f.router->body_limit("POST", "/v1/scans") == 1u << 20);
  auto ok = f.call("POST", "/v1/echo", "hi");
  CHECK(ok.status == 200);
  CHECK(json::parse(ok.body)["echo"] == "hi");
  CHECK(f.call("POST", "/v1/echo", "").status == 400);
  CHECK(f.call("GET", "/v1/echo").status == 405);
}

TEST_CASE("extra routes: several methods on one path, prefix routes for ids, full responses", "[api][router]") {
  RouterFixture f;
  std::vector<api::ExtraRoute> routes;
  routes.push_back({.method = "POST", .path = "/v1/things", .respond = [](const api::Request&) -> util::Result<api::Response> {
    api::Response r;
    r.status = 202;
    r.headers["Location"] = "/v1/things/t1";
    r.body = "{}";
    return r;
  }});
  routes.push_back({.method = "GET", .path = "/v1/things", .handler = [](const api::Request&) -> util::Result<std::string> {
    return std::string("{\"things\":[]}");
  }});
  routes.push_back({.method = "GET", .path = "/v1/things", .respond = [](const api::Request& r) -> util::Result<api::Response> {
    if (r.target != "/v1/things/t1") return util::fail(util::Errc::not_found, "no thing at " + r.target);
    api::Response out;
    out.body = "{\"id\":\"t1\"}";
    return out;
  }, .prefix = true});
  api::Router router(*f.scans, routes);
  auto call = [&](std::string method, std::string target) {
    return router.route({std::move(method), std::move(target), "", "application/json", ""});
  };
  auto created = call("POST", "/v1/things");
  CHECK(created.status == 202);
  CHECK(created.headers["Location"] == "/v1/things/t1");
  CHECK(call("GET", "/v1/things").body == "{\"things\":[]}");
  CHECK(call("GET", "/v1/things/t1").body == "{\"id\":\"t1\"}");
  auto missing = call("GET", "/v1/things/t2");
  CHECK(missing.status == 404);
  CHECK(missing.content_type == "application/problem+json");
  CHECK(call("DELETE", "/v1/things").status == 405);
  CHECK(call("POST", "/v1/things/t1").status == 405);
  CHECK(call("GET", "/v1/thingsx").status == 404);  // a prefix route serves only below "path/"
}

TEST_CASE("extra routes outside /v1 (the dashboard at /) come before the /v1 rule", "[api][router]") {
  RouterFixture f;
  std::vector<api::ExtraRoute> routes;
  routes.push_back({.method = "GET", .path = "/", .respond = [](const api::Request&) -> util::Result<api::Response> {
    api::Response r;
    r.content_type = "text/html; charset=utf-8";
    r.body = "<!DOCTYPE html>";
    return r;
  }});
  api::Router router(*f.scans, routes);
  auto call = [&](std::string method, std::string target) {
    return router.route({std::move(method), std::move(target), "", "", ""});
  };
  auto page = call("GET", "/");
  CHECK(page.status == 200);
  CHECK(page.content_type == "text/html; charset=utf-8");
  CHECK(call("GET", "/?x=1").body == "<!DOCTYPE html>");
  CHECK(call("POST", "/").status == 405);
  auto other = call("GET", "/metrics");
  CHECK(other.status == 404);
  CHECK_THAT(other.body, Catch::Contains("the API lives under /v1"));
  CHECK(call("GET", "/v1/health").status == 200);
}
