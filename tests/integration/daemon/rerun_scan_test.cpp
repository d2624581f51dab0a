// The vertical slice end to end: the daemon, over real HTTP, scans the jvm-basic example with
// real JVMs and calls the async-wait test flaky with a passing and a failing run as evidence.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/daemon/daemon_process.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {

std::map<std::string, json> by_test(const json& file) {
  std::map<std::string, json> out;
  for (const auto& v : file["verdicts"]) out[v["test"]] = v;
  return out;
}

}  // namespace

TEST_CASE("rerun finds the async-wait test flaky and leaves stable tests alone", "[integration][rerun]") {
  testing::DaemonProcess daemon(testing::fresh_dir("rerun"));
  json body{{"classpath", testing::jvm_basic_classpath()},
            {"tests", json::array({"demo.basic.AsyncPriceTest", "demo.basic.MathTest", "demo.basic.StringsTest",
                                   "demo.basic.ConfigTest#readsLoadedConfig", "demo.basic.Missing"})},
            {"runs", 16}};  // the async test fails about every other run: both outcomes in 16 but for 1 in 30,000
  auto status = daemon.run_scan(body);
  REQUIRE(status["state"] == "completed");
  std::string id = status["id"];
  CHECK(status["progress"]["runs_done"] == 16 * 8);
  CHECK(status["progress"]["tests"] == 8);

  auto file = daemon.get_json("/v1/scans/" + id + "/verdicts");
  CHECK(file["schema_version"] == 1);
  auto v = by_test(file);
  REQUIRE(v.size() == 9);

  const auto& async = v["demo.basic.AsyncPriceTest#showsPriceAfterRefresh"];
  INFO(async.dump(2));
  CHECK(async["verdict"] == "flaky");
  CHECK(async["category"] == "unknown");
  CHECK(async["evidence"]["passing_run"]["outcome"] == "pass");
  CHECK(async["evidence"]["failing_run"]["outcome"] == "fail");
  CHECK(async["evidence"]["failing_run"]["message"] == "expected:<42> but was:<null>");
  CHECK(async["evidence"]["failures"][0]["signature"] ==
        "java.lang.AssertionError at demo.basic.AsyncPriceTest.showsPriceAfterRefresh:17");
  CHECK(async["runs"]["passed"].get<int>() + async["runs"]["failed"].get<int>() == 16);

  for (const char* stable : {"demo.basic.AsyncPriceTest#showsPriceAfterRefreshCompletes", "demo.basic.MathTest#adds",
                             "demo.basic.MathTest#dividesByZeroThrows", "demo.basic.StringsTest#joins"}) {
    INFO(stable);
    CHECK(v[stable]["verdict"] == "not_flaky");
    CHECK(v[stable]["runs"]["passed"] == 16);
  }
  // Alone, the brittle test always fails: consistently failing is broken, not flaky.
  CHECK(v["demo.basic.ConfigTest#readsLoadedConfig"]["verdict"] == "failing");
  CHECK(v["demo.basic.ConfigTest#readsLoadedConfig"]["runs"]["failed"] == 16);
  // @Ignore: skipped in every run, a verdict of its own (not a scan that could not run it).
  CHECK(v["demo.basic.StringsTest#ignored"]["verdict"] == "skipped");
  CHECK(v["demo.basic.StringsTest#ignored"]["runs"]["skipped"] == 16);
  CHECK_THAT(v["demo.basic.StringsTest#ignored"]["evidence"]["reason"].get<std::string>(),
             Catch::Contains("skipped in all 16 runs") && Catch::Contains("kept to show a skipped test"));
  CHECK(v["demo.basic.Missing"]["verdict"] == "could_not_run");

  // Replaying the brittle test's failing run brings the failure back, and is recorded.
  auto replay = daemon.client().request("POST", "/v1/scans/" + id + "/replays",
                                        json{{"test", "demo.basic.ConfigTest#readsLoadedConfig"}, {"runs", 2}}.dump());
  REQUIRE(replay);
  REQUIRE(replay->status == 201);
  auto result = json::parse(replay->body);
  CHECK(result["reproduced"] == true);
  CHECK(result["failed"] == 2);
  CHECK(daemon.get_json("/v1/scans/" + id)["progress"]["runs_done"] == 16 * 8 + 2);

  // The event stream of a finished scan replays its verdicts and ends.
  std::vector<std::string> types;
  auto streamed = daemon.client().events("/v1/scans/" + id + "/events", [&](const std::string& type, const std::string&) {
    types.push_back(type);
    return true;
  });
  REQUIRE(streamed);
  CHECK(std::count(types.begin(), types.end(), "verdict") == 9);
  CHECK(types.back() == "state");
}

