// The device TestExecutor against the scripted fake adb server. Every scenario prints that
// the device path was not run on a real device.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "backend/adb/adb_executor.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"
#include "support/polling.hpp"

using namespace flakescan;
using backend::adb::AdbBackendConfig;
using core::Outcome;
using std::chrono::milliseconds;

namespace {

constexpr const char* app_pkg = "com.example.app";
constexpr const char* test_pkg = "com.example.app.test";

struct Bench {
  test::FakeAdbServer fake;
  std::string dir;
  AdbBackendConfig config;

  explicit Bench(const std::string& name) {
    WARN("fake adb server: the device path was not run on a real device");
    dir = std::string(FLAKESCAN_BINARY_DIR) + "/adb_it/" + name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/app.apk", std::ios::binary) << test::build_apk(app_pkg);
    std::ofstream(dir + "/app-test.apk", std::ios::binary) << test::build_apk(test_pkg);
    config.servers = {*adb_protocol::ServerAddress::parse(fake.address())};
    config.app_apk = dir + "/app.apk";
    config.test_apk = dir + "/app-test.apk";
    config.device_wait = milliseconds(3000);
    config.log_dir = dir + "/logs";
  }

  std::unique_ptr<backend::adb::AdbExecutor> executor() {
    auto e = backend::adb::make_adb_executor(config);
    REQUIRE(e);
    return std::move(*e);
  }

  int instrument_count(const std::string& serial) const {
    int n = 0;
    for (const auto& c : fake.commands(serial)) n += c.starts_with("am instrument");
    return n;
  }
};

// Until the executor's registry lists `serial` as a device it can use (a device added to the
// fake server reaches it through track-devices and a devices-l round trip).
bool sees_device(backend::adb::AdbExecutor& exec, const std::string& serial) {
  return testing_support::eventually([&] {
    for (const auto& d : exec.registry().snapshot())
      if (d.serial == serial && d.state == "device") return true;
    return false;
  });
}

core::RunSpec spec(std::vector<std::string> tests, int timeout_ms = 20000) {
  core::RunSpec s;
  s.tests = std::move(tests);
  s.technique = "rerun";
  s.timeout_ms = timeout_ms;
  return s;
}

// Answers `am instrument` with a transcript for exactly the requested tests: `fails` fail.
test::FakeReply scripted(const std::string& command, const std::set<std::string>& fails) {
  std::vector<test::ScriptedTest> tests;
  for (const auto& id : test::instrumented_tests(command)) {
    auto hash = id.find('#');
    test::ScriptedTest t{id.substr(0, hash), id.substr(hash + 1)};
    if (fails.count(id)) {
      t.code = -2;
      t.stack = test::assertion_stack(t.cls, t.method, 42);
    }
    tests.push_back(t);
  }
  test::FakeReply r;
  r.out = test::transcript(tests);
  r.chunk = 256;
  return r;
}

}  // namespace

