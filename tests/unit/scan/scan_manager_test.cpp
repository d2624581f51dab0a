#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <unistd.h>

#include <sqlite3.h>

#include "scan/scan_manager.hpp"
#include "support/scan/finished_scan.hpp"
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
    auto record = testing::finished_scan(*manager, id);
    if (!record) FAIL(record.error().message);
    return *record;
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
  // The served text splices the stored verdicts in: byte for byte what dumping the file gives.
  CHECK(f.manager->verdict_file_text(submitted->id).value() == file->dump());
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

  // The event log tells the same story. The scan's worker closes it right after storing the
  // final state, so the test joins the workers (shutdown) before it reads the log.
  auto events = f.manager->events(submitted->id).value();
  f.manager->shutdown();
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

// Found by bench/crash_drill: when the disk filled up under a running scan, the scan ended but
// the store could not take its final state, so GET /v1/scans/{id} said `running` for ever.
// Here another connection holds the store's write lock instead of a full disk: every write
// of the scan is refused (SQLITE_BUSY after the store's 5 s busy timeout, so this test takes
// about 30 s), reads still work.
TEST_CASE("a state the store refuses is served instead of the stale one, and stored once the store takes writes",
          "[scan][manager]") {
  fs::path dir = fs::temp_directory_path() / ("flakescan-scan-unsaved-" + std::to_string(getpid()));
  fs::remove_all(dir);
  auto store = store::Store::open(dir / "store.db").value();
  std::promise<void> entered, go;
  std::shared_future<void> go_signal = go.get_future().share();
  scan::ScanManagerConfig config;
  config.data_dir = dir;
  config.backends["local"] = [&](const scan::ScanRequest&, const fs::path&) -> util::Result<std::unique_ptr<core::TestExecutor>> {
    return std::make_unique<testing::ScriptedExecutor>(
        suite,
        [&](const std::vector<std::string>&, size_t, int run) {
          if (run == 0) {
            entered.set_value();
            go_signal.wait();
          }
          return core::Outcome::pass;
        },
        1);
  };
  scan::ScanManager manager(*store, config);
  auto submitted = manager.submit(scan::parse_scan_request(json{{"classpath", "/tmp"}, {"tests", "p.A#stable"}, {"runs", 1}}, {"rerun"}).value());
  REQUIRE(submitted);
  const std::string id = submitted->id;
  auto log = manager.events(id).value();
  REQUIRE(entered.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready);

  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open((dir / "store.db").c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr) == SQLITE_OK);
  go.set_value();
  log->wait_closed(std::chrono::seconds(60));
  REQUIRE(log->closed());  // the scan ended (its run could not be recorded)

  auto served = manager.get(id).value();
  CHECK(served.state == "failed");
  CHECK_THAT(served.error, Catch::Contains("the store could not record this state"));
  CHECK_FALSE(served.finished_at.empty());
  CHECK(manager.list(10).value().at(0).state == "failed");  // (each read retries the write: 5 s busy each)

  REQUIRE(sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(other);
  CHECK(store->scan(id)->state == "running");  // as the refused writes left it ...
  CHECK(manager.get(id)->state == "failed");   // ... until the next read retries the write
  CHECK(store->scan(id)->state == "failed");
  CHECK_FALSE(store->scan(id)->finished_at.empty());
}

TEST_CASE("a request the backend refuses is answered with its reason and queues nothing", "[scan][manager]") {
  // Validation that needs the backend (the local one: the classpath exists) goes through the
  // check it hands the scan layer, not into the backend's code.
  fs::path dir = fs::temp_directory_path() / ("flakescan-scan-check-" + std::to_string(getpid()));
  fs::remove_all(dir);
  auto store = store::Store::open(dir / "store.db").value();
  scan::ScanManagerConfig config;
  config.data_dir = dir;
  config.backends["local"] = [](const scan::ScanRequest&, const fs::path&) -> util::Result<std::unique_ptr<core::TestExecutor>> {
    return util::fail(util::Errc::internal, "not reached: the check refuses first");
  };
  std::vector<std::string> checked;
  config.checks["local"] = [&](const scan::ScanRequest& r) -> util::Result<void> {
    checked.push_back(r.classpath.front());
    return util::fail(util::Errc::invalid_argument, "'classpath' has entries that do not exist: /tmp");
  };
  scan::ScanManager manager(*store, config);
  auto refused = manager.submit(request({"p.A"}));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == util::Errc::invalid_argument);
  CHECK(refused.error().message == "'classpath' has entries that do not exist: /tmp");
  CHECK(checked == std::vector<std::string>{"/tmp"});
  CHECK(manager.list(10)->empty());
  manager.shutdown();
  fs::remove_all(dir);
}

TEST_CASE("a nio verdict's passing_run shows the test's pass and its failing_run the failure, though both are one run",
          "[scan][manager]") {
  // The test passes the first time in a JVM and fails every later time (a NIO test): the nio
  // run holds a pass and a failure of the same test. Before, both keys showed the failure.
  fs::path dir = fs::temp_directory_path() / ("flakescan-scan-nio-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  auto store = store::Store::open(dir / "store.db").value();
  scan::ScanManagerConfig config;
  config.data_dir = dir;
  config.backends["local"] = [](const scan::ScanRequest&, const fs::path&) -> util::Result<std::unique_ptr<core::TestExecutor>> {
    auto once = [](const std::vector<std::string>& tests, size_t i, int) {
      for (size_t k = 0; k < i; ++k)
        if (tests[k] == tests[i]) return core::Outcome::fail;  // not its first time in this JVM
      return core::Outcome::pass;
    };
    return std::make_unique<testing::ScriptedExecutor>(std::vector<std::string>{"p.N#once"}, once, 1);
  };
  scan::ScanManager manager(*store, config);
  json body{{"classpath", "/tmp"}, {"tests", {"p.N#once"}}, {"techniques", {"nio"}}, {"runs", 2}};
  auto parsed = scan::parse_scan_request(body, {"nio"});
  REQUIRE(parsed);
  auto submitted = manager.submit(*parsed);
  REQUIRE(submitted);
  auto done = testing::finished_scan(manager, submitted->id);
  REQUIRE(done);
  auto file = manager.verdict_file(submitted->id);
  REQUIRE(file);
  REQUIRE((*file)["verdicts"].size() == 1);
  const json& v = (*file)["verdicts"][0];
  INFO(v.dump());
  CHECK(v["verdict"] == "flaky");
  CHECK(v["evidence"]["passing_run"]["outcome"] == "pass");
  CHECK(v["evidence"]["failing_run"]["outcome"] == "fail");
  fs::remove_all(dir);
}
