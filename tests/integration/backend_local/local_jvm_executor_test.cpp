// The local-JVM backend against real JVMs: ordered runs, JUnit 4 and 5, and every way a
// test can take the JVM down (hang, System.exit, halt, failing static initialiser).
#include <catch2/catch.hpp>

#include <algorithm>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "backend/local_jvm/local_jvm_executor.hpp"
#include "support/daemon/daemon_process.hpp"
#include "support/polling.hpp"

using namespace flakescan;
using testing_support::eventually;
using testing_support::running;
using core::Outcome;

namespace {

backend::LocalJvmConfig plain_config(const std::string& name, std::vector<std::string> classpath) {
  backend::LocalJvmConfig c;
  c.runner_jar = testing::build_path("lib/flakescan-runner.jar");
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = std::move(classpath);
  c.work_dir = testing::fresh_dir(name);
  return c;
}

backend::LocalJvmExecutor executor(const std::string& name, std::vector<std::string> classpath) {
  return backend::LocalJvmExecutor(plain_config(name, std::move(classpath)));
}

std::vector<std::string> infra_cp() { return {testing::build_path("tests/fixtures/jvm-infra.jar").string()}; }

core::RunReport run(backend::LocalJvmExecutor& ex, std::vector<std::string> tests, int timeout_ms = 60000) {
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = std::move(tests), .technique = "test"};
  spec.timeout_ms = timeout_ms;
  auto r = ex.run(spec, cancel);
  REQUIRE(r);
  return *r;
}

}  // namespace

TEST_CASE("tests run in exactly the given order in one JVM, repeats included", "[integration][local_jvm]") {
  auto ex = executor("order", {testing::jvm_basic_classpath()});
  auto report = run(ex, {"demo.basic.RegistryPolluterTest#registersDefaultCurrency", "demo.basic.RegistryVictimTest#startsWithEmptyRegistry",
                         "demo.basic.CounterTest#countsFirstVisit", "demo.basic.CounterTest#countsFirstVisit",
                         "demo.basic.StringsTest#ignored", "demo.basic.MathTest#nope"});
  REQUIRE(report.results.size() == 6);
  CHECK(report.results[0].outcome == Outcome::pass);
  CHECK(report.results[1].outcome == Outcome::fail);  // the victim, after its polluter
  CHECK(report.results[1].message == "expected:<0> but was:<1>");
  CHECK(report.results[1].signature == "java.lang.AssertionError at demo.basic.RegistryVictimTest.startsWithEmptyRegistry:11");
  CHECK(report.results[2].outcome == Outcome::pass);  // JUnit 5, first visit
  CHECK(report.results[3].outcome == Outcome::fail);  // second visit in the same JVM
  CHECK(report.results[3].exception_type == "org.opentest4j.AssertionFailedError");
  CHECK(report.results[4].outcome == Outcome::skipped);
  CHECK(report.results[5].outcome == Outcome::not_found);
  CHECK(report.infra_reason.empty());
  CHECK(report.exit_code == 0);
  // None of these tests creates a thread, and the runner creates none around them either.
  for (const auto& r : report.results) CHECK(r.threads_created == 0);
}

// The "ran NAME" lines a run's tests printed, in the order they ran.
std::vector<std::string> ran_order(const core::RunReport& report) {
  std::vector<std::string> out;
  std::ifstream log(report.log_path);
  for (std::string line; std::getline(log, line);)
    if (line.starts_with("ran ")) out.push_back(line.substr(4));
  return out;
}

TEST_CASE("a JUnit 5 class's methods run in any order asked for in one launcher call; one with its own order still runs ours",
          "[integration][local_jvm]") {
  auto ex = executor("jupiter-order", infra_cp());
  // Two orders of the same three tests: at most one of them is the engine's own order, so
  // the other one is grouped only by asking Jupiter for our order.
  for (const auto& order : std::vector<std::vector<std::string>>{{"gamma", "alpha", "beta"}, {"beta", "gamma", "alpha"}}) {
    std::vector<std::string> ids;
    for (const auto& m : order) ids.push_back("fixture.infra.OneCallTest#" + m);
    auto report = run(ex, ids);
    REQUIRE(report.results.size() == 3);
    for (const auto& r : report.results) {
      INFO(r.test << ": " << r.message);
      CHECK(r.outcome == Outcome::pass);  // @BeforeAll ran once: one launcher call
    }
    CHECK(ran_order(report) == order);
  }
  auto own = run(ex, {"fixture.infra.OwnOrderTest#gamma", "fixture.infra.OwnOrderTest#beta", "fixture.infra.OwnOrderTest#alpha"});
  CHECK(ran_order(own) == std::vector<std::string>{"gamma", "beta", "alpha"});
}

