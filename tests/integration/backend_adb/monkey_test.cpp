// Monkey exploration runs recorded in flakescan's trace format, against the fake adb
// server answering with recorded command shapes. Nothing here ran on a real device.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "backend/adb/monkey.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#ifdef FLAKESCAN_HAVE_TARPIT_IO
#include "tarpit/load.hpp"
#endif

using namespace flakescan;
using backend::adb::MonkeyOptions;

namespace {

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

struct FakeApp {
  std::mutex m;
  std::string activity = "com.example.app/.MainActivity";
  int bursts = 0;
  std::vector<std::string> monkey_commands;
};

void script(test::FakeAdbServer& fake, FakeApp& app) {
  fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    std::lock_guard lock(app.m);
    test::FakeReply r;
    if (cmd.starts_with("uiautomator dump")) {
      std::string cls = app.activity.substr(app.activity.find('/') + 1);
      r.out = dump_for(cls) + "UI hierchary dumped to: /data/local/tmp/flakescan-window.xml\n";
    } else if (cmd == "dumpsys activity activities") {
      r.out = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n"
              "  * Task{5ac1 #12 type=standard A=10123:com.example.app U=0 visible=true mode=fullscreen}\n"
              "    mResumedActivity: ActivityRecord{8f1e2d1 u0 " + app.activity + " t12}\n";
    } else if (cmd.find("-c android.intent.category.LAUNCHER 1") != std::string::npos) {
      app.activity = "com.example.app/.MainActivity";
      r.out = "  bash arg: -p\n  bash arg: com.example.app\nEvents injected: 1\n";
    } else if (cmd.starts_with("monkey -p")) {
      app.monkey_commands.push_back(cmd);
      // After two bursts the app falls into its settings screen and stays there.
      if (++app.bursts >= 2) app.activity = "com.example.app/com.example.app.settings.SettingsActivity";
      r.out = ":Monkey: seed=1 count=20\n:AllowPackage: com.example.app\n:IncludeCategory: android.intent.category.LAUNCHER\n"
              "Events injected: 20\n:Sending rotation degree=0, persist=false\n## Network stats: elapsed time=612ms\n// Monkey finished\n";
    } else if (cmd.starts_with("am force-stop")) {
      app.activity = "";
    } else {
      return std::nullopt;
    }
    return r;
  });
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("monkey helpers on recorded command output", "[adb][monkey]") {
  CHECK(backend::adb::resumed_activity("    mResumedActivity: ActivityRecord{8f1e2d1 u0 com.example.app/.MainActivity t12}\n") ==
        "com.example.app.MainActivity");
  CHECK(backend::adb::resumed_activity("  topResumedActivity=ActivityRecord{3c1 u0 com.android.settings/com.android.settings.Settings t5}\n") ==
        "com.android.settings.Settings");
  CHECK(backend::adb::resumed_activity("nothing here").empty());
  auto rep = backend::adb::parse_monkey_output("Events injected: 37\n// CRASH: com.example.app (pid 4242)\n** Monkey aborted due to error.\n");
  CHECK(rep.events == 37);
  CHECK(rep.crashes == 1);
  CHECK(rep.aborted);
  CHECK(*backend::adb::monkey_command("com.example.app", 7, 200, 50) ==
        "monkey -p 'com.example.app' -s 7 --throttle 200 --pct-syskeys 0 -v 50");
  CHECK(backend::adb::monkey_command("com.example.app;reboot", 7, 200, 50).error().code == util::Errc::invalid_argument);
}

TEST_CASE("monkey exploration writes a replayable trace; guided runs restart at tarpit screens", "[adb][monkey]") {
  WARN("fake adb server: the device path was not run on a real device");
  for (bool guided : {false, true}) {
    test::FakeAdbServer fake;
    fake.add_device({"emulator-5554"});
    FakeApp app;
    script(fake, app);
    MonkeyOptions o;
    o.package = "com.example.app";
    o.seed = 100;
    o.events_per_step = 20;
    o.max_steps = 6;
    o.out_dir = std::string(FLAKESCAN_BINARY_DIR) + "/adb_it/monkey_" + (guided ? "guided" : "plain");
    std::filesystem::remove_all(o.out_dir);
    if (guided) o.restart_at = {{"com.example.app.settings.SettingsActivity", {"com.example.app:id/advanced"}}};
    core::CancelFlag cancel{false};
    adb_protocol::Client client(*adb_protocol::ServerAddress::parse(fake.address()));
    auto r = backend::adb::run_monkey_crawl(client, "emulator-5554", o, cancel);
    REQUIRE(r);
    INFO("guided=" << guided);
    CHECK(r->steps == 6);
    CHECK(r->screens == 6);
    CHECK(r->problems.empty());
    auto lines = lines_of(o.out_dir + "/actions.jsonl");
    REQUIRE(lines.size() == 6);
    CHECK(std::filesystem::exists(o.out_dir + "/screens/5.xml"));
    CHECK(lines[0].find("\"activity\":\"com.example.app.MainActivity\"") != std::string::npos);
    if (guided) {
      CHECK(r->restarts == 2);  // steps 2 and 4 land on the tarpit screen
      CHECK(lines[2].find("\"action\":\"restart\"") != std::string::npos);
    } else {
      CHECK(r->restarts == 0);
      CHECK(r->events == 6 * 20);
      CHECK(lines[5].find("SettingsActivity") != std::string::npos);
      // Step k uses seed + k: the run can be replayed from the stored seeds.
      REQUIRE(app.monkey_commands.size() == 6);
      CHECK(app.monkey_commands[3] == "monkey -p 'com.example.app' -s 103 --throttle 200 --pct-syskeys 0 -v 20");
    }
#ifdef FLAKESCAN_HAVE_TARPIT_IO
    tarpit::DiskTraceFiles files(o.out_dir);
    CHECK(tarpit::detect_format(files) == "flakescan");
    auto trace = tarpit::import_recorded(files, "monkey");
    REQUIRE(trace);
    CHECK(trace->screens.size() == 6);
    CHECK(trace->problems.empty());
#endif
  }
}