TEST_CASE("three devices run in parallel, one run per device, with correct outcomes", "[adb][executor]") {
  Bench b("parallel");
  for (auto s : {"emulator-5554", "emulator-5556", "emulator-5558"}) b.fake.add_device({s});
  // Each instrumentation waits (up to 10 s) until three are running at once: if the
  // executor ran them one after the other, the count below would stay at 1.
  std::mutex m;
  std::condition_variable cv;
  int arrived = 0;
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    auto r = scripted(cmd, {"demo.AsyncTest#flaky"});
    r.before = [&] {
      std::unique_lock lock(m);
      ++arrived;
      cv.notify_all();
      cv.wait_for(lock, std::chrono::seconds(10), [&] { return arrived >= 3; });
    };
    return r;
  });
  auto exec = b.executor();
  CHECK(exec->parallelism() == 3);
  core::CancelFlag cancel{false};
  std::vector<util::Result<core::RunReport>> reports(3, util::fail(util::Errc::internal, "not run"));
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&, i] { reports[i] = exec->run(spec({"demo.AsyncTest#stable", "demo.AsyncTest#flaky", "demo.Other#ok"}), cancel); });
  for (auto& t : threads) t.join();

  CHECK(b.fake.max_parallel_instrumentations() == 3);
  CHECK(b.fake.max_instrumentations_per_device() == 1);
  for (auto& r : reports) {
    REQUIRE(r);
    REQUIRE(r->results.size() == 3);
    CHECK(r->results[0].outcome == Outcome::pass);
    CHECK(r->results[1].outcome == Outcome::fail);
    CHECK(r->results[1].exception_type == "java.lang.AssertionError");
    CHECK(r->results[1].signature == "java.lang.AssertionError at demo.AsyncTest.flaky:42");
    CHECK(r->results[2].outcome == Outcome::pass);
    CHECK(r->infra_reason.empty());
    CHECK(std::filesystem::exists(r->log_path));
  }
  for (auto s : {"emulator-5554", "emulator-5556", "emulator-5558"}) {
    CHECK(b.instrument_count(s) == 1);
    // Both APKs were pushed and installed, then the pushed files removed.
    CHECK(b.fake.installed(s).size() == 2);
    CHECK(b.fake.files(s).empty());
    for (const auto& c : b.fake.commands(s))
      if (c.starts_with("am instrument"))
        CHECK(c == "am instrument -w -r -e class 'demo.AsyncTest#stable,demo.AsyncTest#flaky,demo.Other#ok'"
                   " 'com.example.app.test/androidx.test.runner.AndroidJUnitRunner'");
  }

  // Nine more runs from three threads: still never two at once on one device.
  threads.clear();
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 3; ++k) CHECK(exec->run(spec({"demo.Other#ok"}), cancel)->results[0].outcome == Outcome::pass);
    });
  for (auto& t : threads) t.join();
  CHECK(b.fake.max_instrumentations_per_device() == 1);
  // Installed once per device, not once per run.
  int installs = 0;
  for (auto s : {"emulator-5554", "emulator-5556", "emulator-5558"})
    for (const auto& c : b.fake.commands(s)) installs += c.starts_with("pm install");
  CHECK(installs == 6);
}

TEST_CASE("a device unplugged mid-run: partial results dropped, run retried on another device", "[adb][executor]") {
  Bench b("unplug");
  b.fake.add_device({"emulator-5554"});
  b.fake.add_device({"emulator-5556"});
  std::string victim;
  std::mutex m;
  b.fake.on_shell([&](const std::string& serial, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    std::lock_guard lock(m);
    if (victim.empty()) {
      // First device: reports a *failure* of the first test, then the cable is pulled.
      victim = serial;
      auto r = scripted(cmd, {"demo.AsyncTest#first"});
      auto cut = r.out.find("INSTRUMENTATION_STATUS_CODE: -2");
      REQUIRE(cut != std::string::npos);
      r.unplug_after = cut + 40;
      r.chunk = 64;
      return r;
    }
    return scripted(cmd, {});
  });
  auto exec = b.executor();
  core::CancelFlag cancel{false};
  auto r = exec->run(spec({"demo.AsyncTest#first", "demo.AsyncTest#second"}), cancel);
  REQUIRE(r);
  REQUIRE(r->results.size() == 2);
  // The failure seen on the vanished device is not an outcome: the retry decides.
  CHECK(r->results[0].outcome == Outcome::pass);
  CHECK(r->results[1].outcome == Outcome::pass);
  CHECK(r->infra_reason.empty());
  std::string other = victim == "emulator-5554" ? "emulator-5556" : "emulator-5554";
  CHECK(b.instrument_count(other) == 1);
  bool gone = false;
  for (int i = 0; i < 300 && !gone; ++i) {
    for (const auto& d : exec->registry().snapshot()) gone = gone || (d.serial == victim && d.state == "gone");
    if (!gone) std::this_thread::sleep_for(milliseconds(10));
  }
  CHECK(gone);

  // With no device left to retry on, the run is infra, never a test outcome.
  b.fake.on_shell([&](const std::string& serial, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    auto r = scripted(cmd, {"demo.AsyncTest#first"});
    r.unplug_after = r.out.find("INSTRUMENTATION_STATUS_CODE: -2") + 40;
    (void)serial;
    return r;
  });
  auto last = exec->run(spec({"demo.AsyncTest#first"}, 5000), cancel);
  REQUIRE(last);
  CHECK(last->results[0].outcome == Outcome::infra);
  CHECK(last->infra_reason.find("went away") != std::string::npos);
}

