// The daemon the CLI starts itself when none answers at the default address (127.0.0.1:7711),
// used the way teams use it: several commands at once (two builds, parallel Gradle tasks)
// share it, none stops it under another, and it stops by itself once idle. Every test here
// holds the default port (CTest resource lock `default-daemon-port`) and leaves it free.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <filesystem>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "app/daemon_connection.hpp"
#include "support/daemon/cli_process.hpp"
#include "support/daemon/daemon_process.hpp"

using namespace flakescan;
using testing::RunningCli;
using testing::run_cli;

namespace {

bool default_port_answers() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(7711);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool connected = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return connected;
}

// Waits for the default port to reach `answering`; false if it did not within `limit`.
bool default_port_becomes(bool answering, std::chrono::seconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (default_port_answers() != answering) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

// The daemon a CLI started stops by itself once idle: the idle time, plus a margin for a
// loaded machine to notice and shut down.
constexpr auto stops_within = std::chrono::seconds(app::daemon_idle_seconds + 30);

// One that scripts/scan-examples started a moment ago stops by itself; one started with
// --keep-daemon does not.
void require_default_port_free() {
  INFO("a flakescand keeps answering at 127.0.0.1:7711 (a developer's, started with --keep-daemon?): stop it to run this test");
  REQUIRE(default_port_becomes(false, stops_within));
}

std::vector<std::string> scan_args(const std::string& tests, int runs) {
  return {"scan", "--classpath", testing::jvm_basic_classpath(), "--tests", tests, "--runs", std::to_string(runs)};
}

std::vector<std::string> home_env(const std::string& name) {
  return {"FLAKESCAN_HOME=" + testing::fresh_dir(name).string(), "FLAKESCAN_DAEMON="};
}

}  // namespace

TEST_CASE("without a daemon the CLI starts one itself, and it stops by itself once idle", "[integration][cli]") {
  require_default_port_free();
  auto home = testing::fresh_dir("shared-home");
  auto r = run_cli(scan_args("demo.basic.MathTest#adds", 2), {"FLAKESCAN_HOME=" + home.string(), "FLAKESCAN_DAEMON="});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("started flakescand") && Catch::Contains("stops by itself"));
  CHECK_THAT(r.out, Catch::Contains("1 tests: 0 flaky, 1 not flaky"));
  CHECK(std::filesystem::exists(home / "flakescan.db"));
  CHECK(default_port_becomes(false, stops_within));
}

TEST_CASE("a second scan uses the daemon the first started, and both complete", "[integration][cli]") {
  // Found trying flakescan as a new user: the first CLI stopped its daemon when it finished,
  // and the second ended "lost the daemon: ... Connection refused".
  require_default_port_free();
  RunningCli first(scan_args("demo.basic.MathTest#adds", 2), home_env("shared-first"));
  REQUIRE(default_port_becomes(true, std::chrono::seconds(60)));
  // Queued behind the first (one scan at a time), so it is still running when the first ends.
  RunningCli second(scan_args("demo.basic.MathTest", 4), home_env("shared-second"));
  auto a = first.finish();
  auto b = second.finish();
  INFO(a.err);
  INFO(b.err);
  CHECK(a.code == 0);
  CHECK_THAT(a.err, Catch::Contains("started flakescand"));
  CHECK_THAT(a.out, Catch::Contains("1 tests: 0 flaky, 1 not flaky"));
  CHECK(b.code == 0);
  CHECK_FALSE(b.err.find("started flakescand") != std::string::npos);
  CHECK_THAT(b.out, Catch::Contains("0 flaky") && Catch::Contains("0 failing, 0 could not run"));
  CHECK(default_port_becomes(false, stops_within));
}

TEST_CASE("two scans started at the same moment share one daemon and both complete", "[integration][cli]") {
  require_default_port_free();
  RunningCli first(scan_args("demo.basic.MathTest#adds", 2), home_env("shared-at-once-1"));
  RunningCli second(scan_args("demo.basic.MathTest#adds", 2), home_env("shared-at-once-2"));
  auto a = first.finish();
  auto b = second.finish();
  INFO(a.err);
  INFO(b.err);
  CHECK(a.code == 0);
  CHECK(b.code == 0);
  CHECK_THAT(a.out, Catch::Contains("1 tests: 0 flaky, 1 not flaky"));
  CHECK_THAT(b.out, Catch::Contains("1 tests: 0 flaky, 1 not flaky"));
  // One daemon: the one that bound the default port; the other CLI's daemon could not and
  // that CLI used the first's.
  bool a_started = a.err.find("started flakescand") != std::string::npos;
  bool b_started = b.err.find("started flakescand") != std::string::npos;
  CHECK(a_started != b_started);
  CHECK(default_port_becomes(false, stops_within));
}
