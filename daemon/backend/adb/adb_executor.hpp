#pragma once
// core::TestExecutor over Android devices: one instrumentation (`am instrument -w -r`) per
// run on one leased device; devices run in parallel.
//
// Policy:
// - A run takes a device lease (DeviceRegistry), installs the app and test APKs there once
//   per device generation (sync push to /data/local/tmp + `pm install -r -t`), clears app
//   data first when clear_state is set, then instruments the run's tests.
// - A run's tests run in exactly the RunSpec's order, as consecutive instrumentations that
//   the runner keeps in order (runner_order.hpp: repeats, interleaved classes and methods
//   listed against JUnit's order start a new one). When the runner still reorders (an order
//   not learnt yet), that pass is not reported: it is run again by what it taught, and at
//   worst one instrumentation per test. Results are matched back by id.
// - The device vanishing mid-run (stream cut, lease lost) is infrastructure: the partial
//   results are dropped and the whole run is retried on another device, up to max_attempts;
//   only then do its tests come back as Outcome::infra. It is never a test outcome.
// - The deadline (RunSpec::timeout_ms) hitting: the instrumentation is force-stopped, tests
//   that had not ended are infra, timed_out is set. Not retried.
// - A process crash that the runner attributes to a test (status -2 "Process crashed
//   while executing ...") is that test's `error`; tests after it are infra. A crash before
//   any test ran, INSTRUMENTATION_FAILED or install failure leaves every test infra.
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "adb_protocol/connection.hpp"
#include "backend/adb/device_registry.hpp"
#include "backend/adb/instrumentation_output.hpp"
#include "backend/adb/runner_order.hpp"
#include "core/test_executor.hpp"

namespace flakescan::backend::adb {

struct AdbBackendConfig {
  std::vector<wire::ServerAddress> servers;   // empty: 127.0.0.1:5037
  std::string app_apk;                         // path; empty for library test APKs
  std::string test_apk;                        // path; required unless skip_install
  std::string app_package;                     // empty: read from app_apk
  std::string test_package;                    // empty: read from test_apk
  std::string runner = "androidx.test.runner.AndroidJUnitRunner";
  std::vector<std::pair<std::string, std::string>> instrumentation_args;  // extra -e key value
  bool clear_state = false;                    // pm clear app_package before each run
  bool skip_install = false;                   // APKs already installed on every device
  int max_attempts = 3;                        // device gone -> retried elsewhere
  std::chrono::milliseconds device_wait{120000};    // waiting for a free device
  std::chrono::milliseconds install_timeout{300000};
  std::string log_dir;                         // raw instrumentation output per run; "" = none
};

// The result of one instrumentation on one device, parsed.
struct DeviceRun {
  std::string device;                 // lease key
  InstrumentationOutput output;
  std::optional<util::Error> cut;     // stream ended early
  bool device_lost = false;
  std::string raw;                    // raw output
};

class AdbExecutor : public core::TestExecutor {
 public:
  AdbExecutor(AdbBackendConfig config, std::shared_ptr<DeviceRegistry> registry);
  ~AdbExecutor() override;

  util::Result<Discovery> discover(const std::vector<core::TestId>& ids, const core::CancelFlag& cancel) override;
  util::Result<core::RunReport> run(const core::RunSpec& spec, const core::CancelFlag& cancel) override;
  // One instrumentation with `-e debug true` (debug_run.hpp). A device lost before `drive`
  // was called is retried elsewhere; lost while driving, `drive` is called again on the
  // next device (it starts from scratch each time), up to max_attempts in all.
  util::Result<core::RunReport> run_debugged(const core::RunSpec& spec, const core::CancelFlag& cancel,
                                             const DriveFn& drive) override;
  int parallelism() const override;

  const AdbBackendConfig& config() const { return config_; }
  DeviceRegistry& registry() { return *registry_; }

  // Installs (once per device generation) and clears state as configured. Public so the
  // debugger and Monkey paths can prepare a leased device the same way.
  util::Result<void> prepare(const Lease& lease, wire::Deadline deadline, const core::CancelFlag& cancel);

  // Runs one instrumentation with the given tests on a leased device (no retry). list_only:
  // `-e log true`, the runner lists the tests in its order without running them.
  util::Result<DeviceRun> instrument(const Lease& lease, const std::vector<std::string>& tests, bool debug,
                                     wire::Deadline deadline, const core::CancelFlag& cancel, bool list_only = false);

  // A free usable device, not one of `exclude` nor one where installing failed. Errc::process
  // when no device could install the APKs.
  util::Result<Lease> lease_device(const std::set<std::string>& exclude, wire::Deadline deadline,
                                   const core::CancelFlag& cancel);
  // Takes the device out of this executor's pool.
  void note_install_failure(const Lease& lease, const util::Error& error);
  // Learns the runner's order from an instrumentation's output.
  void learn_order(const InstrumentationOutput& output);

 private:
  friend util::Result<std::unique_ptr<AdbExecutor>> make_adb_executor(AdbBackendConfig, std::shared_ptr<DeviceRegistry>);
  void keep_log(const core::RunSpec& spec, const std::string& device, const std::string& raw, core::RunReport& report);
  // One run on one device: segments, the order check, the reports of the segments joined.
  struct LeasedRun {
    core::RunReport report;
    std::string raw;
    std::string lost;        // not empty: the device went away (why)
    int instrumentations = 0;
  };
  util::Result<LeasedRun> run_on(const Lease& lease, const core::RunSpec& spec, wire::Deadline deadline,
                                 const core::CancelFlag& cancel);
  // Round 0 and 1: segments by the learnt order; round 2 and later: one test each.
  std::vector<std::vector<std::string>> plan(const std::vector<std::string>& tests, int round);

  AdbBackendConfig config_;
  std::shared_ptr<DeviceRegistry> registry_;
  std::string app_bytes_, test_bytes_;
  std::mutex mutex_;
  std::set<std::string> installed_;        // "key#generation" of prepared devices
  std::set<std::string> install_failed_;   // devices where install failed: not used again
  std::map<std::string, std::string> install_errors_;
  RunnerOrder order_;
  int log_counter_ = 0;
};

// Builds the executor from a scan request's fields: reads the APKs, takes package names
// from them when not given, validates every name and argument against the shell grammar,
// and starts device tracking (or uses `registry` when given, e.g. the daemon's own).
util::Result<std::unique_ptr<AdbExecutor>> make_adb_executor(AdbBackendConfig config,
                                                            std::shared_ptr<DeviceRegistry> registry = nullptr);

// Installs an APK (its bytes; apk_path only names it in messages) on a leased device: sync
// push to /data/local/tmp/flakescan-<package>.apk, `pm install -r -t`, the file removed.
// Errc::process with pm's "Failure [...]" when the device refuses it.
util::Result<void> install_apk(const Lease& lease, const std::string& apk_path, const std::string& apk_bytes,
                               wire::Deadline deadline, const core::CancelFlag& cancel);

// Errc::invalid_argument unless every entry of the spec is a method id.
util::Result<void> check_method_ids(const core::RunSpec& spec);

// The method ids the runner started, in its order (class-level entries left out).
std::vector<std::string> executed_tests(const InstrumentationOutput& output);

// Maps one instrumentation's output onto the tests it was asked to run (same order).
std::vector<core::TestResult> map_results(const std::vector<std::string>& tests, const InstrumentationOutput& output,
                                          const std::optional<util::Error>& cut);

}  // namespace flakescan::backend::adb