TEST_CASE("an unauthorized device is shown but never used", "[adb][executor]") {
  Bench b("unauthorized");
  b.fake.add_device({"R58M12345", "unauthorized"});
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    return scripted(cmd, {});
  });
  b.config.device_wait = milliseconds(500);
  auto exec = b.executor();
  auto snap = exec->registry().snapshot();
  REQUIRE(snap.size() == 1);
  CHECK(snap[0].state == "unauthorized");
  core::CancelFlag cancel{false};
  auto r = exec->run(spec({"demo.AsyncTest#first"}), cancel);
  REQUIRE(r);
  CHECK(r->results[0].outcome == Outcome::infra);
  CHECK(r->infra_reason.find("no device") != std::string::npos);
  CHECK(b.fake.commands("R58M12345").empty());

  b.fake.add_device({"emulator-5554"});
  REQUIRE(sees_device(*exec, "emulator-5554"));
  auto r2 = exec->run(spec({"demo.AsyncTest#first"}), cancel);
  REQUIRE(r2);
  CHECK(r2->results[0].outcome == Outcome::pass);
  CHECK(b.fake.commands("R58M12345").empty());
}

TEST_CASE("install failure: the device is skipped; on every device it is an error", "[adb][executor]") {
  Bench b("install");
  b.fake.add_device({"emulator-5554"});
  b.fake.set_install_failure("emulator-5554", "Failure [INSTALL_FAILED_OLDER_SDK: Requires newer sdk version #34 (current version is #29)]");
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    return scripted(cmd, {});
  });
  b.config.device_wait = milliseconds(500);
  auto exec = b.executor();
  core::CancelFlag cancel{false};
  auto r = exec->run(spec({"demo.AsyncTest#first"}), cancel);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == util::Errc::process);
  CHECK(r.error().message.find("INSTALL_FAILED_OLDER_SDK") != std::string::npos);
  CHECK(b.instrument_count("emulator-5554") == 0);

  b.fake.add_device({"emulator-5556"});
  REQUIRE(sees_device(*exec, "emulator-5556"));
  auto r2 = exec->run(spec({"demo.AsyncTest#first"}), cancel);
  REQUIRE(r2);
  CHECK(r2->results[0].outcome == Outcome::pass);
  CHECK(b.instrument_count("emulator-5556") == 1);
}

TEST_CASE("instrumentation crashes, served from recorded transcripts", "[adb][executor]") {
  Bench b("crash");
  b.fake.add_device({"emulator-5554"});
  std::string which = "instrumentation/adam_log_8.input";
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    test::FakeReply r;
    r.out = test::read_fixture(which);
    r.chunk = 100;
    return r;
  });
  auto exec = b.executor();
  core::CancelFlag cancel{false};
  // adam log_8: the app process crashed while signInWithEmptyPassword[1] ran.
  auto r = exec->run(spec({"kz.kolesa.tests.report.ReportBugTest#sendReportTest",
                           "kz.kolesa.tests.login.SignInEmptyDataTest#signInWithEmptyPassword[1]"}),
                     cancel);
  REQUIRE(r);
  CHECK(r->results[0].outcome == Outcome::pass);
  CHECK(r->results[1].outcome == Outcome::error);
  CHECK(r->results[1].exception_type == "java.lang.NullPointerException");
  CHECK(r->infra_reason.find("crashed") != std::string::npos);
  CHECK(b.fake.commands("emulator-5554").back().find("'kz.kolesa.tests.report.ReportBugTest#sendReportTest,"
                                                      "kz.kolesa.tests.login.SignInEmptyDataTest#signInWithEmptyPassword[1]'") !=
        std::string::npos);

  // adam log_13: the process crashed before any test ran: infra, not a failure.
  which = "instrumentation/adam_log_13.input";
  auto r2 = exec->run(spec({"com.example.FooTest#bar"}), cancel);
  REQUIRE(r2);
  CHECK(r2->results[0].outcome == Outcome::infra);
  CHECK(r2->infra_reason.find("crashed") != std::string::npos);
}

TEST_CASE("a hung device hits the run deadline: infra for what did not finish, instrumentation stopped", "[adb][executor]") {
  Bench b("hang");
  b.fake.add_device({"emulator-5554"});
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    test::FakeReply r;
    // The first test ends, the second starts and never ends.
    r.out = test::transcript({{"demo.HangTest", "quick", 0}, {"demo.HangTest", "stuck", 1}});
    r.hang = true;
    return r;
  });
  auto exec = b.executor();
  core::CancelFlag cancel{false};
  auto r = exec->run(spec({"demo.HangTest#quick", "demo.HangTest#stuck"}, 4000), cancel);  // install and start count too
  REQUIRE(r);
  CHECK(r->timed_out);
  CHECK(r->results[0].outcome == Outcome::pass);
  CHECK(r->results[1].outcome == Outcome::infra);
  auto cmds = b.fake.commands("emulator-5554");
  CHECK(std::find(cmds.begin(), cmds.end(), "am force-stop 'com.example.app.test'") != cmds.end());
}