TEST_CASE("discovery expands classes and reports what does not exist", "[integration][local_jvm]") {
  auto ex = executor("discover", {testing::jvm_basic_classpath()});
  core::CancelFlag cancel{false};
  auto d = ex.discover({core::TestId::parse("demo.basic.ConfigTest").value(), core::TestId::parse("demo.basic.Nope").value(),
                        core::TestId::parse("demo.basic.MathTest#adds").value()},
                       cancel);
  REQUIRE(d);
  CHECK(d->tests == std::vector<std::string>{"demo.basic.ConfigTest#loadsConfig", "demo.basic.ConfigTest#readsLoadedConfig",
                                             "demo.basic.MathTest#adds"});
  REQUIRE(d->missing.size() == 1);
  CHECK(d->missing[0].second == "class not found on the classpath: demo.basic.Nope");
}

TEST_CASE("a JUnit 3 test with an overloaded name is found and runs (the Vintage engine gives it only its class)",
          "[integration][local_jvm]") {
  auto ex = executor("junit3-overload", infra_cp());
  core::CancelFlag cancel{false};
  auto d = ex.discover({core::TestId::parse("fixture.infra.OverloadedJUnit3Test").value(),
                        core::TestId::parse("fixture.infra.OverloadedJUnit3Test#testSum").value()},
                       cancel);
  REQUIRE(d);
  INFO(Catch::Detail::stringify(d->missing));
  CHECK(d->missing.empty());
  auto tests = d->tests;
  std::sort(tests.begin(), tests.end());
  CHECK(tests == std::vector<std::string>{"fixture.infra.OverloadedJUnit3Test#testProduct", "fixture.infra.OverloadedJUnit3Test#testSum"});
  auto report = run(ex, {"fixture.infra.OverloadedJUnit3Test#testSum", "fixture.infra.OverloadedJUnit3Test#testProduct"});
  REQUIRE(report.results.size() == 2);
  for (const auto& r : report.results) {
    INFO(r.test << ": " << r.message);
    CHECK(r.outcome == Outcome::pass);
  }
}

TEST_CASE("System.exit and halt are infrastructure failures, not test failures", "[integration][local_jvm]") {
  auto ex = executor("exit", infra_cp());
  auto exited = run(ex, {"fixture.infra.InfraTest#passes", "fixture.infra.InfraTest#exitsTheJvm", "fixture.infra.InfraTest#passes"});
  CHECK(exited.results[0].outcome == Outcome::pass);
  CHECK(exited.results[1].outcome == Outcome::infra);
  CHECK(exited.results[1].message ==
        "test did not finish: it called System.exit at fixture.infra.InfraTest.exitsTheJvm(InfraTest.java:21) and the JVM "
        "exited with status 3");
  CHECK(exited.results[2].outcome == Outcome::infra);
  CHECK(exited.exit_code == 3);
  CHECK_FALSE(exited.infra_reason.empty());

  auto halted = run(ex, {"fixture.infra.InfraTest#haltsTheJvm"});
  CHECK(halted.results[0].outcome == Outcome::infra);
  CHECK(halted.exit_code == 137);
}

TEST_CASE("a hanging test is killed at the deadline with its JVM", "[integration][local_jvm]") {
  // On a spare that is ready already: its deadline counts from the instruction, so a loaded
  // machine's slow JVM start cannot eat the time `passes` needs.
  auto c = plain_config("hang", infra_cp());
  c.spares = 1;
  backend::LocalJvmExecutor ex(c);
  auto warm = run(ex, {"fixture.infra.InfraTest#passes"});
  REQUIRE(eventually([&] {
    if (ex.spare_pids().size() != 1) return false;
    for (const auto& e : std::filesystem::directory_iterator(c.work_dir)) {
      if (e.path().extension() != ".log" || e.path().string() == warm.log_path) continue;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      if (text.str().find("flakescan runner: ready, waiting for the daemon to say run") != std::string::npos) return true;
    }
    return false;
  }));
  auto report = run(ex, {"fixture.infra.InfraTest#passes", "fixture.infra.InfraTest#hangs"}, 4000);
  CHECK(report.prestarted);
  CHECK(report.timed_out);
  CHECK(report.results[0].outcome == Outcome::pass);
  CHECK(report.results[1].outcome == Outcome::infra);
  CHECK(report.results[1].message == "test did not finish: the JVM was killed at the 4 s deadline while it ran");
}

