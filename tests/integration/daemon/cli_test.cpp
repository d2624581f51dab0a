// `flakescan scan`, `replay` and `devices` as a user runs them: exit codes, the summary, the
// verdict file, FLAKESCAN_DAEMON (the daemon the CLI starts itself: shared_daemon_test.cpp).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "support/daemon/cli_process.hpp"
#include "support/daemon/daemon_process.hpp"
#include "support/fake_adb/fake_adb_server.hpp"

using namespace flakescan;
using nlohmann::json;

using testing::CliResult;
using testing::run_cli;

TEST_CASE("the CLI scans through a running daemon and writes the verdict file", "[integration][cli]") {
  testing::DaemonProcess daemon(testing::fresh_dir("cli"));
  auto out_file = testing::fresh_dir("cli-verdicts") / "v.json";
  auto r = run_cli({"scan", "--daemon", daemon.url(), "--classpath", testing::jvm_basic_classpath(), "--tests",
                "demo.basic.MathTest,demo.basic.ConfigTest#readsLoadedConfig", "--runs", "3", "--out", out_file.string()});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("not_flaky") && Catch::Contains("demo.basic.MathTest#adds"));
  // readsLoadedConfig is a brittle test: alone it fails every run, so rerun calls it failing.
  CHECK_THAT(r.out, Catch::Contains("3 tests: 0 flaky, 2 not flaky, 1 failing, 0 could not run"));
  // The WHY column names the technique whose runs it counts; a line says what FAILED counts.
  CHECK_THAT(r.out, Catch::Contains("demo.basic.MathTest#adds") && Catch::Contains("rerun: passed all 3 runs"));
  CHECK_THAT(r.out, Catch::Contains("FAILED: failed runs / runs with an outcome, all techniques together"));
  std::ifstream in(out_file);
  json file = json::parse(in);
  CHECK(file["verdicts"].size() == 3);
  std::string scan = file["scan"]["id"];
  // A not_flaky verdict says what its passes rule out, and the summary says it for the weakest.
  for (const auto& v : file["verdicts"])
    if (v["test"] == "demo.basic.MathTest#adds") CHECK(v["evidence"]["details"]["passed_executions"] == "3");
  CHECK_THAT(r.out, Catch::Contains("not flaky: each passed at least 3 executions, which rules out failing 64 % of executions or "
                                    "more at 95 % confidence"));

  auto replay = run_cli({"replay", "--daemon", daemon.url(), "--verdicts", out_file.string(), "--test",
                     "demo.basic.ConfigTest#readsLoadedConfig", "--runs", "1"});
  INFO(replay.err);
  CHECK(replay.code == 0);
  CHECK_THAT(replay.out, Catch::Contains("reproduced: the failure came back in 1 of 1 runs"));
  auto nothing = run_cli({"replay", "--daemon", daemon.url(), "--scan", scan, "--test", "demo.basic.MathTest#adds"});
  CHECK(nothing.code == 1);
  CHECK_THAT(nothing.err, Catch::Contains("no failing run to replay"));
}

TEST_CASE("relative classpath entries are the CLI's, whatever the daemon's directory", "[integration][cli]") {
  // README's example passes build/classes/java/test; against a daemon started elsewhere the
  // daemon refused them as missing (found while scanning real projects, docs/real-projects.md).
  testing::DaemonProcess daemon(testing::fresh_dir("cli-relative"));
  auto cp = testing::jvm_basic_classpath();
  auto module = testing::fresh_dir("cli-relative-module");
  std::filesystem::create_directories(module / "lib");
  std::filesystem::create_symlink(cp.substr(0, cp.find(':')), module / "lib/jvm-basic.jar");
  auto r = run_cli({"scan", "--daemon", daemon.url(), "--classpath", "lib/jvm-basic.jar" + cp.substr(cp.find(':')), "--tests",
                "demo.basic.MathTest#adds", "--runs", "1", "--out", (testing::fresh_dir("cli-relative-out") / "v.json").string()},
               {}, module);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("1 tests: 0 flaky, 1 not flaky"));
}

TEST_CASE("the CLI says clearly when it cannot run", "[integration][cli]") {
  auto usage = run_cli({"scan", "--classpath", "x"});
  CHECK(usage.code == 2);
  CHECK_THAT(usage.err, Catch::Contains("--tests is required"));
  CHECK(run_cli({"frobnicate"}).code == 2);
  CHECK(run_cli({"scan", "--tests", "a.B", "--classpath", "x", "--bogus"}).code == 2);

  auto no_daemon = run_cli({"scan", "--daemon", "http://127.0.0.1:1", "--classpath", "x", "--tests", "a.B"});
  CHECK(no_daemon.code == 1);
  CHECK_THAT(no_daemon.err, Catch::Contains("no flakescan daemon answers at http://127.0.0.1:1"));

  testing::DaemonProcess daemon(testing::fresh_dir("cli-bad"));
  auto bad_cp = run_cli({"scan", "--daemon", daemon.url(), "--classpath", "/nonexistent/app.jar", "--tests", "a.B"});
  CHECK(bad_cp.code == 1);
  CHECK_THAT(bad_cp.err, Catch::Contains("do not exist: /nonexistent/app.jar"));

  // A classpath that exists but holds no tests: the scan runs and every id could not run.
  auto empty = run_cli({"scan", "--daemon", daemon.url(), "--classpath", "/usr/share/java/junit4.jar", "--tests", "demo.Nothing"});
  CHECK(empty.code == 0);
  CHECK_THAT(empty.out, Catch::Contains("could_not_run") && Catch::Contains("class not found on the classpath"));
}

