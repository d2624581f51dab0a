#include "backend/adb/debug_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "backend/adb/shell_command.hpp"
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

}  // namespace

util::Result<std::unique_ptr<DebugRun>> start_debug_run(AdbExecutor& executor, const core::RunSpec& spec,
                                                       const core::CancelFlag& cancel) {
  const auto& config = executor.config();
  auto deadline = wire::after(Ms(spec.timeout_ms));
  std::set<std::string> distinct(spec.tests.begin(), spec.tests.end());
  if (distinct.size() != spec.tests.size())
    return fail(Errc::invalid_argument, "a debug run cannot repeat a test (one instrumentation)");
  auto lease = executor.registry().acquire({}, config.device_wait, &cancel);
  if (!lease) return std::unexpected(lease.error());
  if (auto p = executor.prepare(*lease, deadline, cancel); !p) return std::unexpected(p.error());
  auto before = lease->client().jdwp_pids(lease->serial(), std::min(deadline, wire::after(Ms(5000))));
  if (!before) return std::unexpected(before.error());

  std::unique_ptr<DebugRun> run(new DebugRun(std::move(*lease)));
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
  if (!pid) return std::unexpected(pid.error());  // ~DebugRun stops the instrumentation
  raw->pid_ = *pid;
  auto vm = attach_over_adb(raw->lease_.client(), raw->lease_.serial(), *pid, std::min(deadline, wire::after(Ms(20000))));
  if (!vm) return std::unexpected(vm.error());
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