TEST_CASE("a running scan streams its runs as server-sent events and can be cancelled", "[integration][rerun]") {
  testing::DaemonProcess daemon(testing::fresh_dir("events"));
  json body{{"classpath", testing::build_path("tests/fixtures/jvm-infra.jar").string() + ":/usr/share/java/junit4.jar"},
            {"tests", "fixture.infra.InfraTest#passes,fixture.infra.InfraTest#hangs"},
            {"runs", 50},
            {"parallelism", 2}};
  auto submitted = daemon.client().request("POST", "/v1/scans", body.dump());
  REQUIRE(submitted);
  REQUIRE(submitted->status == 202);
  std::string id = json::parse(submitted->body)["id"];
  CHECK(submitted->location == "/v1/scans/" + id);
  // Verdicts are not there while it runs.
  CHECK(daemon.client().request("GET", "/v1/scans/" + id + "/verdicts").value().status == 409);

  int finished_runs = 0;
  std::string last_state;
  auto streamed = daemon.client().events("/v1/scans/" + id + "/events", [&](const std::string& type, const std::string& data) {
    auto e = json::parse(data);
    if (type == "run_finished" && ++finished_runs == 1) {
      // Cancel once a run is in, while JVMs hang: they must die, and the stream must end.
      auto r = daemon.client().request("DELETE", "/v1/scans/" + id);
      CHECK(r.value().status == 202);
    }
    if (type == "state") last_state = e["state"];
    return true;
  });
  REQUIRE(streamed);
  CHECK(finished_runs >= 1);
  CHECK(last_state == "cancelled");
  CHECK(daemon.get_json("/v1/scans/" + id)["state"] == "cancelled");
  // No JVM of that scan is left.
  auto jvms = util::run_capture({"sh", "-c", "pgrep -f '[j]ava.*flakescan-test-events' | wc -l"}, std::chrono::seconds(5));
  REQUIRE(jvms);
  CHECK(std::stoi(*jvms) == 0);
}

TEST_CASE("a daemon started with a relative --data-dir runs JVMs that work in another folder", "[integration][rerun]") {
  // The JVMs run in the scan's working_dir and write their results under the data folder: a
  // relative one would name a folder in the working_dir (the JVMs failed with "No such file").
  const auto home = testing::fresh_dir("relative-home");
  testing::DaemonProcess daemon(home / "data", {}, home);
  json body{{"classpath", testing::jvm_basic_classpath()},
            {"tests", json::array({"demo.basic.MathTest"})},
            {"runs", 1},
            {"working_dir", testing::fresh_dir("relative-elsewhere").string()}};
  auto status = daemon.run_scan(body);
  REQUIRE(status["state"] == "completed");
  auto file = daemon.get_json("/v1/scans/" + status["id"].get<std::string>() + "/verdicts");
  REQUIRE_FALSE(file["verdicts"].empty());
  for (const auto& v : file["verdicts"]) {
    INFO(v.dump(2));
    CHECK(v["verdict"] == "not_flaky");
  }
}

namespace {
// A loopback port held by this process while the object lives (listening).
struct HeldPort {
  int fd = -1;
  int port = 0;
  HeldPort() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(fd, 1) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port = ntohs(a.sin_port);
  }
  ~HeldPort() { ::close(fd); }
};

// A loopback port below the kernel's ephemeral range (which bind(0) and connect() draw from, so
// no other test's socket can take it while the scan's JVMs bind and let go of it), found free
// now; 0 when none is.
int port_outside_ephemeral_range() {
  std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 32768;
  range >> low;
  for (int i = 0; i < 2000; ++i) {
    const int port = low - 1 - int((::getpid() + i) % 5000);
    if (port < 1024) continue;
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(std::uint16_t(port));
    const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    if (free) return port;
  }
  return 0;
}
}  // namespace

TEST_CASE("a test that binds a fixed port never runs twice at once, and a port held elsewhere is said to be infrastructure",
          "[integration][rerun]") {
  testing::DaemonProcess daemon(testing::fresh_dir("fixed-port"));
  const std::string classpath = testing::build_path("tests/fixtures/jvm-infra.jar").string() + ":/usr/share/java/junit4.jar";
  const std::string test = "fixture.infra.FixedPortTest#servesOnItsPort";
  const int port = port_outside_ephemeral_range();
  REQUIRE(port > 0);
  // Each run holds the port for a second; on two lanes, two runs at once would collide.
  json body{{"classpath", classpath}, {"tests", json::array({test})}, {"runs", 4}, {"parallelism", 2},
            {"jvm_args", {"-Dflakescan.fixed.port=" + std::to_string(port)}}};
  auto status = daemon.run_scan(body);
  REQUIRE(status["state"] == "completed");
  auto v = by_test(daemon.get_json("/v1/scans/" + status["id"].get<std::string>() + "/verdicts"))[test];
  INFO(v.dump(2));
  CHECK(v["verdict"] == "not_flaky");
  CHECK(v["runs"]["passed"] == 4);

  // Another process holds the port: every run fails, and the verdict says why.
  HeldPort held;
  REQUIRE(held.port > 0);
  body["jvm_args"] = {"-Dflakescan.fixed.port=" + std::to_string(held.port)};
  body["runs"] = 2;
  status = daemon.run_scan(body);
  REQUIRE(status["state"] == "completed");
  v = by_test(daemon.get_json("/v1/scans/" + status["id"].get<std::string>() + "/verdicts"))[test];
  INFO(v.dump(2));
  CHECK(v["verdict"] == "failing");
  CHECK(v["runs"]["failed"] == 2);
  CHECK_THAT(v["evidence"]["reason"].get<std::string>(),
             Catch::Contains("2 failures were java.net.BindException: a port the test binds was in use (infrastructure"));
}
