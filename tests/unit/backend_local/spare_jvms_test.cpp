// The pool of runner JVMs started ahead (SpareJvms), with shells standing in for JVMs: each
// spare is `sh` blocked on its stdin, as the runner's wait mode is.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <future>
#include <string>
#include <thread>

#include "backend/local_jvm/spare_jvms.hpp"
#include "support/polling.hpp"

using namespace flakescan;
using testing_support::eventually;
using testing_support::running;
using namespace std::chrono_literals;

namespace {

backend::SpareJvms::Start shell_spares(const std::string& key, std::atomic<int>& started) {
  return [key, &started]() -> util::Result<backend::SpareJvm> {
    auto child = util::Child::spawn({.argv = {"sh", "-c", "read line; [ \"$line\" = run ]"}, .stdin_pipe = true});
    if (!child) return std::unexpected(child.error());
    ++started;
    return backend::SpareJvm{.child = std::move(*child), .key = key};
  };
}

}  // namespace

TEST_CASE("a pool fills up to its capacity with spares of the key asked for, and a run takes a live one",
          "[backend][local_jvm][spares]") {
  std::atomic<int> started{0};
  backend::SpareJvms pool(2);
  CHECK_FALSE(pool.take("a", shell_spares("a", started)));  // empty: the run starts its own JVM
  REQUIRE(eventually([&] { return pool.pids().size() == 2; }));
  auto spare = pool.take("a", shell_spares("a", started));
  REQUIRE(spare);
  CHECK(running(spare->child.pid()));
  REQUIRE(spare->child.write_stdin("run\n"));
  spare->child.close_stdin();
  auto status = spare->child.wait(std::chrono::steady_clock::now() + 10s);
  REQUIRE(status);
  CHECK(status->success());  // it got exactly "run"
  REQUIRE(eventually([&] { return pool.pids().size() == 2; }));  // replaced
  CHECK(started == 3);
  // Bounded: nothing more is started while the pool is full.
  std::this_thread::sleep_for(100ms);
  CHECK(started == 3);
  CHECK(pool.pids().size() == 2);
}

TEST_CASE("a primed pool fills before any run asks, and the first run takes one", "[backend][local_jvm][spares]") {
  std::atomic<int> started{0};
  backend::SpareJvms pool(2);
  pool.prime("a", shell_spares("a", started));
  REQUIRE(eventually([&] { return pool.pids().size() == 2; }));
  auto spare = pool.take("a", shell_spares("a", started));
  REQUIRE(spare);
  CHECK(running(spare->child.pid()));
  // Primed with another key: the old key's spares go, the new key's come.
  const auto old_pids = pool.pids();
  pool.prime("b", shell_spares("b", started));
  REQUIRE(eventually([&] { return pool.pids().size() == 2 && pool.pids() != old_pids; }));
  for (pid_t p : old_pids) CHECK(eventually([&] { return !running(p); }));
  CHECK_FALSE(pool.take("a", shell_spares("a", started)));  // b's are not a's
}

TEST_CASE("a run with another key gets no spare, and the old key's spares are killed", "[backend][local_jvm][spares]") {
  std::atomic<int> started{0};
  backend::SpareJvms pool(1);
  (void)pool.take("a", shell_spares("a", started));
  REQUIRE(eventually([&] { return pool.pids().size() == 1; }));
  const pid_t old = pool.pids().front();
  CHECK_FALSE(pool.take("b", shell_spares("b", started)));
  CHECK_FALSE(running(old));
  REQUIRE(eventually([&] { return pool.pids().size() == 1; }));
  auto spare = pool.take("b", shell_spares("b", started));
  REQUIRE(spare);
  CHECK(spare->key == "b");
}

