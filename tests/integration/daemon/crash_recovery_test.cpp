// A daemon killed with SIGKILL mid-scan keeps every run it reported finished; restarted on
// the same store it marks the scan interrupted and serves new scans.
#include <catch2/catch.hpp>

#include <set>
#include <thread>

#include "store/store.hpp"
#include "support/daemon/daemon_process.hpp"

using namespace flakescan;
using nlohmann::json;

TEST_CASE("SIGKILL mid-scan loses no finished run", "[integration][crash]") {
  auto dir = testing::fresh_dir("crash");
  std::string id;
  std::set<std::int64_t> reported;
  {
    testing::DaemonProcess daemon(dir);
    json body{{"classpath", testing::jvm_basic_classpath()},
              {"tests", "demo.basic.MathTest,demo.basic.StringsTest#joins"},
              {"runs", 40}};
    auto submitted = daemon.client().request("POST", "/v1/scans", body.dump());
    REQUIRE(submitted);
    REQUIRE(submitted->status == 202);
    id = json::parse(submitted->body)["id"];
    auto streamed = daemon.client().events("/v1/scans/" + id + "/events", [&](const std::string& type, const std::string& data) {
      if (type != "run_finished") return true;
      reported.insert(json::parse(data)["run"].get<std::int64_t>());
      if (reported.size() < 6) return true;
      daemon.kill_hard();  // as a crash would: no shutdown code runs
      return false;
    });
    REQUIRE(streamed);
  }
  REQUIRE(reported.size() >= 6);

  {
    auto store = store::Store::open(dir / "flakescan.db");
    REQUIRE(store);
    auto runs = (*store)->runs_of_scan(id);
    REQUIRE(runs);
    std::set<std::int64_t> stored;
    for (const auto& run : *runs) {
      stored.insert(run.id);
      // Never half a run: every stored run has the result of its one test.
      REQUIRE(run.report.results.size() == 1);
      CHECK(run.report.results[0].outcome == core::Outcome::pass);
    }
    for (auto r : reported) {
      INFO("run " << r);
      CHECK(stored.contains(r));
    }
    CHECK((*store)->scan(id)->state == "running");  // as the kill left it
  }

  testing::DaemonProcess restarted(dir);
  auto status = restarted.get_json("/v1/scans/" + id);
  CHECK(status["state"] == "interrupted");
  CHECK(status["progress"]["runs_done"].get<int>() >= int(reported.size()));
  auto again = restarted.run_scan({{"classpath", testing::jvm_basic_classpath()}, {"tests", "demo.basic.MathTest#adds"}, {"runs", 2}});
  CHECK(again["state"] == "completed");
}

TEST_CASE("SIGTERM stops the daemon gracefully and interrupts its scan", "[integration][crash]") {
  auto dir = testing::fresh_dir("sigterm");
  testing::DaemonProcess daemon(dir);
  json body{{"classpath", testing::build_path("tests/fixtures/jvm-infra.jar").string() + ":/usr/share/java/junit4.jar"},
            {"tests", "fixture.infra.InfraTest#hangs"}, {"runs", 4}};
  auto submitted = daemon.client().request("POST", "/v1/scans", body.dump());
  REQUIRE(submitted);
  std::string id = json::parse(submitted->body)["id"];
  // Wait until its JVMs run, then stop the daemon.
  for (int i = 0; i < 100 && daemon.get_json("/v1/scans/" + id)["state"] != "running"; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto started = std::chrono::steady_clock::now();
  CHECK(daemon.terminate() == 0);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
  auto store = store::Store::open(dir / "flakescan.db").value();
  CHECK(store->scan(id)->state == "interrupted");
  auto jvms = util::run_capture({"sh", "-c", "pgrep -f '[j]ava.*flakescan-test-sigterm' | wc -l"}, std::chrono::seconds(5));
  REQUIRE(jvms);
  CHECK(std::stoi(*jvms) == 0);
}