TEST_CASE("a scheduled run killed at the deadline says how far its schedule got", "[integration][local_jvm]") {
  auto c = backend::LocalJvmConfig{};
  c.runner_jar = testing::build_path("lib/flakescan-runner.jar");
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = infra_cp();
  c.work_dir = testing::fresh_dir("scheduled-hang");
  c.threads_agent_jar = testing::build_path("lib/flakescan-threads-agent.jar");
  backend::LocalJvmExecutor ex(c);
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = {"fixture.infra.InfraTest#spins"}, .technique = "test"};
  spec.timeout_ms = 8000;  // a JVM of its own under the agent: its start counts, on a loaded machine too
  spec.schedule = core::ScheduleSpec{.strategy = "random", .seed = 7};
  auto report = ex.run(spec, cancel);
  REQUIRE(report);
  CHECK(report->timed_out);
  REQUIRE(report->results.size() == 1);
  const auto& message = report->results[0].message;
  INFO(message);
  CHECK(report->results[0].outcome == Outcome::infra);
  CHECK(message.starts_with("test did not finish: the JVM was killed at the 8 s deadline (under control the test had passed "));
  CHECK(message.find(" scheduling points, with 1 thread; the running thread was last at fixture.infra.InfraTest.spins(InfraTest.java:") !=
        std::string::npos);
}

TEST_CASE("threads left behind do not keep the JVM alive; broken initialisers are errors", "[integration][local_jvm]") {
  auto ex = executor("leftovers", infra_cp());
  auto report = run(ex, {"fixture.infra.InfraTest#leavesAThreadBehind", "fixture.infra.BrokenInitTest#usesValue",
                         "fixture.infra.BrokenInitTest#usesValue"});
  CHECK_FALSE(report.timed_out);
  CHECK(report.results[0].outcome == Outcome::pass);
  CHECK(report.results[0].threads_created == 1);  // its one thread, counted for it
  CHECK(report.results[1].threads_created == 0);
  CHECK(report.results[1].outcome == Outcome::error);
  CHECK(report.results[1].exception_type == "java.lang.ExceptionInInitializerError");
  CHECK(report.results[2].outcome == Outcome::error);  // NoClassDefFoundError the second time
  CHECK(report.results[2].exception_type == "java.lang.NoClassDefFoundError");
}

TEST_CASE("a cancelled run kills its JVM at once", "[integration][local_jvm]") {
  auto ex = executor("cancel", infra_cp());
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = {"fixture.infra.InfraTest#hangs"}};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    cancel = true;
  });
  auto r = ex.run(spec, cancel);
  canceller.join();
  REQUIRE_FALSE(r);
  CHECK(r.error().code == util::Errc::cancelled);
}

