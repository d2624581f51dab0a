#include "scan/technique_table.hpp"

#include "event_order/explore.hpp"     // explore: techniques explore, noise
#include "order/order_and_nio.hpp"  // order: techniques order, nio
#include "repair/repair.hpp"
#include "rerun/rerun.hpp"
#include "shuffle/shuffle.hpp"
#include "suite/suite_rounds.hpp"  // suite: whole-suite rounds, isolation of suspects
#include "threads/threads_technique.hpp"  // threads: controlled schedules of plain JVM threads

namespace flakescan::scan {

const std::vector<TechniqueEntry>& technique_table() {
  // ---- The technique table: one line per technique, in the order scans run them. ----
  static const std::vector<TechniqueEntry> table{
      {"rerun", [](const core::TechniqueInput& in, core::RunLog& log) { return rerun::run_rerun(in, log); }, "N runs per test; flaky when a pass and a failure were both observed"},
      {"suite", suite::run_suite, "whole-suite rounds in shared JVMs, a new order each round; only tests whose outcome differed get isolated runs (alone, order, nio)"},
      {"order", order::order_technique(), "original, reverse and seeded random orders; victims, brittles, minimal polluters/state-setters, cleaners"},
      {"nio", order::nio_technique(), "each test twice in one JVM (entire-suite), hits confirmed alone: non-idempotent-outcome tests"},
      {"nio-isolated-class", order::nio_technique(order::NioMode::isolated_class), "nio with one JVM per class"},
      {"nio-isolated-method", order::nio_technique(order::NioMode::isolated_method), "nio with one JVM per test"},
      {"shuffle", shuffle::shuffle_technique(), "implementation-dependent tests: a clean run, then seeded runs on a JDK whose unspecified orders (HashMap iteration, getDeclaredMethods, File.list, ...) come out permuted; the call site located, a fix verified", [](const std::string& test, const std::map<std::string, std::string>& details, core::RunLog& runs) { return shuffle::replay_shuffle(test, details, runs); }},
      {"explore", event_order::explore_technique(), "event-order exploration through the debugger (FlakeScanner): trace, what-if bounds, schedules of async main-queue events", [](const std::string& test, const std::map<std::string, std::string>& details, core::RunLog& runs) { return event_order::replay_schedule(test, details, runs); }},
      {"threads", threads::threads_technique(), "plain JVM concurrency: each test's threads run one at a time under a controlled scheduler (the threads agent), seeded schedules (PCT with bug depth, POS, random) until one fails and another passes; the failing schedule replayed exactly, the two conflicting operations named", [](const std::string& test, const std::map<std::string, std::string>& details, core::RunLog& runs) { return threads::replay_threads(test, details, runs); }},
      {"repair", repair::repair_technique(), "for each order-dependent victim and NIO test found before it (or by order, run here): the polluted static field, a reset call that cleans it, and a patch compiled and verified"},
      {"noise", event_order::run_noise, "rerun N times under stress-ng CPU and memory load (Shaker-style)"},
  };
  return table;
}

std::vector<std::string> technique_names() {
  std::vector<std::string> out;
  for (const auto& t : technique_table()) out.emplace_back(t.name);
  return out;
}

}  // namespace flakescan::scan