TEST_CASE("a test repeated inside one run gets its own instrumentation (NIO on devices)", "[adb][executor]") {
  Bench b("repeat");
  b.fake.add_device({"emulator-5554"});
  int calls = 0;
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    // Non-idempotent: passes the first time, fails the second.
    return scripted(cmd, ++calls == 1 ? std::set<std::string>{} : std::set<std::string>{"demo.NioTest#t"});
  });
  b.config.clear_state = true;
  auto exec = b.executor();
  core::CancelFlag cancel{false};
  auto r = exec->run(spec({"demo.NioTest#t", "demo.NioTest#t"}), cancel);
  REQUIRE(r);
  REQUIRE(r->results.size() == 2);
  CHECK(r->results[0].outcome == Outcome::pass);
  CHECK(r->results[1].outcome == Outcome::fail);
  CHECK(b.instrument_count("emulator-5554") == 2);
  auto cmds = b.fake.commands("emulator-5554");
  CHECK(std::find(cmds.begin(), cmds.end(), "pm clear 'com.example.app'") != cmds.end());
}

TEST_CASE("configuration is validated before anything reaches a device", "[adb][executor]") {
  Bench b("config");
  auto bad = b.config;
  bad.instrumentation_args = {{"size", "large;reboot"}};
  CHECK(backend::adb::make_adb_executor(bad).error().code == util::Errc::invalid_argument);
  bad = b.config;
  bad.runner = "androidx.test.runner.AndroidJUnitRunner$(reboot)";
  CHECK(backend::adb::make_adb_executor(bad).error().code == util::Errc::invalid_argument);
  bad = b.config;
  bad.test_apk = b.dir + "/missing.apk";
  CHECK_FALSE(backend::adb::make_adb_executor(bad).has_value());
  auto exec = b.executor();
  CHECK(exec->config().test_package == test_pkg);
  CHECK(exec->config().app_package == app_pkg);
  core::CancelFlag cancel{false};
  CHECK(exec->run(spec({"demo.X#y;reboot"}), cancel).error().code == util::Errc::invalid_argument);
  CHECK(b.fake.services().empty() == false);  // tracking only
  for (const auto& s : b.fake.services()) CHECK(s.find("reboot") == std::string::npos);
}

TEST_CASE("discovery lists a class's tests with `-e log true` and names what is missing", "[adb][executor]") {
  Bench b("discover");
  b.fake.add_device({"emulator-5554"});
  b.fake.on_shell([&](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    REQUIRE(cmd.find("-e 'log' 'true'") != std::string::npos);  // dry run: nothing executes
    test::FakeReply r;
    r.out = test::transcript({{"demo.AsyncTest", "a", 0}, {"demo.AsyncTest", "b", 0}, {"demo.Other", "ok", 0}});
    return r;
  });
  auto exec = b.executor();
  core::CancelFlag cancel{false};
  auto ids = core::parse_test_ids("demo.AsyncTest,demo.Other#ok,demo.Other#gone");
  REQUIRE(ids);
  auto d = exec->discover(*ids, cancel);
  REQUIRE(d);
  CHECK(d->tests == std::vector<std::string>{"demo.AsyncTest#a", "demo.AsyncTest#b", "demo.Other#ok"});
  REQUIRE(d->missing.size() == 1);
  CHECK(d->missing[0].first == "demo.Other#gone");
}

TEST_CASE("a scheduled run (technique threads) is refused before any device is used, saying why", "[adb][executor][threads]") {
  Bench b("scheduled");
  auto exec = b.executor();
  auto s = spec({"demo.AsyncTest#stable"});
  s.technique = "threads";
  s.schedule = core::ScheduleSpec{.strategy = "pct", .seed = 7};
  core::CancelFlag cancel{false};
  auto report = exec->run(s, cancel);
  REQUIRE_FALSE(report);
  CHECK(report.error().code == util::Errc::unsupported);
  CHECK_THAT(report.error().message, Catch::Contains("technique threads runs on the local JVM backend"));
}
