// The exploration manager in-process against the fake adb server: device leases shared with
// everything else in the process, a named device, APK install. Nothing here ran on a real
// device.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

#include "backend/adb/config_json.hpp"
#include "ui_crawl/crawl_manager.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"

using namespace flakescan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("flakescan-explore-manager-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

json wait_until_ended(ui_crawl::CrawlManager& m, const std::string& id) {
  for (;;) {
    json s = *m.get(id);
    if (s["state"] != "running") return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Answers every dump with one screen; Monkey and the launcher intent "work".
void script(test::FakeAdbServer& fake) {
  fake.on_shell([](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    test::FakeReply r;
    if (cmd.starts_with("uiautomator dump"))
      r.out = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node index=\"0\" text=\"\" "
              "resource-id=\"com.example.app:id/root\" class=\"android.widget.FrameLayout\" visible-to-user=\"true\" "
              "bounds=\"[0,0][1080,2400]\" /></hierarchy>";
    else if (cmd == "dumpsys activity activities")
      r.out = "    mResumedActivity: ActivityRecord{8f1e2d1 u0 com.example.app/.MainActivity t12}\n";
    else if (cmd.starts_with("monkey -p"))
      r.out = "Events injected: 5\n";
    else
      return std::nullopt;
    return r;
  });
}

}  // namespace

TEST_CASE("an exploration waits for a device someone else holds and runs on the device named", "[exploration][adb]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.add_device({"emulator-5556"});
  script(fake);
  auto servers = std::vector{*backend::adb::wire::ServerAddress::parse(fake.address())};
  fs::path dir = fresh("lease");
  ui_crawl::CrawlManager manager({.data_dir = dir, .default_servers = servers});

  // A scan's run (or anyone in the process) holds emulator-5556.
  auto registry = backend::adb::shared_registry(servers);
  REQUIRE(registry->wait_until_tracked(std::chrono::seconds(30)));
  std::set<std::string> exclude{fake.address() + "/emulator-5554"};
  std::optional<backend::adb::Lease> held;
  held.emplace(*registry->acquire(exclude, std::chrono::seconds(30)));
  REQUIRE(held->serial() == "emulator-5556");

  auto submitted = manager.submit({{"package", "com.example.app"}, {"serial", "emulator-5556"}, {"max_steps", 2}});
  REQUIRE(submitted);
  std::string id = (*submitted)["id"];
  // However long it waits, it cannot have the device while the lease is held.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  json waiting = *manager.get(id);
  CHECK(waiting["state"] == "running");
  CHECK(waiting["device"].is_null());
  CHECK(fake.commands("emulator-5556").empty());
  held.reset();
  json done = wait_until_ended(manager, id);
  INFO(done.dump(2));
  CHECK(done["state"] == "done");
  CHECK(done["device"]["serial"] == "emulator-5556");
  CHECK(done["steps"] == 2);
  CHECK(fake.commands("emulator-5554").empty());  // the free device was not taken instead

  // A device that is not there: the exploration fails and says which.
  auto absent = manager.submit({{"package", "com.example.app"}, {"serial", "emulator-9999"}, {"device_wait_seconds", 0}});
  REQUIRE(absent);
  json failed = wait_until_ended(manager, (*absent)["id"]);
  CHECK(failed["state"] == "failed");
  CHECK(failed["error"].get<std::string>().find("emulator-9999") != std::string::npos);
  CHECK(failed["tarpits"].is_null());
  // ... and cannot guide a later run.
  auto guided = manager.submit({{"package", "com.example.app"}, {"guided_by", (*absent)["id"]}});
  REQUIRE_FALSE(guided);
  CHECK(guided.error().code == util::Errc::conflict);
}

TEST_CASE("an exploration installs its apk first", "[exploration][adb]") {
  WARN("fake adb server: the device path was not run on a real device");
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  script(fake);
  auto servers = std::vector{*backend::adb::wire::ServerAddress::parse(fake.address())};
  fs::path dir = fresh("install");
  std::ofstream(dir / "app.apk", std::ios::binary) << test::build_apk("com.example.app");
  ui_crawl::CrawlManager manager({.data_dir = dir, .default_servers = servers});
  // An APK of another app is refused before anything runs.
  std::ofstream(dir / "other.apk", std::ios::binary) << test::build_apk("com.example.other");
  auto wrong = manager.submit({{"package", "com.example.app"}, {"apk", (dir / "other.apk").string()}});
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message.find("com.example.other") != std::string::npos);

  auto submitted = manager.submit({{"package", "com.example.app"}, {"apk", (dir / "app.apk").string()}, {"max_steps", 1}});
  REQUIRE(submitted);
  json done = wait_until_ended(manager, (*submitted)["id"]);
  INFO(done.dump(2));
  CHECK(done["state"] == "done");
  CHECK(fake.installed("emulator-5554").count("/data/local/tmp/flakescan-com.example.app.apk") == 1);
  auto sent = fake.commands("emulator-5554");
  REQUIRE_FALSE(sent.empty());
  CHECK(sent.front().starts_with("pm install -r -t"));
}

TEST_CASE("an exploration the daemon died in keeps every screen its trace recorded, however close in time", "[exploration]") {
  // Against a fast device (the fake server) two steps can fall in one millisecond; the tarpit
  // importer then keeps one of them, but the run recorded both.
  fs::path dir = fresh("recovered");
  const std::string id = "e0123456789ab";
  fs::path trace = dir / "explorations" / id / "trace";
  fs::create_directories(trace / "screens");
  const std::string xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node index=\"0\" "
                          "text=\"\" resource-id=\"com.example.app:id/root\" class=\"android.widget.FrameLayout\" "
                          "visible-to-user=\"true\" bounds=\"[0,0][1080,2400]\" /></hierarchy>";
  std::ofstream actions(trace / "actions.jsonl", std::ios::binary);
  const std::int64_t times[] = {1000, 1000, 1001, 1001};
  for (int step = 0; step < 4; ++step) {
    std::string screen = "screens/" + std::to_string(step) + ".xml";
    std::ofstream(trace / screen, std::ios::binary) << xml;
    actions << json{{"ts", times[step]}, {"screen", screen}, {"activity", ".MainActivity"}, {"action", "touch"}}.dump() << "\n";
  }
  actions << R"({"ts": 1002, "screen": "screens/4.x)";  // the line a kill cut short
  actions.close();
  std::ofstream(dir / "explorations" / id / "exploration.json")
      << json{{"id", id}, {"state", "running"}, {"steps", 0}, {"screens", 0}, {"request", {{"mode", "standard"}}}}.dump();

  ui_crawl::CrawlManager manager({.data_dir = dir});
  json s = *manager.get(id);
  INFO(s.dump(2));
  CHECK(s["state"] == "interrupted");
  CHECK(s["screens"] == 4);
  REQUIRE(s["tarpits"].is_object());
  CHECK(s["tarpits"]["traces"][0]["screens"]["read"] == 2);
  // The status on disk says the same after the next restart.
  ui_crawl::CrawlManager again({.data_dir = dir});
  CHECK((*again.get(id))["screens"] == 4);
}
