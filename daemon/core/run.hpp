#pragma once
// One run: an ordered list of tests executed in one process (one JVM, or one
// instrumentation on a device), and what was observed for each test in it.
// Infrastructure failures (deadline, crash, System.exit, device gone) are never test
// outcomes: a test cut short by one gets Outcome::infra and is not counted for flakiness.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/thread_schedule.hpp"

namespace flakescan::core {

enum class Outcome { pass, fail, error, skipped, not_found, infra };

std::string_view outcome_name(Outcome outcome);
std::optional<Outcome> parse_outcome(std::string_view name);
// fail (assertion) and error (any other exception) both count as a failing run.
inline bool is_failure(Outcome o) { return o == Outcome::fail || o == Outcome::error; }
// Only passes and failures say something about flakiness.
inline bool is_observation(Outcome o) { return o == Outcome::pass || is_failure(o); }

// One call site whose unspecified order the shuffling JDK saw in a run (technique
// `shuffle`, docs/shuffle.md): an API call with 2 or more elements made from code outside
// the JDK and the test runner.
struct ShuffledSite {
  std::string key;                  // "<api> at <frame>": what a sites filter names
  std::string api;                  // "HashMap.entrySet iteration", "Class.getDeclaredFields"
  std::vector<std::string> via;     // JDK frames between the API and the site, innermost first
  std::vector<std::string> frames;  // the site's frame, then the non-JDK frames below it
  int seen = 0;                     // eligible calls
  int shuffled = 0;                 // calls whose order was permuted
  int size = 0;                     // the largest number of elements seen
};

struct TestResult {
  std::string test;            // "pkg.Class#method"
  Outcome outcome = Outcome::infra;
  std::string message;         // failure message, skip reason, or infra reason
  std::string exception_type;  // "java.lang.AssertionError"
  std::string stack;           // the stack trace as the runtime printed it
  std::string signature;       // failure signature (core/signature.hpp); empty for passes
  double duration_ms = 0;
  std::vector<ShuffledSite> shuffled;  // runs under a ShuffleSpec: the sites seen while it ran
  std::optional<ThreadSchedule> threads;  // runs under a ScheduleSpec: the test's schedule record
  int threads_created = 0;  // java.lang.Thread objects constructed while it ran (local runner): where timing may matter
};

// A run on the shuffling JDK: every unspecified order (HashMap iteration, getDeclaredMethods,
// File.list, ...) that code outside the JDK reads comes out permuted, from `seed` alone, so
// the run can be made again. Mode `full`: a new permutation for every call; `one`: one per call
// site and size. `sites` not empty: only the calls at those site keys are permuted.
struct ShuffleSpec {
  std::uint64_t seed = 0;
  std::string mode = "full";
  std::vector<std::string> sites;
};

struct RunSpec {
  std::vector<std::string> tests;  // method-level ids, in execution order; repeats allowed
  std::string technique;           // "rerun", "order", "nio", "explore", "replay"
  std::string purpose;             // free text: "rerun 3/10 of pkg.C#m", "reverse order"
  std::uint64_t seed = 0;          // the seed that produced this order or schedule
  int timeout_ms = 120000;         // the whole run's deadline
  // Put in front of the project's classpath for this run only (technique `repair` runs a
  // patched test class this way). Backends that cannot do it refuse the run (unsupported).
  std::vector<std::string> classpath_prepend;
  // Set: the run is made on the shuffling JDK (technique `shuffle`). Backends that cannot do
  // it refuse the run (unsupported).
  std::optional<ShuffleSpec> shuffle;
  // Set: the test JVM runs under the threads agent, one controlled schedule per entry
  // (technique `threads`, docs/threads.md). Backends that cannot do it refuse the run
  // (unsupported), and so does a debugged run.
  std::optional<ScheduleSpec> schedule;
  // Positions in `tests` where a new run of a class begins although the entry before it is of
  // the same class: its @BeforeClass/@BeforeAll and static state set up there run again, in the
  // same JVM (nio-isolated-class runs each class twice this way). Ascending, each in
  // 1..tests.size()-1. Without them, consecutive entries of one class are one run of it.
  std::vector<std::size_t> class_run_starts;
};

// Where one run's time went, in milliseconds (0: that step did not happen). The scan logs it
// per run (logger "steps", at debug level) and bench/rerun_overhead adds it up.
struct RunSteps {
  double launch_ms = 0;   // writing the tests file and starting the JVM, or telling a prestarted one to run
  double jvm_ms = 0;      // from then until the JVM exited
  double results_ms = 0;  // trimming its log, reading and parsing its results
  double store_ms = 0;    // committing the run to the store
  double events_ms = 0;   // appending its run_started and run_finished events
};

struct RunReport {
  std::vector<TestResult> results;  // one per entry of RunSpec::tests, in that order
  int exit_code = 0;                // process exit status (-1 when killed)
  int signal = 0;                   // signal that ended it, 0 when it exited
  bool timed_out = false;
  std::string infra_reason;         // empty when the process ended normally
  double wall_ms = 0;
  std::string log_path;             // the process's own output, kept for diagnosis
  std::string runtime;              // set when it is not the project's JDK: which one (a shuffling JDK)
  // The process was started before the run needed it and waited, having run no test, until it
  // was told its tests (local backend, SpareJvms): still a fresh process of its own.
  bool prestarted = false;
  RunSteps steps;

  // Outcome of the i-th entry, or infra when the run did not get that far.
  Outcome outcome_at(size_t i) const { return i < results.size() ? results[i].outcome : Outcome::infra; }
};

// A run as stored: the spec, what was observed, and its id in the store.
struct RecordedRun {
  std::int64_t id = 0;
  RunSpec spec;
  RunReport report;
};

}  // namespace flakescan::core
