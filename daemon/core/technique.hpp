#pragma once
// What every technique gets to work with: the tests to scan, a way to make runs that are
// recorded in the store as they finish (so a daemon killed mid-scan keeps them), and a way
// to report progress. Techniques never see the store, HTTP, or processes: runs go through
// RunLog, and the other processes they need (javac, a load) through the Tools they are handed.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "core/test_executor.hpp"
#include "core/run.hpp"
#include "core/tools.hpp"
#include "core/verdict.hpp"
#include "util/error.hpp"

namespace flakescan::core {

class RunLog {
 public:
  virtual ~RunLog() = default;
  // Executes the spec, records it, and returns it with its store id. Errors only when the
  // run could not be attempted; the scan is cancelled -> Errc::cancelled.
  virtual util::Result<RecordedRun> run(const RunSpec& spec) = 0;
  // Runs several specs, up to parallelism() at a time; results in the order of `specs`.
  virtual util::Result<std::vector<RecordedRun>> run_all(const std::vector<RunSpec>& specs) = 0;
  // Like run(), with the process under the debugger, steered by `drive`
  // (TestExecutor::run_debugged). Default: Errc::unsupported.
  virtual util::Result<RecordedRun> run_debugged(const RunSpec& spec, const TestExecutor::DriveFn& drive) {
    (void)spec, (void)drive;
    return util::fail(util::Errc::unsupported, "this run log cannot make debugged runs");
  }
  virtual int parallelism() const = 0;
  virtual bool cancelled() const = 0;
  // Announces that `n` more runs are planned (for progress counts).
  virtual void plan(int n) = 0;
};

// Calls work(0) .. work(count - 1), each once, on up to `lanes` threads (this one among them),
// taking the next index as a lane frees up. Once a call returns false no new index is taken.
void in_lanes(size_t count, int lanes, const std::function<bool(size_t)>& work);

// Runs every spec through `run_one`, at most `parallelism` at a time (threads of its own);
// results in the order of `specs`. The first error wins: specs not started by then are not
// run, and the error is returned. What RunLog::run_all implementations share.
// A test never runs in two processes at once on its own: a spec of one test (t, or t, t, ...)
// waits while another spec of only that test runs, so a test that binds a fixed port or
// writes a fixed file cannot fail because flakescan ran it twice at the same time (reruns,
// NIO confirmations, replays). Specs of several tests run as lanes free up.
std::string solo_test(const RunSpec& spec);  // the one test of a spec of one test, else ""
util::Result<std::vector<RecordedRun>> run_in_parallel(const std::vector<RunSpec>& specs, int parallelism,
                                                       const std::function<util::Result<RecordedRun>(const RunSpec&)>& run_one);

struct Budget {
  int runs_per_test = 10;   // rerun: N
  int max_orders = 0;       // order: number of orders tried; 0: order::default_order_count
  int max_runs = 2000;      // any technique: total runs
  int max_seconds = 1800;   // any technique: wall time
  int max_runs_per_test = 40;      // explore: runs per test (trace, bounds, schedules)
  int max_seconds_per_test = 120;  // explore: wall time per test
};

// Which event-order exploration `explore` makes (docs/explore.md).
enum class ExploreStrategy { flakescanner, maxdiff, both };
const char* strategy_name(ExploreStrategy strategy);
std::optional<ExploreStrategy> parse_strategy(std::string_view name);

// Technique `threads` (docs/threads.md): how each test's schedules are chosen.
struct ThreadsSettings {
  std::string strategy = "pct";  // pct, pos or random (ScheduleSpec::strategy)
  int schedules = 100;           // controlled runs per test, at most
  int depth = 3;                 // PCT's bug depth
  bool virtual_time = true;      // sleeps and timeouts on the scheduler's clock
  int max_steps = 100000;        // the agent's step limit (ScheduleSpec::max_steps)
  std::vector<std::string> include;  // class-name prefixes the agent rewrites; empty: the whole project
};

struct TechniqueInput {
  std::vector<std::string> tests;  // method-level ids, in the project's original order
  Budget budget;
  std::uint64_t seed = 1;
  bool fresh_jvm_per_run = true;   // rerun isolation: one process per run, or one for all
  ExploreStrategy strategy = ExploreStrategy::maxdiff;
  // shuffle: seeded runs per test on the shuffling JDK, and its mode (ShuffleSpec::mode).
  int shuffle_seeds = 3;
  std::string shuffle_mode = "full";
  int shuffle_rounds = 0;  // suite: whole-suite rounds on the shuffling JDK, a seed each
  ThreadsSettings threads;
  // What `repair` reads and writes besides runs (empty when the backend has no classpath):
  std::vector<std::string> classpath;     // the test JVM's whole classpath (class files, javac)
  std::string project_dir;                // patches are written relative to it
  std::vector<std::string> source_roots;  // where test sources are looked up; empty: project_dir
  // Verdicts of the techniques that ran before in the same scan, in their order (`repair`
  // works on the order-dependent and NIO tests they found), and ones handed in by the caller.
  std::vector<Verdict> earlier;
  // The processes a technique may start besides runs (javac, a load); the scan hands the real
  // ones, a test a fake. Null: none (a technique that needs one says so).
  std::shared_ptr<Tools> tools;
};

// A technique: inputs in, verdicts out (one per test it has something to say about).
using TechniqueFn = std::function<util::Result<std::vector<Verdict>>(const TechniqueInput&, RunLog&)>;

}  // namespace flakescan::core
