// POST /v1/explorations end to end: a real flakescand whose --adb-server is the scripted fake
// adb server, a Monkey run recorded and analysed, its guidance fed back through guided_by, bad
// requests, cancel, and a daemon restart (clean and after a crash). Nothing here ran on a
// real device: the fake answers uiautomator, dumpsys and monkey with recorded output shapes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "support/daemon/daemon_process.hpp"
#include "support/fake_adb/fake_adb_server.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string serial = "emulator-5554";
const std::string settings_activity = "com.example.app.settings.SettingsActivity";

std::string dump_for(const std::string& activity) {
  bool settings = activity.find("Settings") != std::string::npos;
  return std::string("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">") +
         "<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"com.example.app\" "
         "visible-to-user=\"true\" bounds=\"[0,0][1080,2400]\">" +
         (settings ? "<node index=\"0\" text=\"Advanced\" resource-id=\"com.example.app:id/advanced\" class=\"android.widget.ListView\" "
                     "package=\"com.example.app\" visible-to-user=\"true\" bounds=\"[0,200][1080,2400]\" />"
                   : "<node index=\"0\" text=\"Go\" resource-id=\"com.example.app:id/go\" class=\"android.widget.Button\" "
                     "package=\"com.example.app\" visible-to-user=\"true\" bounds=\"[100,200][500,400]\" />") +
         "</node></hierarchy>";
}

// An app whose first Monkey burst after a launch lands in its settings screen, which no
// burst ever leaves: the tarpit. Restarting (force-stop + launcher intent) goes back to main.
struct FakeApp {
  std::mutex m;
  std::string activity = "com.example.app/.MainActivity";
};

void script(test::FakeAdbServer& fake, FakeApp& app) {
  fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    std::lock_guard lock(app.m);
    test::FakeReply r;
    if (cmd.starts_with("uiautomator dump")) {
      r.out = dump_for(app.activity.substr(app.activity.find('/') + 1)) + "UI hierchary dumped to: /data/local/tmp/flakescan-window.xml\n";
    } else if (cmd == "dumpsys activity activities") {
      r.out = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n"
              "    mResumedActivity: ActivityRecord{8f1e2d1 u0 " + app.activity + " t12}\n";
    } else if (cmd.find("-c android.intent.category.LAUNCHER 1") != std::string::npos) {
      app.activity = "com.example.app/.MainActivity";
      r.out = "Events injected: 1\n";
    } else if (cmd.starts_with("monkey -p")) {
      app.activity = "com.example.app/" + settings_activity;
      r.out = ":Monkey: seed=1 count=20\nEvents injected: 20\n// Monkey finished\n";
    } else if (cmd.starts_with("am force-stop")) {
      app.activity = "com.example.app/.MainActivity";
    } else {
      return std::nullopt;
    }
    return r;
  });
}

json body_of(const app::HttpResponse& r) { return json::parse(r.body, nullptr, false); }

