#pragma once
// The first of the two things every backend gives the techniques (docs/daemon.md): run an ordered
// list of tests in one process and report per-test outcomes. (The second, a debugger on
// that process, is core/vm.hpp.) Implementations: backend/local_jvm (a JVM per run),
// backend/adb (an instrumentation per run on a device).
//
// Contract: run() blocks until the process ended; it returns an error only when the run
// could not be attempted at all (e.g. java missing). Everything that happened once the
// process started, including crashes and deadlines, is a RunReport with infra outcomes.
// run() may be called from several threads at once.
#include <atomic>
#include <functional>
#include <vector>

#include "core/run.hpp"
#include "core/test_id.hpp"
#include "core/vm.hpp"
#include "util/error.hpp"

namespace flakescan::core {

// Set by a cancel request or by shutdown; executors kill their processes when it flips.
using CancelFlag = std::atomic<bool>;

class TestExecutor {
 public:
  virtual ~TestExecutor() = default;

  // Expands class ids to their test methods and checks method ids exist. Ids that name
  // nothing come back in `missing` with the reason.
  struct Discovery {
    std::vector<std::string> tests;                              // method-level ids
    std::vector<std::pair<std::string, std::string>> missing;    // (id, reason)
  };
  virtual util::Result<Discovery> discover(const std::vector<TestId>& ids, const CancelFlag& cancel) = 0;

  virtual util::Result<RunReport> run(const RunSpec& spec, const CancelFlag& cancel) = 0;

  // The same run with the process started under the debugger (suspended before main):
  // `drive` gets the Vm, sets its breakpoints, resumes and steers the run, and returns when
  // it is done steering (the executor then detaches and waits for the process to end).
  // The results are parsed exactly like run()'s. An error from `drive` ends the run (the
  // process is killed) and is returned. A backend that retries a run elsewhere (a device
  // that went away) calls `drive` again on the new process: it must start from scratch.
  // Backends without a debugger: Errc::unsupported.
  using DriveFn = std::function<util::Result<void>(Vm&)>;
  virtual util::Result<RunReport> run_debugged(const RunSpec& spec, const CancelFlag& cancel, const DriveFn& drive) {
    (void)spec, (void)cancel, (void)drive;
    return util::fail(util::Errc::unsupported, "this backend cannot run tests under the debugger");
  }

  // How many runs this executor can usefully carry out at the same time.
  virtual int parallelism() const = 0;

  // The classpath the test process runs with (project, runner, test frameworks), for tools
  // that read or compile against it (technique `repair`); empty when there is none here.
  virtual std::vector<std::string> process_classpath() const { return {}; }
};

}  // namespace flakescan::core