TEST_CASE("class data sharing: the first run does not wait for the warm-up JVM's archive, later runs start from it, outcomes unchanged",
          "[integration][local_jvm]") {
  backend::LocalJvmConfig c;
  c.runner_jar = testing::build_path("lib/flakescan-runner.jar");
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = {testing::jvm_basic_classpath()};
  c.work_dir = testing::fresh_dir("cds");
  c.cds_dir = c.work_dir / "cds";
  c.jvm_args = {"-Xlog:class+load=info"};  // each run's log says where its classes came from
  backend::LocalJvmExecutor ex(c);
  const std::vector<std::string> tests{"demo.basic.RegistryPolluterTest#registersDefaultCurrency",
                                       "demo.basic.RegistryVictimTest#startsWithEmptyRegistry"};
  auto first = run(ex, tests);  // started the warm-up JVM, and ran without waiting for its archive
  auto archives = [&] {
    int n = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(c.cds_dir, ec)) n += e.path().extension() == ".jsa";
    return n;
  };
  REQUIRE(eventually([&] { return archives() == 1; }));
  auto second = run(ex, tests);
  auto log_of = [](const core::RunReport& r) {
    std::ifstream in(r.log_path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  CHECK(log_of(second).find("io.flakescan.runner.Main source: shared objects file (top)") != std::string::npos);
  for (const auto* report : {&first, &second}) {
    REQUIRE(report->results.size() == 2);
    CHECK(report->results[0].outcome == Outcome::pass);
    CHECK(report->results[1].outcome == Outcome::fail);  // still the victim after its polluter
    CHECK(report->infra_reason.empty());
  }
  // The archive can be mapped: ask a JVM the same way with -Xshare:on, which refuses to start
  // when the archive cannot be used.
  std::string jsa;
  for (const auto& e : std::filesystem::directory_iterator(c.cds_dir)) jsa = e.path().string();
  std::vector<std::string> cp = c.classpath;
  cp.push_back(c.runner_jar.string());
  cp.insert(cp.end(), c.platform_jars.begin(), c.platform_jars.end());
  std::string joined;
  for (const auto& p : cp) joined += (joined.empty() ? "" : ":") + p;
  auto java = util::Child::spawn({.argv = {"java", "-Xshare:on", "-XX:SharedArchiveFile=" + jsa, "-cp", joined, "-version"},
                                  .stdout_path = (c.work_dir / "share-on.log").string()});
  REQUIRE(java);
  auto status = java->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
  REQUIRE(status);
  CHECK(status->success());
}

TEST_CASE("class data sharing on a class directory: plain and debugged runs keep their outcomes",
          "[integration][local_jvm]") {
  // Gradle and Maven put compiled tests in a directory (build/classes/java/test), not a jar.
  backend::LocalJvmConfig c;
  c.runner_jar = testing::build_path("lib/flakescan-runner.jar");
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.work_dir = testing::fresh_dir("cds-classdir");
  auto classes = c.work_dir / "build/classes/java/test";
  std::filesystem::create_directories(classes);
  auto unpack = util::Child::spawn({.argv = {"jar", "xf", testing::build_path("examples/jvm-basic.jar").string()},
                                    .working_dir = classes.string(), .stdout_path = (c.work_dir / "jar.log").string()});
  REQUIRE(unpack);
  auto unpacked = unpack->wait(std::chrono::steady_clock::now() + std::chrono::seconds(60));
  REQUIRE(unpacked);
  REQUIRE(unpacked->success());
  std::string cp = testing::jvm_basic_classpath();
  c.classpath = {classes.string()};
  for (size_t at = cp.find(':'); at != std::string::npos;) {
    size_t next = cp.find(':', at + 1);
    c.classpath.push_back(cp.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1));
    at = next;
  }
  c.cds_dir = c.work_dir / "cds";
  backend::LocalJvmExecutor ex(c);
  const std::vector<std::string> tests{"demo.basic.RegistryPolluterTest#registersDefaultCurrency",
                                       "demo.basic.RegistryVictimTest#startsWithEmptyRegistry"};
  auto check = [&](const core::RunReport& report) {
    CHECK(report.infra_reason.empty());
    REQUIRE(report.results.size() == 2);
    CHECK(report.results[0].outcome == Outcome::pass);
    CHECK(report.results[1].outcome == Outcome::fail);
  };
  check(run(ex, tests));
  check(run(ex, tests));
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = tests, .technique = "test"};
  spec.timeout_ms = 60000;
  auto debugged = ex.run_debugged(spec, cancel, [](core::Vm& vm) -> util::Result<void> {
    return vm.resume_all(core::deadline_in(std::chrono::seconds(10)));
  });
  REQUIRE(debugged);
  check(*debugged);
}

TEST_CASE("a debugged run's drive gets the JVM suspended before main, its VMStart already read",
          "[integration][local_jvm]") {
  // The agent suspends the threads only just before it sends VMStart; a resume that came
  // earlier was lost and the run hung until its deadline (own-suite drill, under load).
  auto ex = executor("debugged-start", {testing::jvm_basic_classpath()});
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = {"demo.basic.RegistryPolluterTest#registersDefaultCurrency"}, .technique = "test"};
  spec.timeout_ms = 60000;
  bool main_suspended = false;
  std::string first_event = "none";
  auto debugged = ex.run_debugged(spec, cancel, [&](core::Vm& vm) -> util::Result<void> {
    auto threads = vm.threads(core::deadline_in(std::chrono::seconds(10)));
    if (!threads) return std::unexpected(threads.error());
    for (const auto& t : *threads) {
      if (t.name != "main") continue;
      auto status = vm.thread_status(t.thread, core::deadline_in(std::chrono::seconds(10)));
      if (!status) return std::unexpected(status.error());
      main_suspended = status->suspended;
    }
    // Nothing can happen in a VM that is suspended and has no requests: no event comes.
    auto event = vm.next_event(core::deadline_in(std::chrono::milliseconds(300)));
    if (event) first_event = core::event_kind_name(event->kind);
    return vm.resume_all(core::deadline_in(std::chrono::seconds(10)));
  });
  REQUIRE(debugged);
  CHECK(main_suspended);
  CHECK(first_event == "none");
  CHECK(debugged->infra_reason.empty());
  REQUIRE(debugged->results.size() == 1);
  CHECK(debugged->results[0].outcome == Outcome::pass);
}

TEST_CASE("tests run in the working directory the scan names", "[integration][local_jvm]") {
  // Maven and Gradle run tests in the module's directory; marine-api's tests open
  // src/test/resources/... relative to it (docs/real-projects.md).
  auto module = testing::fresh_dir("working_dir_module");
  std::filesystem::create_directories(module / "src/test/resources");
  { std::ofstream(module / "src/test/resources/module-marker.txt") << "here\n"; }
  auto elsewhere = executor("working_dir_default", infra_cp());
  CHECK(run(elsewhere, {"fixture.infra.InfraTest#readsAFileOfItsModule"}).results.at(0).outcome == Outcome::fail);
  backend::LocalJvmConfig c;
  c.runner_jar = testing::build_path("lib/flakescan-runner.jar");
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = infra_cp();
  c.work_dir = testing::fresh_dir("working_dir");
  c.test_dir = module;
  backend::LocalJvmExecutor in_module(c);
  CHECK(run(in_module, {"fixture.infra.InfraTest#readsAFileOfItsModule"}).results.at(0).outcome == Outcome::pass);
}

