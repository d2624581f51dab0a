// A scheduled run (RunSpec::schedule, technique threads) on the local backend: the java
// command line it starts with (the agent and its -Dflakescan.threads.* properties, docs/threads.md),
// checked without the agent jar; and the refusals when the agent is missing or a debugger is asked for.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

#include "backend/local_jvm/local_jvm_executor.hpp"

using namespace flakescan;
namespace fs = std::filesystem;
using Args = std::vector<std::string>;

namespace {

backend::LocalJvmConfig config_in(const std::string& name) {
  backend::LocalJvmConfig c;
  c.runner_jar = "/opt/flakescan/flakescan-runner.jar";
  c.classpath = {"/nonexistent/app.jar"};
  c.jvm_args = {"-Xmx256m"};
  c.work_dir = fs::temp_directory_path() / ("flakescan-threads-launch-" + name + "-" + std::to_string(::getpid()));
  c.threads_agent_jar = "/opt/flakescan/flakescan-threads-agent.jar";
  return c;
}

std::ptrdiff_t at(const Args& argv, const std::string& arg) {
  auto it = std::find(argv.begin(), argv.end(), arg);
  return it == argv.end() ? -1 : it - argv.begin();
}

}  // namespace

TEST_CASE("the agent's options: strategy, seed, depth, steps, virtual time, and a replay's decisions file", "[threads][launch]") {
  core::ScheduleSpec pct{.strategy = "pct", .seed = 18446744073709551557ull, .depth = 3, .steps = 200, .virtual_time = true};
  CHECK(backend::threads_agent_args("/lib/flakescan-threads-agent.jar", pct, {}) ==
        Args{"-javaagent:/lib/flakescan-threads-agent.jar", "-Dflakescan.threads.strategy=pct",
             "-Dflakescan.threads.seed=18446744073709551557", "-Dflakescan.threads.depth=3", "-Dflakescan.threads.steps=200",
             "-Dflakescan.threads.virtual_time=true"});
  core::ScheduleSpec replay{.strategy = "replay", .seed = 8123, .depth = 3, .steps = 200, .virtual_time = false,
                            .replay_decisions = {{0, 12}, {1, 3}}};
  CHECK(backend::threads_agent_args("/lib/a.jar", replay, "/data/scans/s1/run-7.decisions") ==
        Args{"-javaagent:/lib/a.jar", "-Dflakescan.threads.strategy=replay", "-Dflakescan.threads.seed=8123",
             "-Dflakescan.threads.depth=3", "-Dflakescan.threads.steps=200", "-Dflakescan.threads.virtual_time=false",
             "-Dflakescan.threads.replay=/data/scans/s1/run-7.decisions"});
}

TEST_CASE("the agent's step limit and the classes to rewrite are passed when they are not the defaults", "[threads][launch]") {
  core::ScheduleSpec spec{.strategy = "pct", .seed = 7, .max_steps = 2000000, .include = {"org.apache.derby.", "com.acme.Cache"}};
  auto args = backend::threads_agent_args("/lib/a.jar", spec, {});
  CHECK(std::count(args.begin(), args.end(), "-Dflakescan.threads.max_steps=2000000") == 1);
  CHECK(std::count(args.begin(), args.end(), "-Dflakescan.threads.include=org.apache.derby.,com.acme.Cache") == 1);
}

TEST_CASE("a scheduled run's java command: the agent after the JVM options, before the classpath and the runner", "[threads][launch]") {
  backend::LocalJvmExecutor executor(config_in("argv"));
  backend::LocalJvmExecutor::Scheduled scheduled{.spec = {.strategy = "pos", .seed = 77}};
  auto argv = executor.command("run", "/w/run-1.tests", "/w/run-1.results", {}, nullptr, &scheduled);
  REQUIRE(argv.size() > 3);
  CHECK(argv[0] == "java");
  CHECK(argv[1] == "-Xmx256m");
  const auto agent = at(argv, "-javaagent:/opt/flakescan/flakescan-threads-agent.jar");
  const auto cp = at(argv, "-cp");
  REQUIRE(agent > 0);
  REQUIRE(cp > agent);
  CHECK(at(argv, "-Xmx256m") < agent);
  CHECK(at(argv, "-Dflakescan.threads.strategy=pos") == agent + 1);
  CHECK(at(argv, "-Dflakescan.threads.seed=77") == agent + 2);
  CHECK(at(argv, "io.flakescan.runner.Main") == cp + 2);
  CHECK(std::none_of(argv.begin(), argv.end(), [](const std::string& a) { return a.starts_with("-XX:SharedArchiveFile"); }));
  CHECK(std::none_of(argv.begin(), argv.end(), [](const std::string& a) { return a.starts_with("-Dflakescan.threads.replay"); }));
  auto plain = executor.command("run", "/w/run-2.tests", "/w/run-2.results");
  CHECK(std::none_of(plain.begin(), plain.end(), [](const std::string& a) { return a.starts_with("-javaagent") || a.starts_with("-Dflakescan.threads"); }));
}

TEST_CASE("without the agent jar a scheduled run is refused as unsupported, saying what is missing", "[threads][launch]") {
  auto config = config_in("missing");
  config.threads_agent_jar = "/nonexistent/flakescan-threads-agent.jar";
  backend::LocalJvmExecutor executor(config);
  core::RunSpec spec{.tests = {"p.C#m"}, .technique = "threads"};
  spec.schedule = core::ScheduleSpec{};
  core::CancelFlag cancel{false};
  auto report = executor.run(spec, cancel);
  REQUIRE_FALSE(report);
  CHECK(report.error().code == util::Errc::unsupported);
  CHECK_THAT(report.error().message, Catch::Contains("flakescan-threads-agent.jar") && Catch::Contains("technique threads"));
  fs::remove_all(config.work_dir);
}

TEST_CASE("a scheduled run is never made under the debugger", "[threads][launch]") {
  auto config = config_in("debugged");
  backend::LocalJvmExecutor executor(config);
  core::RunSpec spec{.tests = {"p.C#m"}, .technique = "threads"};
  spec.schedule = core::ScheduleSpec{};
  core::CancelFlag cancel{false};
  bool driven = false;
  auto report = executor.run_debugged(spec, cancel, [&](core::Vm&) -> util::Result<void> {
    driven = true;
    return {};
  });
  REQUIRE_FALSE(report);
  CHECK(report.error().code == util::Errc::unsupported);
  CHECK_FALSE(driven);
  fs::remove_all(config.work_dir);
}
