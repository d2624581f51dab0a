#include "backend/adb/debug_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "backend/adb/shell_command.hpp"
#include "util/log.hpp"
#include "jdwp/jdwp_vm.hpp"

namespace flakescan::backend::adb {

using util::Errc;
using util::fail;
using Ms = std::chrono::milliseconds;

util::Result<std::unique_ptr<core::Vm>> attach_over_adb(const wire::Client& client, const std::string& serial, int pid,
                                                        wire::Deadline deadline) {
  auto conn = client.jdwp(serial, pid, deadline);
  if (!conn) return std::unexpected(conn.error());
  std::string leftover;
  auto fd = conn->release_native_handle(&leftover);
  if (!fd) return std::unexpected(fd.error());
  // Nothing precedes the JDWP handshake, which the debugger sends first.
  if (!leftover.empty()) return fail(Errc::malformed, "bytes before the JDWP handshake on jdwp:" + std::to_string(pid));
  boost::asio::io_context ctx;  // only to wrap the descriptor; the JDWP client re-homes it
  boost::asio::ip::tcp::socket socket(ctx);
  boost::system::error_code ec;
  socket.assign(boost::asio::ip::tcp::v4(), *fd, ec);
  if (ec) return fail(Errc::io, "cannot adopt the jdwp stream: " + ec.message());
  jdwp::VmOptions options;
  options.session.name = serial + "/" + std::to_string(pid);
  auto vm = jdwp::JdwpVm::attach_socket(std::move(socket), options, deadline);
  if (!vm) return std::unexpected(vm.error());
  return std::unique_ptr<core::Vm>(std::move(*vm));
}

namespace {

// The debuggable pid that appeared since `before`; with several, the one `pidof` names.
util::Result<int> find_test_pid(const Lease& lease, const std::vector<int>& before, const std::string& process,
                                wire::Deadline deadline, const core::CancelFlag& cancel) {
  while (wire::Clock::now() < deadline && !cancel) {
    auto pids = lease.client().jdwp_pids(lease.serial(), std::min(deadline, wire::after(Ms(5000))));
    if (!pids && pids.error().code != Errc::timeout) return std::unexpected(pids.error());
    std::vector<int> fresh;
    if (pids)
      for (int p : *pids)
        if (std::find(before.begin(), before.end(), p) == before.end()) fresh.push_back(p);
    if (fresh.size() == 1) return fresh[0];
    if (fresh.size() > 1) {
      if (auto cmd = pidof_command(process)) {
        auto out = lease.client().shell(lease.serial(), *cmd, deadline, &cancel);
        if (out && !out->cut)
          for (int p : fresh)
            if (out->out.find(std::to_string(p)) != std::string::npos) return p;
      }
      return fresh.back();
    }
    std::this_thread::sleep_for(Ms(100));
  }
  return fail(cancel ? Errc::cancelled : Errc::timeout, "the test process never became debuggable");
}

// A runner waiting in Debug.waitForDebugger runs on when the debugger attaches and sends no
// event; a VM whose agent was started with suspend=y announces itself with VMStart, every
// thread suspended. Suspend the first kind only, so one resume_all sets either going.
// (Asking threads whether they are suspended raced with the agent's own suspension.) A
// VMStart that comes later than the wait is not lost: LooperSession resumes it with a
// VM-wide resume, which undoes the extra suspension made here.
util::Result<void> suspend_unless_suspended(core::Vm& vm, wire::Deadline deadline) {
  auto first = vm.next_event(std::min(deadline, wire::after(Ms(500))));
  if (first && first->kind == core::EventKind::vm_start) return {};
  if (!first && first.error().code != Errc::timeout) return std::unexpected(first.error());
  return vm.suspend_all(deadline);
}

}  // namespace

util::Result<std::unique_ptr<DebugRun>> start_debug_run(AdbExecutor& executor, const core::RunSpec& spec,
                                                       const core::CancelFlag& cancel) {
  auto deadline = wire::after(Ms(spec.timeout_ms));
  auto lease = executor.lease_device({}, deadline, cancel);
  if (!lease) return std::unexpected(lease.error());
  if (auto p = executor.prepare(*lease, deadline, cancel); !p) return std::unexpected(p.error());
  return start_debug_run(executor, spec, cancel, std::move(*lease));
}

util::Result<std::unique_ptr<DebugRun>> start_debug_run(AdbExecutor& executor, const core::RunSpec& spec,
                                                       const core::CancelFlag& cancel, Lease lease) {
  const auto& config = executor.config();
  auto deadline = wire::after(Ms(spec.timeout_ms));
  std::set<std::string> distinct(spec.tests.begin(), spec.tests.end());
  if (distinct.size() != spec.tests.size())
    return fail(Errc::invalid_argument, "a debug run cannot repeat a test (one instrumentation)");
  auto lost = [&](const util::Error& e, const Lease& l) -> util::Error {
    if (!l.lost() && e.code != Errc::disconnected) return e;
    return {Errc::disconnected, "device " + l.serial() + " went away before the debugger attached: " + e.message};
  };
  auto before = lease.client().jdwp_pids(lease.serial(), std::min(deadline, wire::after(Ms(5000))));
  if (!before) return std::unexpected(lost(before.error(), lease));

  std::unique_ptr<DebugRun> run(new DebugRun(std::move(lease)));
  run->tests_ = spec.tests;
  run->started_ = wire::Clock::now();
  run->test_package_ = config.test_package;
  DebugRun* raw = run.get();
  raw->reader_ = std::thread([raw, &executor, deadline] {
    raw->run_ = executor.instrument(raw->lease_, raw->tests_, true, deadline, raw->stop_);
  });
  // The instrumentation runs in the app's process (the test APK's target package).
  std::string process = config.app_package.empty() ? config.test_package : config.app_package;
  auto pid = find_test_pid(raw->lease_, *before, process, std::min(deadline, wire::after(Ms(60000))), cancel);
  if (!pid) return std::unexpected(lost(pid.error(), raw->lease_));  // ~DebugRun stops the instrumentation
  raw->pid_ = *pid;
  auto vm = attach_over_adb(raw->lease_.client(), raw->lease_.serial(), *pid, std::min(deadline, wire::after(Ms(20000))));
  if (!vm) return std::unexpected(lost(vm.error(), raw->lease_));
  // Handed over suspended, as a local JVM launched with suspend=y: the technique sets its
  // breakpoints before anything runs on, then resumes once.
  if (auto s = suspend_unless_suspended(**vm, std::min(deadline, wire::after(Ms(20000)))); !s)
    return std::unexpected(lost(s.error(), raw->lease_));
  raw->vm_ = std::move(*vm);
  return run;
}

util::Result<core::RunReport> DebugRun::finish() {
  if (reader_.joinable()) reader_.join();
  finished_ = true;
  vm_.reset();
  if (!run_) return std::unexpected(run_.error());
  core::RunReport report;
  report.results = map_results(tests_, run_->output, run_->cut);
  if (run_->device_lost) report.infra_reason = "device " + lease_.serial() + " went away during the debug run";
  else if (run_->cut) report.infra_reason = util::describe(*run_->cut), report.timed_out = run_->cut->code == Errc::timeout;
  else report.infra_reason = run_->output.failure_reason();
  report.exit_code = report.infra_reason.empty() ? 0 : -1;
  report.wall_ms = std::chrono::duration<double, std::milli>(wire::Clock::now() - started_).count();
  return report;
}

DebugRun::~DebugRun() {
  if (!finished_) {
    stop_ = true;
    vm_.reset();
    if (auto cmd = force_stop_command(test_package_))
      (void)lease_.client().shell(lease_.serial(), *cmd, wire::after(Ms(10000)));
  }
  if (reader_.joinable()) reader_.join();
}

}  // namespace flakescan::backend::adb

