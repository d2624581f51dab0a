#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>
#include <unistd.h>

#include "scan/scan_manager.hpp"
#include "support/scan/scripted_executor.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> suite{"p.A#stable", "p.A#flaky", "p.B#broken"};

// With one run at a time, p.A#flaky gets runs 1, 4, 7, ...: it fails on the odd ones. p.B#broken always fails.
core::Outcome outcome(const std::vector<std::string>& tests, size_t i, int run) {
  if (tests[i] == "p.A#flaky") return run % 2 == 1 ? core::Outcome::fail : core::Outcome::pass;
  if (tests[i] == "p.B#broken") return core::Outcome::error;
  return core::Outcome::pass;
}

struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("flakescan-scan-test-" + std::to_string(getpid()));
  std::unique_ptr<store::Store> store;
  std::unique_ptr<scan::ScanManager> manager;

  Fixture() {
    fs::remove_all(dir);
    store = store::Store::open(dir / "store.db").value();
    scan::ScanManagerConfig config;
    config.data_dir = dir;
    config.backends["local"] = [](const scan::ScanRequest&, const fs::path&) -> util::Result<std::unique_ptr<core::TestExecutor>> {
      return std::make_unique<testing::ScriptedExecutor>(suite, outcome, 1);
    };
    manager = std::make_unique<scan::ScanManager>(*store, config);
  }

  store::ScanRecord wait(const std::string& id) {
    for (int i = 0; i < 500; ++i) {
      auto r = manager->get(id).value();
      if (r.state != "queued" && r.state != "running") return r;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("scan did not finish");
    return {};
  }
};

scan::ScanRequest request(std::vector<std::string> ids) {
  json body{{"classpath", "/tmp"}, {"tests", ids}, {"runs", 6}};
  return scan::parse_scan_request(body, {"rerun"}).value();
}

}  // namespace

TEST_CASE("a scan runs, records every run and produces a verdict file", "[scan][manager]") {
  Fixture f;
  auto submitted = f.manager->submit(request({"p.A", "p.B#broken", "p.C#missing"}));
  REQUIRE(submitted);
  auto done = f.wait(submitted->id);
  CHECK(done.state == "completed");
  CHECK(done.runs_done == 18);
  CHECK(done.runs_planned == 18);
  CHECK(f.store->runs_of_scan(submitted->id)->size() == 18);

  auto file = f.manager->verdict_file(submitted->id);
  REQUIRE(file);
  std::map<std::string, json> by_test;
  for (const auto& v : (*file)["verdicts"]) by_test[v["test"]] = v;
  REQUIRE(by_test.size() == 4);
  CHECK(by_test["p.A#flaky"]["verdict"] == "flaky");
  CHECK(by_test["p.A#flaky"]["evidence"]["passing_run"]["outcome"] == "pass");
  CHECK(by_test["p.A#flaky"]["evidence"]["failing_run"]["outcome"] == "fail");
  CHECK(by_test["p.A#stable"]["verdict"] == "not_flaky");
  CHECK(by_test["p.B#broken"]["verdict"] == "failing");  // fails every run: broken, never not_flaky
  CHECK(by_test["p.C#missing"]["verdict"] == "could_not_run");
  CHECK(by_test["p.C#missing"]["evidence"]["reason"] == "no test p.C#missing");
  CHECK((*file)["scan"]["state"] == "completed");

  // The event log tells the same story.
  auto events = f.manager->events(submitted->id).value();
  CHECK(events->closed());
  int verdict_events = 0;
  for (const auto& e : events->since(0)) verdict_events += e.type == "verdict";
  CHECK(verdict_events == 4);
}

TEST_CASE("replays rerun the failing order and say whether the failure came back", "[scan][manager]") {
  Fixture f;
  auto submitted = f.manager->submit(request({"p.A#stable", "p.B#broken"}));
  REQUIRE(submitted);
  f.wait(submitted->id);
  auto replay = f.manager->replay(submitted->id, {{"test", "p.B#broken"}, {"runs", 2}});
  REQUIRE(replay);
  CHECK((*replay)["reproduced"] == true);
  CHECK((*replay)["failed"] == 2);
  CHECK((*replay)["reproducer"] == json::array({"p.B#broken"}));
  // A verdict without a failing run has nothing to replay.
  auto none = f.manager->replay(submitted->id, {{"test", "p.A#stable"}});
  REQUIRE_FALSE(none);
  CHECK(none.error().code == util::Errc::conflict);
  CHECK(f.manager->replay(submitted->id, {{"test", "p.Z#z"}}).error().code == util::Errc::not_found);
  CHECK(f.manager->replay(submitted->id, {{"tset", "x"}}).error().code == util::Errc::invalid_argument);
  CHECK(f.manager->replay("nope", {{"test", "p.A#stable"}}).error().code == util::Errc::not_found);
}

TEST_CASE("unknown scans are not found; verdicts of unknown scans too", "[scan][manager]") {
  Fixture f;
  CHECK(f.manager->get("nope").error().code == util::Errc::not_found);
  CHECK(f.manager->verdict_file("nope").error().code == util::Errc::not_found);
  CHECK(f.manager->cancel("nope").error().code == util::Errc::not_found);
  CHECK(f.manager->events("nope").error().code == util::Errc::not_found);
}
