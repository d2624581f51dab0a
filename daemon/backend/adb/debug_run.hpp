#pragma once
// An instrumentation running under the debugger on a device: `am instrument -e debug true`
// (AndroidJUnitRunner then waits for a debugger before the first test), the test process
// found through `track-jdwp` (the pid that was not debuggable before the run started,
// confirmed with `pidof` of the app package when there are several), `jdwp:PID` opened
// through the device transport, and that stream handed to the JDWP engine, so techniques
// get the same core::Vm on a device as on the local JVM: handed over suspended (the runner
// waits in Debug.waitForDebugger until a debugger attaches; flakescan suspends the VM right
// after attaching), so breakpoints are set before the tests run and the technique resumes.
//
// Policy: the DebugRun holds the device lease for its whole life; the instrumentation's
// output is read on a thread of its own; finish() waits for it and maps it like a plain
// run. Destroying an unfinished DebugRun cancels the instrumentation (force-stop).
#include <atomic>
#include <memory>
#include <thread>

#include "backend/adb/adb_executor.hpp"
#include "core/vm.hpp"

namespace flakescan::backend::adb {

class DebugRun {
 public:
  ~DebugRun();
  core::Vm& vm() { return *vm_; }
  int pid() const { return pid_; }
  const std::string& serial() const { return lease_.serial(); }
  // Waits for the instrumentation to end (the technique resumed the VM) and returns its report.
  util::Result<core::RunReport> finish();
  // After finish(): the device went away during the run; the raw instrumentation output;
  // the tests in the order the runner started them.
  bool device_lost() const { return run_ && run_->device_lost; }
  const std::string& raw() const { static const std::string none; return run_ ? run_->raw : none; }
  std::vector<std::string> executed() const { return run_ ? executed_tests(run_->output) : std::vector<std::string>{}; }
  bool lease_lost() const { return lease_.lost(); }

 private:
  friend util::Result<std::unique_ptr<DebugRun>> start_debug_run(AdbExecutor&, const core::RunSpec&, const core::CancelFlag&,
                                                                 Lease);
  explicit DebugRun(Lease lease) : lease_(std::move(lease)) {}
  Lease lease_;
  std::unique_ptr<core::Vm> vm_;
  int pid_ = 0;
  std::vector<std::string> tests_;
  std::thread reader_;
  std::atomic<bool> stop_{false};
  util::Result<DeviceRun> run_ = util::fail(util::Errc::internal, "not finished");
  wire::Clock::time_point started_;
  std::string test_package_;
  bool finished_ = false;
};

// Starts spec's tests (no repeats) with -e debug true on a free device and attaches.
util::Result<std::unique_ptr<DebugRun>> start_debug_run(AdbExecutor& executor, const core::RunSpec& spec,
                                                       const core::CancelFlag& cancel);
// The same on a device already leased and prepared. Errc::disconnected when the device went
// away before the debugger was attached.
util::Result<std::unique_ptr<DebugRun>> start_debug_run(AdbExecutor& executor, const core::RunSpec& spec,
                                                       const core::CancelFlag& cancel, Lease lease);

// Opens `jdwp:PID` on a device and attaches the JDWP engine to that stream.
util::Result<std::unique_ptr<core::Vm>> attach_over_adb(const wire::Client& client, const std::string& serial, int pid,
                                                        wire::Deadline deadline);

}  // namespace flakescan::backend::adb