// ---- Runner JVMs started ahead (SpareJvms): isolation, lifetime, replacement, which runs take them.

namespace {

// The processes whose parent is this test process (spares are started by the pool's thread).
int children_of_this_process() {
  const std::string me = std::to_string(::getpid());
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(e.path() / "stat");
    std::string all;
    if (!std::getline(stat, all)) continue;
    auto close = all.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(all.substr(close + 2));
    std::string state, ppid;
    rest >> state >> ppid;
    n += ppid == me && state != "Z";
  }
  return n;
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string ready_line = "flakescan runner: ready, waiting for the daemon to say run";

// The log of a spare that got ready and waits (its JVM's output so far), other than `except`.
std::string waiting_spare_log(const std::filesystem::path& work_dir, const std::string& except) {
  std::string found;
  REQUIRE(eventually([&] {
    for (const auto& e : std::filesystem::directory_iterator(work_dir)) {
      if (e.path().extension() != ".log" || e.path().string() == except) continue;
      auto text = file_text(e.path());
      if (text.find(ready_line) != std::string::npos) return found = text, true;
    }
    return false;
  }));
  return found;
}

backend::LocalJvmConfig spare_config(const std::string& name, std::vector<std::string> jvm_args = {}) {
  backend::LocalJvmConfig c;
  c.runner_jar = testing::build_path("lib/flakescan-runner.jar");
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  c.classpath = {testing::jvm_basic_classpath()};
  c.work_dir = testing::fresh_dir(name);
  c.jvm_args = std::move(jvm_args);
  c.parallelism = 1;
  c.spares = 1;
  c.threads_agent_jar = testing::build_path("lib/flakescan-threads-agent.jar");
  return c;
}

const std::string polluter = "demo.basic.RegistryPolluterTest#registersDefaultCurrency";
const std::string victim = "demo.basic.RegistryVictimTest#startsWithEmptyRegistry";

}  // namespace

TEST_CASE("a prestarted JVM loads nothing of the project before it is told its tests, then runs exactly them",
          "[integration][local_jvm][prestart]") {
  auto c = spare_config("prestart-exact", {"-Xlog:class+load=info"});
  backend::LocalJvmExecutor ex(c);
  auto first = run(ex, {"demo.basic.MathTest#adds"});  // no spare yet: a JVM of its own; one is started meanwhile
  CHECK_FALSE(first.prestarted);
  // What the spare did before it knew its tests: JDK, JUnit and runner classes, no class of the project.
  const auto waiting = waiting_spare_log(c.work_dir, first.log_path);
  CHECK(waiting.find("io.flakescan.runner.Prestart") != std::string::npos);
  CHECK(waiting.find("demo.basic.") == std::string::npos);
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));  // in the pool, not only started
  auto second = run(ex, {polluter});
  CHECK(second.prestarted);
  REQUIRE(second.results.size() == 1);
  CHECK(second.results[0].test == polluter);
  CHECK(second.results[0].outcome == Outcome::pass);
  const auto log = file_text(second.log_path);
  const auto ready_at = log.find(ready_line);
  REQUIRE(ready_at != std::string::npos);
  CHECK(log.find("demo.basic.") > ready_at);                          // the project only after the instruction
  CHECK(log.find("demo.basic.RegistryPolluterTest") != std::string::npos);
  CHECK(log.find("demo.basic.MathTest") == std::string::npos);        // nor any test it was not given
}

TEST_CASE("a prestarted JVM has taken the JDK's part of a run before its instruction: results formatting, file reading, string building",
          "[integration][local_jvm][prestart]") {
  auto c = spare_config("prestart-jdk-ready", {"-Xlog:class+load=info"});
  backend::LocalJvmExecutor ex(c);
  (void)run(ex, {"demo.basic.MathTest#adds"});
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  auto second = run(ex, {polluter});
  REQUIRE(second.prestarted);
  REQUIRE(second.results.size() == 1);
  CHECK(second.results[0].duration_ms >= 0);
  const auto log = file_text(second.log_path);
  const auto ready_at = log.find(ready_line);
  REQUIRE(ready_at != std::string::npos);
  const auto after = log.substr(ready_at);
  // Each of these cost milliseconds of class loading and linking after the instruction: a
  // duration formatted by String.format (its regex and locale data), the tests file read
  // through a file channel, and a string concatenation bootstrapped through method handles.
  for (const char* cls : {"java.util.Formatter ", "java.text.DecimalFormatSymbols ", "sun.nio.ch.FileChannelImpl ",
                          "java.lang.invoke.StringConcatFactory ", "BoundMethodHandle$Species_LLLL "}) {
    INFO(cls);
    CHECK(after.find(cls) == std::string::npos);
  }
}

