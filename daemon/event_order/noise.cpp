// Technique `noise`: Shaker-style reruns. stress-ng loads every CPU and a share of memory
// for the whole technique, so thread interleavings and timings are perturbed the way a
// loaded CI machine perturbs them; the runs themselves are rerun's (budget.runs_per_test).
#include <algorithm>
#include <chrono>

#include "event_order/explore.hpp"
#include "rerun/rerun.hpp"
#include "util/log.hpp"

namespace flakescan::event_order {

util::Result<std::vector<core::Verdict>> run_noise(const core::TechniqueInput& input, core::RunLog& runs) {
  static auto log = util::logger("explore");
  if (!input.tools) return util::fail(util::Errc::unsupported, "noise needs a load generator; none was handed to the technique");
  auto load = input.tools->start_load(std::chrono::seconds(std::max(60, input.budget.max_seconds)));
  if (!load) return util::fail(util::Errc::unsupported, "noise mode needs stress-ng: " + load.error().message);
  log->info("noise: every CPU and a quarter of the memory loaded (stress-ng)");
  auto verdicts = rerun::run_rerun(input, runs);
  load->reset();  // the load ends before the verdicts are handed back
  if (!verdicts) return verdicts;
  for (auto& v : *verdicts) {
    v.technique = "noise";
    if (!v.evidence.reason.empty()) v.evidence.reason += " (under stress-ng CPU and memory load)";
  }
  return verdicts;
}

}  // namespace flakescan::event_order
