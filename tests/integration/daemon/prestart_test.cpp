// Runner JVMs started ahead (backend/local_jvm/spare_jvms.hpp) through the daemon: runs say
// when they took one, and none outlives its scan or its daemon.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "support/daemon/daemon_process.hpp"
#include "support/polling.hpp"

using namespace flakescan;
using testing_support::eventually;
using testing_support::running;
using nlohmann::json;

namespace {

// The processes whose parent is `parent` and whose command is java, with their ids.
std::vector<pid_t> java_children_of(pid_t parent) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(e.path() / "stat");
    std::string all;
    if (!std::getline(stat, all)) continue;
    auto open = all.find('('), close = all.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(all.substr(close + 2));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && state != "Z" && all.substr(open + 1, close - open - 1) == "java") out.push_back(std::stoi(all));
  }
  return out;
}

}  // namespace

TEST_CASE("a scan's runs take prestarted JVMs, say so, and its spares are gone when it ends", "[integration][prestart]") {
  testing::DaemonProcess daemon(testing::fresh_dir("prestart-scan"));
  json body{{"classpath", testing::jvm_basic_classpath()},
            {"tests", "demo.basic.RegistryVictimTest#startsWithEmptyRegistry"},
            {"runs", 6},
            {"parallelism", 2}};
  // A first scan of these jars makes their class data archive (its executor waits for the
  // warm-up JVM before it goes). Runs never wait for an archive being made, and take no spare
  // meanwhile, so without this a short scan could end before any spare was started.
  json first = body;
  first["runs"] = 1;
  auto made = daemon.client().request("POST", "/v1/scans", first.dump());
  REQUIRE(made);
  REQUIRE(made->status == 202);
  REQUIRE(daemon.client().events("/v1/scans/" + json::parse(made->body)["id"].get<std::string>() + "/events",
                                 [](const std::string&, const std::string&) { return true; }));
  auto submitted = daemon.client().request("POST", "/v1/scans", body.dump());
  REQUIRE(submitted);
  REQUIRE(submitted->status == 202);
  const std::string id = json::parse(submitted->body)["id"];
  int prestarted = 0, finished = 0;
  // The stream ends when the scan does.
  auto streamed = daemon.client().events("/v1/scans/" + id + "/events", [&](const std::string& type, const std::string& data) {
    if (type != "run_finished") return true;
    auto run = json::parse(data);
    ++finished;
    prestarted += run.value("jvm", "") == "prestarted";
    CHECK(run["outcome"] == "pass");  // a clean JVM each time: the victim finds its registry empty
    return true;
  });
  REQUIRE(streamed);
  CHECK(daemon.get_json("/v1/scans/" + id)["state"] == "completed");
  // Ended: the executor went with the techniques, before the scan said so, and its spares with it.
  CHECK(java_children_of(daemon.pid()).empty());
  CHECK(finished == 6);
  CHECK(prestarted >= 1);  // spares start beside discovery (the archive is there); runs find them waiting
}

TEST_CASE("a daemon killed mid-scan leaves no prestarted JVM behind", "[integration][prestart][crash]") {
  testing::DaemonProcess daemon(testing::fresh_dir("prestart-crash"));
  json body{{"classpath", testing::jvm_basic_classpath()}, {"tests", "demo.basic.MathTest#adds"}, {"runs", 200}, {"parallelism", 1}};
  auto submitted = daemon.client().request("POST", "/v1/scans", body.dump());
  REQUIRE(submitted);
  REQUIRE(submitted->status == 202);
  const std::string id = json::parse(submitted->body)["id"];
  std::vector<pid_t> javas;
  auto streamed = daemon.client().events("/v1/scans/" + id + "/events", [&](const std::string& type, const std::string& data) {
    if (type != "run_finished" || json::parse(data).value("jvm", "") != "prestarted") return true;
    javas = java_children_of(daemon.pid());  // the spares waiting (and maybe the next run's JVM)
    if (javas.empty()) return true;
    daemon.kill_hard();
    return false;
  });
  REQUIRE(streamed);
  REQUIRE_FALSE(javas.empty());
  for (pid_t p : javas) {
    INFO("JVM " << p);
    CHECK(eventually([&] { return !running(p); }));  // PR_SET_PDEATHSIG, and end-of-file on its stdin
  }
}