TEST_CASE("static state does not leak between prestarted JVMs: a polluter, then its victim, each in a clean JVM",
          "[integration][local_jvm][prestart]") {
  auto c = spare_config("prestart-statics");
  backend::LocalJvmExecutor ex(c);
  auto alone = run(ex, {polluter, victim});  // in one JVM the victim fails: the state is there to leak
  REQUIRE(alone.results.size() == 2);
  CHECK(alone.results[1].outcome == Outcome::fail);
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  auto polluted = run(ex, {polluter});
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  auto victim_run = run(ex, {victim});
  CHECK(polluted.prestarted);
  CHECK(victim_run.prestarted);
  CHECK(polluted.results.at(0).outcome == Outcome::pass);
  CHECK(victim_run.results.at(0).outcome == Outcome::pass);  // its registry is empty: a JVM no test touched
}

TEST_CASE("with the archive made and priming asked for, spares start beside discovery and the first run takes one",
          "[integration][local_jvm][prestart]") {
  auto c = spare_config("prestart-prime");
  c.cds_dir = c.work_dir / "cds";
  {
    backend::LocalJvmExecutor maker(c);  // a scan before this one made the archive
    core::CancelFlag cancel{false};
    REQUIRE(maker.discover({core::TestId::parse(polluter).value()}, cancel));
  }  // its destructor waits for the warm-up JVM
  REQUIRE(std::filesystem::exists(c.cds_dir));
  core::CancelFlag cancel{false};
  {
    backend::LocalJvmExecutor quiet(c);  // priming not asked for: nothing before a run asks
    REQUIRE(quiet.discover({core::TestId::parse(polluter).value()}, cancel));
    CHECK(quiet.spare_pids().empty());
  }
  c.prime_spares = true;
  backend::LocalJvmExecutor ex(c);
  REQUIRE(ex.discover({core::TestId::parse(polluter).value()}, cancel));
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  auto report = run(ex, {polluter});
  CHECK(report.prestarted);
  REQUIRE(report.results.size() == 1);
  CHECK(report.results[0].outcome == Outcome::pass);
}

TEST_CASE("spares die with their executor: the processes before and after are the same", "[integration][local_jvm][prestart]") {
  const int before = children_of_this_process();
  std::vector<pid_t> spares;
  {
    auto c = spare_config("prestart-lifetime");
    c.parallelism = 2;
    c.spares = 0;  // the default: parallelism + 1
    backend::LocalJvmExecutor ex(c);
    (void)run(ex, {polluter});
    REQUIRE(eventually([&] { return ex.spare_pids().size() == 3; }));
    spares = ex.spare_pids();
    CHECK(children_of_this_process() == before + 3);
    (void)run(ex, {victim});
    REQUIRE(eventually([&] { return ex.spare_pids().size() == 3; }));  // replaced, never more
    CHECK(children_of_this_process() == before + 3);
    spares = ex.spare_pids();
  }
  for (pid_t p : spares) CHECK_FALSE(running(p));
  CHECK(children_of_this_process() == before);
}

TEST_CASE("a spare that died while waiting is replaced and the run is not lost", "[integration][local_jvm][prestart]") {
  auto c = spare_config("prestart-died");
  backend::LocalJvmExecutor ex(c);
  (void)run(ex, {polluter});
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  const pid_t dead = ex.spare_pids().front();
  ::kill(dead, SIGKILL);
  // Until every thread of it is gone (a JVM's main thread shows "Z" before that); not reaped,
  // so that the pool finds it dead. A spare that dies only after a run took it is covered too:
  // it never opened its results file, and the run goes to another JVM (run_on_spare).
  siginfo_t info{};
  REQUIRE(::waitid(P_PID, id_t(dead), &info, WEXITED | WNOWAIT) == 0);
  auto report = run(ex, {victim});  // the dead spare is dropped: the run starts a JVM of its own
  CHECK_FALSE(report.prestarted);
  CHECK(report.infra_reason.empty());
  CHECK(report.results.at(0).outcome == Outcome::pass);
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));  // and a new spare waits
  CHECK(ex.spare_pids().front() != dead);
  auto next = run(ex, {victim});
  CHECK(next.prestarted);
  CHECK(next.results.at(0).outcome == Outcome::pass);
}

