#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "support/polling.hpp"
#include "util/process.hpp"

using namespace flakescan::util;
using namespace std::chrono_literals;
using testing_support::eventually;

namespace {
auto soon(std::chrono::milliseconds ms) { return std::chrono::steady_clock::now() + ms; }
}

TEST_CASE("a child's exit status and output are observed", "[util][process]") {
  auto out = std::filesystem::temp_directory_path() / ("flakescan-process-test-" + std::to_string(::getpid()) + ".out");
  auto child = Child::spawn({.argv = {"sh", "-c", "echo hello; exit 3"}, .stdout_path = out.string()});
  REQUIRE(child);
  auto status = child->wait(soon(10s));
  REQUIRE(status);
  CHECK(status->exited);
  CHECK(status->code == 3);
  CHECK_FALSE(status->success());
  std::ifstream in(out);
  std::string line;
  std::getline(in, line);
  CHECK(line == "hello");
}

TEST_CASE("the deadline kills the whole process group", "[util][process]") {
  auto pidfile = std::filesystem::temp_directory_path() / ("flakescan-process-grandchild-" + std::to_string(::getpid()) + ".pid");
  std::filesystem::remove(pidfile);
  // The shell starts a grandchild that would outlive it; both must die.
  std::string script = "sleep 60 & echo $! > " + pidfile.string() + "; wait";
  auto child = Child::spawn({.argv = {"sh", "-c", script}});
  REQUIRE(child);
  // The deadline only once the grandchild exists (its pid written): on a loaded machine the
  // shell may not have started it 300 ms after the spawn.
  pid_t grandchild = 0;
  REQUIRE(eventually([&] {
    std::ifstream in(pidfile);
    return static_cast<bool>(in >> grandchild) && grandchild > 0;
  }));
  auto started = std::chrono::steady_clock::now();
  auto status = child->wait(soon(300ms));
  REQUIRE(status);
  CHECK(status->timed_out);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  // Reaped by init shortly after the kill; a zombie still answers kill(0), so poll /proc state.
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::string all;
    std::getline(stat, all);
    gone = !stat || all.find(") Z") != std::string::npos;
    if (!gone) std::this_thread::sleep_for(20ms);
  }
  CHECK(gone);
}

TEST_CASE("a cancel flag stops the child", "[util][process]") {
  std::atomic<bool> cancel{true};
  auto child = Child::spawn({.argv = {"sleep", "30"}});
  REQUIRE(child);
  auto status = child->wait(soon(30s), &cancel);
  REQUIRE(status);
  CHECK(status->cancelled);
  CHECK_FALSE(status->timed_out);
}

TEST_CASE("a missing program is an error, not a crash", "[util][process]") {
  auto child = Child::spawn({.argv = {"/nonexistent/flakescan-no-such-program"}});
  REQUIRE_FALSE(child);
  CHECK(child.error().code == Errc::process);
}

TEST_CASE("run_capture returns what the command printed", "[util][process]") {
  auto text = run_capture({"sh", "-c", "printf abc"}, 5s);
  REQUIRE(text);
  CHECK(*text == "abc");
  CHECK_FALSE(run_capture({"false"}, 5s));
}

TEST_CASE("a child with a stdin pipe reads what the parent writes, then end-of-file", "[util][process]") {
  auto out = std::filesystem::temp_directory_path() / ("flakescan-process-stdin-" + std::to_string(::getpid()) + ".out");
  std::filesystem::remove(out);
  // `read` takes one line; `cat` then sees end-of-file only once the parent closed its end.
  auto child = Child::spawn({.argv = {"sh", "-c", "read line; echo \"got $line\"; cat"}, .stdout_path = out.string(), .stdin_pipe = true});
  REQUIRE(child);
  REQUIRE(child->write_stdin("run\nrest\n"));
  child->close_stdin();
  auto status = child->wait(soon(10s));
  REQUIRE(status);
  CHECK(status->success());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "got run\nrest\n");
}

TEST_CASE("writing to the stdin of a child that died is an error, not SIGPIPE for us", "[util][process]") {
  auto child = Child::spawn({.argv = {"sh", "-c", "exit 0"}, .stdin_pipe = true});
  REQUIRE(child);
  auto status = child->wait(soon(10s));
  REQUIRE(status);
  auto written = child->write_stdin("run\n");  // the reader is gone: EPIPE
  REQUIRE_FALSE(written);
  CHECK(written.error().code == Errc::process);
  auto plain = Child::spawn({.argv = {"true"}});
  REQUIRE(plain);
  CHECK_FALSE(plain->write_stdin("x"));  // no pipe asked for
}

TEST_CASE("a working directory that does not exist is an error naming why, and the caller goes on", "[util][process]") {
  auto child = Child::spawn({.argv = {"true"}, .working_dir = "/nonexistent/flakescan-no-such-dir"});
  REQUIRE_FALSE(child);
  CHECK(child.error().code == Errc::process);
  CHECK(child.error().message.find("No such file or directory") != std::string::npos);
  // The caller's next start is not disturbed.
  auto text = run_capture({"sh", "-c", "printf ok"}, 5s);
  REQUIRE(text);
  CHECK(*text == "ok");
}

TEST_CASE("a child starts with no signal blocked, and the caller's signal mask is as it was", "[util][process]") {
  sigset_t usr2, before, after;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &usr2, &before);
  // /proc/<pid>/status of the shell itself: its blocked signals, as a hexadecimal mask.
  auto text = run_capture({"sh", "-c", "sed -n 's/^SigBlk:[[:space:]]*//p' /proc/$$/status"}, 5s);
  pthread_sigmask(SIG_SETMASK, nullptr, &after);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  REQUIRE(text);
  CHECK(*text == "0000000000000000\n");
  CHECK(sigismember(&after, SIGUSR2) == 1);
  CHECK(sigismember(&after, SIGUSR1) == sigismember(&before, SIGUSR1));
  CHECK(sigismember(&after, SIGTERM) == sigismember(&before, SIGTERM));
}

TEST_CASE("children started from several threads at once each run their own command", "[util][process]") {
  constexpr int threads = 4, each = 15;
  std::atomic<int> right{0};
  std::vector<std::thread> starters;
  for (int t = 0; t < threads; ++t)
    starters.emplace_back([&, t] {
      for (int i = 0; i < each; ++i) {
        const std::string word = std::to_string(t) + "-" + std::to_string(i);
        auto text = run_capture({"sh", "-c", "printf %s " + word}, 10s);
        if (text && *text == word) ++right;
      }
    });
  for (auto& s : starters) s.join();
  CHECK(right == threads * each);
}