// Polls until the exploration leaves `running` (no time limit here: ctest's timeout is the net).
json wait_until_ended(testing::DaemonProcess& daemon, const std::string& id) {
  for (;;) {
    json status = daemon.get_json("/v1/explorations/" + id);
    if (status.value("state", "") != "running") return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

json wait_for_steps(testing::DaemonProcess& daemon, const std::string& id, int steps) {
  for (;;) {
    json status = daemon.get_json("/v1/explorations/" + id);
    if (status.value("steps", 0) >= steps || status.value("state", "") != "running") return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string submit(testing::DaemonProcess& daemon, const json& body) {
  auto r = daemon.client().request("POST", "/v1/explorations", body.dump());
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 202);
  json status = body_of(*r);
  std::string id = status["id"];
  CHECK(r->location == "/v1/explorations/" + id);
  CHECK(status["state"] == "running");
  return id;
}

// The analysis is scored per action (VET's score, without its one-hour cut and padding), so
// what it finds does not depend on how fast the fake answers.
const json analysis_per_action = {{"t_min_ms", 1}, {"keep_ms", 0}, {"pad_to_ms", 0}};

}  // namespace

TEST_CASE("explorations through the daemon: tarpits, guidance fed back, bad requests, cancel, restarts",
          "[exploration][daemon][adb]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  fake.add_device({serial});
  FakeApp app;
  script(fake, app);
  fs::path data = testing::fresh_dir("explorations") / "data";
  std::vector<std::string> args{"--adb-server", fake.address()};

  std::string first_id, cancelled_id, crashed_id, stopped_id;
  json first_guidance;
  {
    testing::DaemonProcess daemon(data, args);
    auto& client = daemon.client();

    {  // Bad requests: problem+json, nothing started.
      auto expect_problem = [&](const std::string& body, int status, const std::string& words) {
        auto r = client.request("POST", "/v1/explorations", body);
        REQUIRE(r);
        INFO(body << " -> " << r->body);
        CHECK(r->status == status);
        CHECK(r->content_type.find("application/problem+json") != std::string::npos);
        json p = body_of(*r);
        CHECK(p["status"] == status);
        CHECK(p["detail"].get<std::string>().find(words) != std::string::npos);
      };
      expect_problem(json{{"package", "com.example.app"}, {"colour", "blue"}}.dump(), 400, "unknown field 'colour'");
      expect_problem(json{{"max_steps", 3}}.dump(), 400, "'package' is required");
      expect_problem(json{{"package", "com.example.app"}, {"guided_by", "e0000000000ff"}}.dump(), 400, "names no exploration");
      expect_problem("{not json", 400, "not valid JSON");
      auto missing = client.request("GET", "/v1/explorations/e0000000000ff");
      REQUIRE(missing);
      CHECK(missing->status == 404);
      CHECK(missing->content_type.find("application/problem+json") != std::string::npos);
      auto wrong_method = client.request("PUT", "/v1/explorations");
      REQUIRE(wrong_method);
      CHECK(wrong_method->status == 405);
    }

    // An unguided run: Monkey falls into the settings screen and stays there.
    first_id = submit(daemon, {{"package", "com.example.app"}, {"seed", 100}, {"events_per_step", 20}, {"max_steps", 12},
                               {"mode", "vet-compatible"}, {"analysis", analysis_per_action}});
    json first = wait_until_ended(daemon, first_id);
    INFO(first.dump(2));
    REQUIRE(first["state"] == "done");
    CHECK(first["device"]["serial"] == serial);
    CHECK(first["device"]["server"] == fake.address());
    CHECK(first["steps"] == 12);
    CHECK(first["screens"] == 12);
    CHECK(first["restarts"] == 0);
    CHECK(first["events"] == 12 * 20);
    CHECK(first["problems"].empty());
    const json& trace = first["tarpits"]["traces"][0];
    CHECK(trace["usable"] == true);
    bool local_region = std::any_of(trace["regions"].begin(), trace["regions"].end(),
                                    [](const json& r) { return r["kind"] == "local" && r["rank"].is_number(); });
    CHECK(local_region);
    first_guidance = first["guidance"]["restart_at"];
    CHECK(first_guidance == json::array({{{"activity", settings_activity}, {"resource_ids", {"com.example.app:id/advanced"}}}}));
    fs::path dir = data / "explorations" / first_id;
    CHECK(first["trace_dir"] == (dir / "trace").string());
    CHECK(fs::exists(dir / "trace" / "actions.jsonl"));
    CHECK(fs::exists(dir / "trace" / "screens" / "11.xml"));
    CHECK(fs::exists(dir / "exploration.json"));
    CHECK_FALSE(fs::exists(dir / "exploration.json.tmp"));
    // Step k ran Monkey with seed + k.
    auto sent = fake.commands(serial);
    CHECK(std::count(sent.begin(), sent.end(), "monkey -p 'com.example.app' -s 105 --throttle 200 --pct-syskeys 0 -v 20") == 1);

    // A guided run: the guidance of the first is fed back by id; the app is restarted at
    // the settings screen instead of being driven deeper into it.
    std::size_t before = fake.commands(serial).size();
    std::string guided_id = submit(daemon, {{"package", "com.example.app"}, {"guided_by", first_id}, {"max_steps", 6},
                                            {"mode", "vet-compatible"}, {"analysis", analysis_per_action}});
    json guided = wait_until_ended(daemon, guided_id);
    INFO(guided.dump(2));
    REQUIRE(guided["state"] == "done");
    CHECK(guided["guided_by"] == first_id);
    CHECK(guided["restart_at"] == first_guidance);
    CHECK(guided["restarts"] == 3);  // main -> burst -> settings -> restart -> main ...
    sent = fake.commands(serial);
    std::vector<std::string> during(sent.begin() + long(before), sent.end());
    auto stop = std::find(during.begin(), during.end(), "am force-stop 'com.example.app'");
    REQUIRE(stop != during.end());
    REQUIRE(stop + 1 != during.end());
    CHECK(stop[1] == "monkey -p 'com.example.app' -c android.intent.category.LAUNCHER 1");
    CHECK(std::count(during.begin(), during.end(), "am force-stop 'com.example.app'") == 3);

    // The same guidance given explicitly as restart_at is accepted as is.
    auto explicit_guidance = client.request("POST", "/v1/explorations",
                                            json{{"package", "com.example.app"}, {"restart_at", first_guidance}, {"max_steps", 2}}.dump());
    REQUIRE(explicit_guidance);
    CHECK(explicit_guidance->status == 202);
    wait_until_ended(daemon, body_of(*explicit_guidance)["id"]);

    // Cancel: a run without a step limit, cancelled by DELETE.
    cancelled_id = submit(daemon, {{"package", "com.example.app"}, {"budget_seconds", 3600}});
    wait_for_steps(daemon, cancelled_id, 3);
    auto del = client.request("DELETE", "/v1/explorations/" + cancelled_id);
    REQUIRE(del);
    CHECK(del->status == 202);
    json cancelled = wait_until_ended(daemon, cancelled_id);
    CHECK(cancelled["state"] == "cancelled");
    CHECK(cancelled["steps"].get<int>() >= 3);
    auto again = client.request("DELETE", "/v1/explorations/" + cancelled_id);
    REQUIRE(again);
    CHECK(again->status == 409);

    // The list, newest first, without the reports.
    json list = daemon.get_json("/v1/explorations");
    REQUIRE(list["explorations"].size() == 4);
    CHECK(list["explorations"][0]["id"] == cancelled_id);
    CHECK_FALSE(list["explorations"][0].contains("tarpits"));

    // The CLI talks to the same daemon and prints the final status. It is called by its old
    // name, explore-ui, which runs crawl-ui after one line saying so (issue 30).
    fs::path cli_dir = testing::fresh_dir("explore-ui-cli");
    auto cli = util::Child::spawn({.argv = {testing::build_path("daemon/app/flakescan").string(), "explore-ui", "--daemon", daemon.url(),
                                            "--package", "com.example.app", "--serial", serial, "--max-steps", "4", "--t-min-ms", "1",
                                            "--max-groups-per-minute", "1000000000", "--json", "--quiet"},
                                   .stdout_path = (cli_dir / "out").string(), .stderr_path = (cli_dir / "err").string()});
    REQUIRE(cli);
    auto cli_status = cli->wait(std::chrono::steady_clock::now() + std::chrono::seconds(120));
    std::ifstream cli_out(cli_dir / "out");
    json printed = json::parse(cli_out, nullptr, false);
    REQUIRE(cli_status);
    CHECK(cli_status->exited);
    CHECK(cli_status->code == 0);
    REQUIRE(printed.is_object());
    CHECK(printed["state"] == "done");
    CHECK(printed["steps"] == 4);
    CHECK(printed["tarpits"].is_object());
    CHECK(printed["guidance"]["restart_at"].is_array());
    std::ifstream cli_err(cli_dir / "err");
    std::string err_text((std::istreambuf_iterator<char>(cli_err)), std::istreambuf_iterator<char>());
    CHECK_THAT(err_text, Catch::Contains("flakescan: explore-ui was renamed crawl-ui; running crawl-ui\n"));

    // A run cut by a daemon crash.
    crashed_id = submit(daemon, {{"package", "com.example.app"}, {"budget_seconds", 3600}, {"mode", "vet-compatible"},
                                 {"analysis", analysis_per_action}});
    wait_for_steps(daemon, crashed_id, 3);
    daemon.kill_hard();
  }
  {
    // A restarted daemon still serves every exploration; the one it was running is interrupted,
    // with the analysis of the trace it had recorded.
    testing::DaemonProcess daemon(data, args);
    json first = daemon.get_json("/v1/explorations/" + first_id);
    CHECK(first["state"] == "done");
    CHECK(first["guidance"]["restart_at"] == first_guidance);
    json crashed = daemon.get_json("/v1/explorations/" + crashed_id);
    INFO(crashed.dump(2));
    CHECK(crashed["state"] == "interrupted");
    CHECK(crashed["error"].get<std::string>().find("daemon stopped") != std::string::npos);
    CHECK(crashed["screens"].get<int>() >= 3);
    CHECK(crashed["tarpits"].is_object());
    CHECK(daemon.get_json("/v1/explorations/" + cancelled_id)["state"] == "cancelled");
    // The finished exploration still guides a new run after the restart.
    std::string guided_id = submit(daemon, {{"package", "com.example.app"}, {"guided_by", first_id}, {"max_steps", 2}});
    json guided = wait_until_ended(daemon, guided_id);
    CHECK(guided["state"] == "done");
    CHECK(guided["restarts"] == 1);
    // SIGTERM stops a running exploration: it ends interrupted, written before the daemon exits.
    stopped_id = submit(daemon, {{"package", "com.example.app"}, {"budget_seconds", 3600}});
    wait_for_steps(daemon, stopped_id, 2);
    CHECK(daemon.terminate() == 0);
  }
  {
    testing::DaemonProcess daemon(data, args);
    CHECK(daemon.get_json("/v1/explorations")["explorations"].size() == 8);
    CHECK(daemon.get_json("/v1/explorations/" + crashed_id)["state"] == "interrupted");
    json stopped = daemon.get_json("/v1/explorations/" + stopped_id);
    CHECK(stopped["state"] == "interrupted");
    CHECK(stopped["steps"].get<int>() >= 2);  // counted by the run itself, not recovered from the trace
  }
}