TEST_CASE("a scan whose JVM options load a debugger agent starts no spares, and its runs still run", "[integration][local_jvm][prestart]") {
  // suspend=n and port 0: a run with the agent goes on by itself; a spare would carry it too.
  backend::LocalJvmExecutor ex(spare_config("prestart-jdwp", {"-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0"}));
  auto report = run(ex, {polluter});
  REQUIRE(report.results.size() == 1);
  CHECK(report.results[0].outcome == Outcome::pass);
  CHECK_FALSE(report.prestarted);
  auto again = run(ex, {victim});
  CHECK_FALSE(again.prestarted);
  CHECK(ex.spare_pids().empty());
  CHECK(backend::has_debugger_agent({"-Xmx1g", "-Xrunjdwp:transport=dt_socket"}));
  CHECK_FALSE(backend::has_debugger_agent({"-Xmx1g", "-javaagent:/x/agent.jar"}));
}

TEST_CASE("runs that need another JVM never take a spare: debugged, patched classpath, threads agent",
          "[integration][local_jvm][prestart]") {
  auto c = spare_config("prestart-special");
  backend::LocalJvmExecutor ex(c);
  (void)run(ex, {polluter});
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  const pid_t spare = ex.spare_pids().front();
  core::CancelFlag cancel{false};
  core::RunSpec spec{.tests = {victim}, .technique = "test"};
  spec.timeout_ms = 60000;

  bool driven = false;
  auto debugged = ex.run_debugged(spec, cancel, [&](core::Vm& vm) -> util::Result<void> {
    driven = true;  // a JVM under the JDWP agent, started for this run
    return vm.resume_all(core::deadline_in(std::chrono::seconds(10)));
  });
  REQUIRE(debugged);
  CHECK(driven);
  CHECK_FALSE(debugged->prestarted);

  auto patched_spec = spec;
  patched_spec.classpath_prepend = {(c.work_dir / "patched").string()};
  std::filesystem::create_directories(c.work_dir / "patched");
  auto patched = ex.run(patched_spec, cancel);
  REQUIRE(patched);
  CHECK_FALSE(patched->prestarted);

  if (std::filesystem::exists(c.threads_agent_jar)) {
    auto scheduled_spec = spec;
    scheduled_spec.schedule = core::ScheduleSpec{.strategy = "random", .seed = 7};
    auto scheduled = ex.run(scheduled_spec, cancel);
    REQUIRE(scheduled);
    CHECK_FALSE(scheduled->prestarted);
    REQUIRE(scheduled->results.size() == 1);
    CHECK(scheduled->results[0].threads.has_value());  // the agent was there: a schedule record
  } else {
    WARN("threads agent not built: the scheduled run was not tried");
  }
  // The spare was not used, not killed: it still waits for a plain run.
  CHECK(ex.spare_pids() == std::vector<pid_t>{spare});
  CHECK(running(spare));
  auto plain = run(ex, {victim});
  CHECK(plain.prestarted);
}

namespace {
const std::string direct_line = "flakescan runner: plain JUnit 4 methods, run by JUnit 4 without the Platform";

backend::LocalJvmConfig class_load_config(const std::string& name, std::vector<std::string> classpath) {
  auto c = plain_config(name, std::move(classpath));
  c.jvm_args = {"-Xlog:class+load=info"};
  return c;
}

// The spare's command line, NUL-separated arguments joined with spaces.
std::string command_line(pid_t pid) {
  std::string text = file_text("/proc/" + std::to_string(pid) + "/cmdline");
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}
}  // namespace

TEST_CASE("runs of plain JUnit 4 methods go to JUnit 4 without the Platform, with the same outcomes; others keep it",
          "[integration][local_jvm]") {
  backend::LocalJvmExecutor ex(class_load_config("direct-junit4", {testing::jvm_basic_classpath()}));
  auto plain = run(ex, {polluter, "demo.basic.StringsTest#ignored", "demo.basic.StringsTest#joins", victim});
  REQUIRE(plain.results.size() == 4);
  CHECK(plain.results[0].outcome == Outcome::pass);
  CHECK(plain.results[1].outcome == Outcome::skipped);
  CHECK(plain.results[2].outcome == Outcome::pass);
  CHECK(plain.results[3].outcome == Outcome::fail);  // the victim meets the polluter's entry: one JVM
  auto log = file_text(plain.log_path);
  CHECK(log.find(direct_line) != std::string::npos);
  CHECK(log.find("org.junit.platform.launcher.core.LauncherFactory ") == std::string::npos);

  // A JUnit 5 test among them, or alone: the Platform runs the JUnit 5 test, as before.
  for (const auto& tests : std::vector<std::vector<std::string>>{{polluter, "demo.basic.MathTest#adds"}, {"demo.basic.MathTest#adds"}}) {
    auto mixed = run(ex, tests);
    REQUIRE(mixed.results.size() == tests.size());
    for (const auto& r : mixed.results) CHECK(r.outcome == Outcome::pass);
    log = file_text(mixed.log_path);
    CHECK(log.find(direct_line) == std::string::npos);
    CHECK(log.find("org.junit.platform.launcher.core.LauncherFactory ") != std::string::npos);
    // The JUnit 4 method among them still goes to JUnit 4 directly, and the Platform
    // discovers the JUnit 5 class alone.
    const bool with_junit4 = tests.size() == 2;
    CHECK((log.find("flakescan runner: 1 plain JUnit 4 methods run by JUnit 4 without Platform discovery") != std::string::npos) ==
          with_junit4);
  }
}

