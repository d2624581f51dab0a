#pragma once
// Test support: fake devices whose instrumentations really run. An `am instrument` that the
// fake adb server receives runs the `-e class` tests on a local HotSpot JVM (flakescan's
// runner, the project's classpath), and the runner's results come back as `am instrument -r`
// output. With `-e debug true` the JVM starts under a JDWP agent that waits for a debugger,
// like AndroidJUnitRunner in Debug.waitForDebugger, and the device's `jdwp:PID` is proxied
// to it; the pid disappears from track-jdwp when the JVM ends. `-e log true` lists the tests
// without running them. So outcomes are observed from real processes; only the device and
// its runner are stand-ins. Nothing here runs on a real device.
//
// Each device runs one instrumentation at a time (as the backend guarantees), in a work
// folder of its own.
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backend/local_jvm/local_jvm_executor.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"

namespace flakescan::test {

// The local JVM configuration for devices that run examples/<name> (the build writes its
// classpath to build/examples/<name>.classpath), with device folders under work_dir.
inline backend::LocalJvmConfig example_device_jvm(const std::string& example, const std::filesystem::path& work_dir) {
  backend::LocalJvmConfig c;
  c.runner_jar = std::filesystem::path(FLAKESCAN_BINARY_DIR) / "lib" / "flakescan-runner.jar";
  c.platform_jars = backend::default_platform_jars("/usr/share/java");
  std::ifstream in(std::filesystem::path(FLAKESCAN_BINARY_DIR) / "examples" / (example + ".classpath"));
  std::string line;
  std::getline(in, line);
  std::stringstream parts(line);
  for (std::string p; std::getline(parts, p, ':');)
    if (!p.empty()) c.classpath.push_back(p);
  c.work_dir = work_dir;
  return c;
}

class JvmBackedDevices {
 public:
  // `base`: the local JVM configuration (runner jar, platform jars, project classpath);
  // its work_dir is the parent of the devices' folders.
  JvmBackedDevices(FakeAdbServer& fake, backend::LocalJvmConfig base) : fake_(fake), base_(std::move(base)) {}

  // The shell handler to install with FakeAdbServer::on_shell (or to call from one).
  std::optional<FakeReply> handle(const std::string& serial, const std::string& command) {
    if (!command.starts_with("am instrument")) return std::nullopt;
    auto ids = instrumented_tests(command);
    FakeReply reply;
    if (command.find("-e 'log' 'true'") != std::string::npos) {
      std::vector<ScriptedTest> listed;
      for (const auto& id : ids) listed.push_back(split(id));
      reply.out = transcript(listed);
      return reply;
    }
    bool debug = command.find(" -e debug true ") != std::string::npos;
    reply.produce = [this, serial, ids, debug] { return run(serial, ids, debug); };
    return reply;
  }

  int runs() const {
    std::lock_guard lock(mutex_);
    return runs_;
  }
  int debugged_runs() const {
    std::lock_guard lock(mutex_);
    return debugged_;
  }

 private:
  static ScriptedTest split(const std::string& id) {
    auto hash = id.find('#');
    return ScriptedTest{id.substr(0, hash), id.substr(hash + 1)};
  }

  std::string run(const std::string& serial, const std::vector<std::string>& ids, bool debug) {
    int pid;
    {
      std::lock_guard lock(mutex_);
      ++runs_;
      debugged_ += debug ? 1 : 0;
      pid = next_pid_++;
    }
    auto config = base_;
    config.work_dir = base_.work_dir / (serial + "-" + std::to_string(pid));
    // One `am instrument` is one process on a device: no runner JVMs started ahead. With them,
    // a spare (started with the same -agentlib:jdwp, suspended) could take run-0's files before
    // the run did, and the debugger below attached to it; the run then waited for a debugger
    // and the explore test timed out about once in three.
    config.prestart = false;
    if (debug) config.jvm_args.push_back("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0");
    backend::LocalJvmExecutor jvm(config);
    core::RunSpec spec;
    spec.tests = ids;
    spec.timeout_ms = 120000;
    core::CancelFlag cancel{false};
    std::optional<util::Result<core::RunReport>> report;
    std::thread runner([&] { report = jvm.run(spec, cancel); });
    if (debug) announce_debuggable(serial, pid, config.work_dir);
    runner.join();
    if (debug) fake_.remove_jdwp(serial, pid);
    if (!*report) return "INSTRUMENTATION_FAILED: " + util::describe(report->error()) + "\n";
    return to_transcript(ids, **report);
  }

  // Waits for the agent's "Listening ... address: PORT" and makes the pid debuggable.
  void announce_debuggable(const std::string& serial, int pid, const std::filesystem::path& dir) {
    std::regex listening("Listening for transport dt_socket at address: ([0-9]+)");
    for (int i = 0; i < 1200; ++i) {
      std::ifstream in(dir / "run-0.log");
      std::ostringstream text;
      text << in.rdbuf();
      std::smatch m;
      std::string s = text.str();
      if (std::regex_search(s, m, listening)) {
        fake_.add_jdwp(serial, pid, std::uint16_t(std::stoi(m[1])));
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }

  static std::string to_transcript(const std::vector<std::string>& ids, const core::RunReport& report) {
    std::vector<ScriptedTest> tests;
    for (size_t i = 0; i < ids.size(); ++i) {
      ScriptedTest t = split(ids[i]);
      const auto& r = report.results.at(i);
      switch (r.outcome) {
        case core::Outcome::pass: t.code = 0; break;
        case core::Outcome::fail:
        case core::Outcome::error:
          t.code = -2;
          t.stack = r.stack.empty() ? r.exception_type + ": " + r.message : r.stack;
          break;
        case core::Outcome::skipped: t.code = -3; break;
        default: t.code = 1; break;  // did not end: the stream stops here, as on a crash
      }
      tests.push_back(t);
      if (t.code == 1) break;
    }
    return transcript(tests);
  }

  FakeAdbServer& fake_;
  backend::LocalJvmConfig base_;
  mutable std::mutex mutex_;
  int next_pid_ = 5000, runs_ = 0, debugged_ = 0;
};

}  // namespace flakescan::test
