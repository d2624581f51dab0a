// Technique `noise`: Shaker-style reruns. stress-ng loads every CPU and a share of memory
// for the whole technique, so thread interleavings and timings are perturbed the way a
// loaded CI machine perturbs them; the runs themselves are rerun's (budget.runs_per_test).
#include <thread>

#include "event_order/explore.hpp"
#include "rerun/rerun.hpp"
#include "util/log.hpp"
#include "util/process.hpp"

namespace flakescan::event_order {

util::Result<std::vector<core::Verdict>> run_noise(const core::TechniqueInput& input, core::RunLog& runs) {
  static auto log = util::logger("explore");
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  auto stress = util::Child::spawn({.argv = {"stress-ng", "--cpu", std::to_string(cpus), "--vm", "1", "--vm-bytes", "25%",
                                             "--timeout", std::to_string(std::max(60, input.budget.max_seconds)) + "s",
                                             "--quiet"}});
  if (!stress) return util::fail(util::Errc::unsupported, "noise mode needs stress-ng: " + stress.error().message);
  log->info("noise: stress-ng on {} CPUs and 25% of memory", cpus);
  auto verdicts = rerun::run_rerun(input, runs);
  stress->kill_group();
  (void)stress->wait(std::chrono::steady_clock::now() + std::chrono::seconds(5));
  if (!verdicts) return verdicts;
  for (auto& v : *verdicts) {
    v.technique = "noise";
    if (!v.evidence.reason.empty()) v.evidence.reason += " (under stress-ng CPU and memory load)";
  }
  return verdicts;
}

}  // namespace flakescan::event_order