TEST_CASE("a project that configures the Platform keeps it for its JUnit 4 tests too", "[integration][local_jvm]") {
  const auto dir = testing::fresh_dir("direct-junit4-properties") / "resources";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "junit-platform.properties") << "# a project's own Platform settings\n";
  backend::LocalJvmExecutor ex(class_load_config("direct-junit4-configured", {testing::jvm_basic_classpath(), dir.string()}));
  auto report = run(ex, {polluter});
  REQUIRE(report.results.size() == 1);
  CHECK(report.results[0].outcome == Outcome::pass);
  CHECK(file_text(report.log_path).find(direct_line) == std::string::npos);
}

TEST_CASE("after discovering plain JUnit 4 tests, spares warm JUnit 4 alone and the runs still take them",
          "[integration][local_jvm][prestart]") {
  core::CancelFlag cancel{false};
  {
    // JUnit 5 tests: the spares warm the Platform as well, as before.
    backend::LocalJvmExecutor ex(spare_config("prestart-warm-platform"));
    REQUIRE(ex.discover({core::TestId::parse("demo.basic.MathTest#adds").value()}, cancel));
    (void)run(ex, {"demo.basic.MathTest#adds"});
    REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
    CHECK(command_line(ex.spare_pids().front()).find("--warm junit4") == std::string::npos);
  }
  auto c = spare_config("prestart-warm-junit4", {"-Xlog:class+load=info"});
  backend::LocalJvmExecutor ex(c);
  REQUIRE(ex.discover({core::TestId::parse(polluter).value(), core::TestId::parse("demo.basic.StringsTest").value()}, cancel));
  auto first = run(ex, {polluter});
  REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
  CHECK(command_line(ex.spare_pids().front()).find("--warm junit4") != std::string::npos);
  auto second = run(ex, {"demo.basic.StringsTest#joins", polluter});
  CHECK(second.prestarted);
  REQUIRE(second.results.size() == 2);
  CHECK(second.results[0].outcome == Outcome::pass);
  CHECK(second.results[1].outcome == Outcome::pass);
  const auto log = file_text(second.log_path);
  CHECK(log.find(ready_line) != std::string::npos);
  CHECK(log.find(direct_line) != std::string::npos);
  CHECK(log.find("org.junit.platform.launcher.core.LauncherFactory ") == std::string::npos);  // neither before nor after
}

TEST_CASE("in a scan of JUnit 4 and 5 tests, spares warm what the last run needed", "[integration][local_jvm][prestart]") {
  core::CancelFlag cancel{false};
  backend::LocalJvmExecutor ex(spare_config("prestart-warm-last-run"));
  REQUIRE(ex.discover({core::TestId::parse(polluter).value(), core::TestId::parse("demo.basic.MathTest#adds").value()}, cancel));
  auto spare_warms_junit4 = [&] {
    REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
    return command_line(ex.spare_pids().front()).find("--warm junit4") != std::string::npos;
  };
  // Two JUnit 4 runs (discovery said not every test skips the Platform): the spare started when the second took its JVM follows the first.
  for (int k = 0; k < 2; ++k) {
    // The second takes the spare started for the first (so the next is started after the first ended).
    if (k == 1) REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
    auto r = run(ex, {polluter});
    REQUIRE(r.results.size() == 1);
    CHECK(r.results[0].outcome == Outcome::pass);
  }
  CHECK(spare_warms_junit4());
  // A JUnit 5 run takes that JVM all the same, with its outcome; after two, the spares warm the Platform again.
  for (int k = 0; k < 2; ++k) {
    REQUIRE(eventually([&] { return ex.spare_pids().size() == 1; }));
    auto r = run(ex, {"demo.basic.MathTest#adds"});
    CHECK(r.prestarted);
    REQUIRE(r.results.size() == 1);
    CHECK(r.results[0].outcome == Outcome::pass);
  }
  CHECK_FALSE(spare_warms_junit4());
}