TEST_CASE("a spare started with a key other than the one asked for is never handed out", "[backend][local_jvm][spares]") {
  // The launch changed while the spare started (the class data archive appeared): its command
  // line is not the run's, so it is dropped and no more are made until a run asks again.
  std::atomic<int> started{0};
  std::atomic<pid_t> stale{0};
  backend::SpareJvms pool(1);
  auto start_stale = [&, start = shell_spares("stale", started)]() -> util::Result<backend::SpareJvm> {
    auto spare = start();
    if (spare) stale = spare->child.pid();
    return spare;
  };
  (void)pool.take("a", start_stale);
  REQUIRE(eventually([&] { return stale != 0 && !running(stale); }));  // the keeper dropped it
  CHECK(started == 1);  // and stopped asking before it let it go
  CHECK(pool.pids().empty());
  CHECK_FALSE(pool.take("a", shell_spares("a", started)));
  REQUIRE(eventually([&] { return pool.pids().size() == 1; }));
  CHECK(pool.take("a", shell_spares("a", started)));
}

TEST_CASE("a run that asks while a stale spare starts is not forgotten when that spare is dropped", "[backend][local_jvm][spares]") {
  // The run's ask comes between the stale spare's start and the keeper's look at it: the keeper
  // must keep that ask and start a spare for it.
  std::atomic<int> started{0};
  std::atomic<bool> in_start{false};
  std::promise<void> release;
  auto released = release.get_future().share();
  backend::SpareJvms pool(1);
  auto start_stale = [&, start = shell_spares("stale", started)]() -> util::Result<backend::SpareJvm> {
    in_start = true;
    released.wait();
    return start();
  };
  (void)pool.take("a", start_stale);
  REQUIRE(eventually([&] { return in_start.load(); }));
  CHECK_FALSE(pool.take("a", shell_spares("a", started)));  // asks while the stale one starts
  release.set_value();
  REQUIRE(eventually([&] { return pool.pids().size() == 1; }));
  CHECK(pool.take("a", shell_spares("a", started)));
}

TEST_CASE("a spare that died while waiting is dropped and replaced, and the run takes another", "[backend][local_jvm][spares]") {
  std::atomic<int> started{0};
  backend::SpareJvms pool(2);
  (void)pool.take("a", shell_spares("a", started));
  REQUIRE(eventually([&] { return pool.pids().size() == 2; }));
  const pid_t dead = pool.pids().front();
  ::kill(dead, SIGKILL);
  REQUIRE(eventually([&] { return !running(dead); }));
  auto spare = pool.take("a", shell_spares("a", started));
  REQUIRE(spare);
  CHECK(spare->child.pid() != dead);
  CHECK(running(spare->child.pid()));
  REQUIRE(eventually([&] { return pool.pids().size() == 2; }));
  for (pid_t p : pool.pids()) CHECK(p != dead);
}

TEST_CASE("spares die with their pool: stop and the destructor leave no process behind", "[backend][local_jvm][spares]") {
  std::atomic<int> started{0};
  std::vector<pid_t> pids;
  {
    backend::SpareJvms pool(3);
    (void)pool.take("a", shell_spares("a", started));
    REQUIRE(eventually([&] { return pool.pids().size() == 3; }));
    pids = pool.pids();
  }
  for (pid_t p : pids) CHECK_FALSE(running(p));
  backend::SpareJvms stopped(1);
  (void)stopped.take("a", shell_spares("a", started));
  REQUIRE(eventually([&] { return stopped.pids().size() == 1; }));
  const pid_t p = stopped.pids().front();
  stopped.stop();
  CHECK_FALSE(running(p));
  CHECK(stopped.pids().empty());
  CHECK_FALSE(stopped.take("a", shell_spares("a", started)));  // a stopped pool starts nothing
}

TEST_CASE("after three spares in a row fail to start, the pool starts no more until another key", "[backend][local_jvm][spares]") {
  std::atomic<int> attempts{0};
  backend::SpareJvms pool(2);
  auto failing = [&attempts]() -> util::Result<backend::SpareJvm> {
    ++attempts;
    return util::fail(util::Errc::process, "cannot start java");
  };
  (void)pool.take("a", failing);
  REQUIRE(eventually([&] { return attempts == 3; }));
  std::this_thread::sleep_for(100ms);
  CHECK(attempts == 3);
  std::atomic<int> started{0};
  (void)pool.take("b", shell_spares("b", started));
  CHECK(eventually([&] { return pool.pids().size() == 2; }));
}