TEST_CASE("a daemon with a token: every command says when the token is missing or wrong, and works with it", "[integration][cli][token]") {
  testing::DaemonProcess daemon(testing::fresh_dir("cli-token"), {"--token", "s3cret"});
  auto group_dir = testing::fresh_dir("cli-token-out");
  const std::vector<std::vector<std::string>> commands = {
      {"scan", "--daemon", daemon.url(), "--classpath", testing::jvm_basic_classpath(), "--tests", "demo.basic.MathTest#adds",
       "--runs", "1", "--out", (group_dir / "v.json").string()},
      {"suspects", "--daemon", daemon.url()},
      {"quarantine", "--daemon", daemon.url()},
      {"verdicts", "--daemon", daemon.url(), "--group", "g1", "--allow-incomplete"},
      {"devices", "--daemon", daemon.url()},
  };
  for (const auto& args : commands) {
    INFO(args[0]);
    auto missing = run_cli(args, {"FLAKESCAN_TOKEN="});
    CHECK(missing.code == 1);
    CHECK_THAT(missing.err, Catch::Contains("needs a token: set FLAKESCAN_TOKEN to the daemon's --token"));
    auto wrong = run_cli(args, {"FLAKESCAN_TOKEN=guess"});
    CHECK(wrong.code == 1);
    CHECK_THAT(wrong.err, Catch::Contains("refused the token in FLAKESCAN_TOKEN"));
  }
  auto scan = run_cli(commands[0], {"FLAKESCAN_TOKEN=s3cret"});
  INFO(scan.err);
  CHECK(scan.code == 0);
  CHECK_THAT(scan.out, Catch::Contains("1 tests: 0 flaky, 1 not flaky"));
  CHECK(run_cli(commands[1], {"FLAKESCAN_TOKEN=s3cret"}).code == 0);
}

TEST_CASE("flakescan devices asks the daemon, or with --adb the adb servers themselves", "[integration][cli][adb]") {
  WARN("fake adb server: no real device was listed");
  test::FakeAdbServer fake;
  fake.add_device({"emulator-5554"});
  fake.add_device({.serial = "R58M123", .state = "unauthorized", .model = ""});
  testing::DaemonProcess daemon(testing::fresh_dir("cli-devices"), {"--adb-server", fake.address()});

  auto listed = [&](const CliResult& r) {
    INFO(r.err);
    REQUIRE(r.code == 0);
    json body = json::parse(r.out, nullptr, false);
    REQUIRE(body.is_object());
    std::map<std::string, std::string> states;
    for (const auto& d : body["devices"]) {
      CHECK(d["server"] == fake.address());
      CHECK(d.contains("busy"));
      states[d["serial"]] = d["state"];
    }
    return states;
  };
  const std::map<std::string, std::string> expected{{"emulator-5554", "device"}, {"R58M123", "unauthorized"}};
  // The daemon's view, named by --daemon or by FLAKESCAN_DAEMON (a daemon of its own adb server).
  CHECK(listed(run_cli({"devices", "--daemon", daemon.url(), "--json"})) == expected);
  CHECK(listed(run_cli({"devices", "--json"}, {"FLAKESCAN_DAEMON=" + daemon.url()})) == expected);
  auto table = run_cli({"devices"}, {"FLAKESCAN_DAEMON=" + daemon.url()});
  CHECK(table.code == 0);
  CHECK_THAT(table.out, Catch::Contains("SERIAL") && Catch::Contains("emulator-5554") && Catch::Contains("unauthorized"));
  // --adb asks the adb server itself: a daemon named but not answering is not asked.
  CHECK(listed(run_cli({"devices", "--adb", fake.address(), "--json"}, {"FLAKESCAN_DAEMON=http://127.0.0.1:1"})) == expected);

  auto no_daemon = run_cli({"devices", "--daemon", "http://127.0.0.1:1"});
  CHECK(no_daemon.code == 1);
  CHECK_THAT(no_daemon.err, Catch::Contains("no flakescan daemon answers at http://127.0.0.1:1"));
  auto no_adb = run_cli({"devices", "--adb", "127.0.0.1:1"});
  CHECK(no_adb.code == 1);
  CHECK_THAT(no_adb.err, Catch::Contains("flakescan devices: 127.0.0.1:1"));
  auto bad = run_cli({"devices", "--adb", "host:port"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::StartsWith("flakescan devices: --adb host:port"));
}

TEST_CASE("a run budget smaller than rerun needs is said before the first run, and the verdicts say what was made",
          "[integration][cli]") {
  testing::DaemonProcess daemon(testing::fresh_dir("cli-budget"));
  auto r = run_cli({"scan", "--daemon", daemon.url(), "--classpath", testing::jvm_basic_classpath(), "--tests",
                    "demo.basic.MathTest#adds,demo.basic.StringsTest#joins", "--runs", "4", "--max-runs", "5"});
  INFO(r.err << r.out);
  CHECK(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("flakescan: warning: rerun asks for 8 runs (2 tests x 4), more than the scan's run budget "
                                    "of 5 (--max-runs): each test gets 2 or 3"));
  // The warning comes before the scan's end.
  CHECK(r.err.find("flakescan: warning:") < r.err.find("flakescan: scan completed"));
  CHECK_THAT(r.out, Catch::Contains("of the 4 runs asked for were made (the run budget (max_runs) was spent)"));
}
