// The threads agent's stall limit (Busy.java, docs/threads.md "Leaving control, stalls and
// deadlocks") in real JVMs: a thread the scheduler waits for leaves control after 1 s of its
// own CPU time without a scheduling point, or after 1 s of using none (waiting in native code),
// never because a loaded machine stretched its work past 1 s of wall time. And what
// flakescan.threads.include (the CLI's --thread-include) leaves out.
#include <catch2/catch.hpp>

#include "unit/threads_agent/probe.hpp"

using namespace threads_probe;

TEST_CASE("threads agent: JDK work on a loaded machine stays under control: the stall limit is the thread's CPU time",
          "[threads_agent]") {
  // Twelve spinning threads per processor (outside control) load the machine, so the worker's
  // tenth of a second or so of CPU in BigInteger.pow takes over 1 s of wall time while thread 0
  // waits in join. Before, that 1 s of wall time made the record inexact.
  auto runs = probe("slow_jdk_work", "random", 1, 2, {"-Dprobe.spinners_per_cpu=12"});
  for (const auto& r : runs) {
    INFO("seed " << r.seed << ": " << r.error << " " << r.record.at("inexact_reasons").dump());
    CHECK_FALSE(r.failed);
    CHECK(r.record.at("exact") == true);
  }
}

TEST_CASE("threads agent: a thread waiting in native code uses no CPU time and still leaves control after 1 s",
          "[threads_agent]") {
  auto runs = probe("native_wait", "random", 1, 1);
  INFO(runs[0].error << " " << runs[0].record.dump().substr(0, 600));
  CHECK_FALSE(runs[0].failed);
  CHECK(runs[0].record.at("exact") == false);
  CHECK(runs[0].record.at("inexact_reasons").dump().find("used no CPU time for 1 s") != std::string::npos);
}

TEST_CASE("threads agent: include prefixes narrow what is rewritten and never reach an excluded prefix", "[threads_agent]") {
  // kotlin.flakescanprobe.Tally lies under an excluded prefix (kotlin.); naming it in
  // flakescan.threads.include, as a user's --thread-include might, must not rewrite it.
  auto runs = probe("excluded_prefix", "random", 1, 1, {"-Dflakescan.threads.include=threadsprobe.,kotlin."});
  INFO(runs[0].record.dump().substr(0, 800));
  CHECK_FALSE(runs[0].failed);
  std::size_t starts = 0;
  for (const auto& step : runs[0].record.at("steps")) {
    CHECK(step.at("target").get<std::string>().find("kotlin.") == std::string::npos);
    CHECK(step.at("site").get<std::string>().find("kotlin.") == std::string::npos);
    starts += step.at("op") == "thread_start" ? 1 : 0;
  }
  CHECK(starts == 2);  // threadsprobe. is rewritten
}