namespace flakescan::backend::adb {

util::Result<core::RunReport> AdbExecutor::run_debugged(const core::RunSpec& spec, const core::CancelFlag& cancel,
                                                        const DriveFn& drive) {
  auto log = util::logger("adb");
  auto start = wire::Clock::now();
  auto deadline = start + Ms(spec.timeout_ms);
  if (auto ok = check_method_ids(spec); !ok) return std::unexpected(ok.error());
  std::set<std::string> exclude;
  std::string last_loss;
  for (int attempts = 0; attempts < std::max(1, config_.max_attempts);) {
    if (plan(spec.tests, 0).size() > 1)
      return fail(Errc::unsupported, "a debugged run on a device is one instrumentation, and the device's runner "
                                     "would not run these tests in this order in one");
    auto lease = lease_device(exclude, deadline, cancel);
    if (!lease) {
      if (!last_loss.empty()) return fail(Errc::disconnected, last_loss + "; no other device: " + lease.error().message);
      return std::unexpected(lease.error());
    }
    std::string key = lease->key(), serial = lease->serial();
    auto retry = [&](std::string why) {
      last_loss = std::move(why);
      log->info("{}; retrying the debugged run elsewhere", last_loss);
      exclude.insert(key);
    };
    if (auto p = prepare(*lease, deadline, cancel); !p) {
      if (cancel) return fail(Errc::cancelled, "run cancelled");
      ++attempts;
      if (lease->lost() || p.error().code == Errc::disconnected) retry("device " + serial + " went away while preparing");
      else note_install_failure(*lease, p.error());
      continue;
    }
    ++attempts;
    auto run = start_debug_run(*this, spec, cancel, std::move(*lease));
    if (!run) {
      if (run.error().code != Errc::disconnected || cancel) return std::unexpected(run.error());
      retry(run.error().message);
      continue;
    }
    auto driven = drive((*run)->vm());
    if (!driven) {
      // The debugger's stream ends a moment before the device tracker reports the device gone.
      for (int i = 0; i < 40 && driven.error().code == Errc::disconnected && !(*run)->lease_lost() && !cancel; ++i)
        std::this_thread::sleep_for(Ms(50));
      if (!(*run)->lease_lost() || cancel) return std::unexpected(driven.error());  // ~DebugRun force-stops
      retry("device " + serial + " went away while the debugger drove the run");
      continue;
    }
    if ((*run)->vm().alive()) (void)(*run)->vm().detach(core::deadline_in(std::chrono::seconds(5)));
    auto report = (*run)->finish();
    if (!report) return std::unexpected(report.error());
    if ((*run)->device_lost() && !cancel) {
      retry("device " + serial + " went away during the debugged run");
      continue;
    }
    auto executed = (*run)->executed();
    {
      std::lock_guard lock(mutex_);
      order_.learn(executed);
    }
    if (!RunnerOrder::ran_as_listed(spec.tests, executed)) {
      last_loss = "the runner on " + serial + " did not run the tests in the requested order";
      log->info("{}; asking again by the order it showed", last_loss);
      continue;
    }
    report->wall_ms = std::chrono::duration<double, std::milli>(wire::Clock::now() - start).count();
    keep_log(spec, key, (*run)->raw(), *report);
    return report;
  }
  return fail(Errc::disconnected, last_loss + " (gave up after " + std::to_string(config_.max_attempts) + " attempts)");
}

}  // namespace flakescan::backend::adb
