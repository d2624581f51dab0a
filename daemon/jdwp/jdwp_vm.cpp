// JdwpVm's life: attaching (version asked once, pump thread started, first event read armed),
// teardown, detach and exit. Where the rest is: jdwp_vm.hpp.
#include "jdwp/jdwp_vm.hpp"

namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

// ---- life ---------------------------------------------------------------------------------

JdwpVm::JdwpVm(std::unique_ptr<Client> client, VmOptions options) : client_(std::move(client)), options_(std::move(options)) {}

util::Result<std::unique_ptr<JdwpVm>> JdwpVm::create(std::unique_ptr<Client> client, VmOptions options, Deadline deadline) {
  auto version = client->call<VmVersion>({}, deadline);
  if (!version) return std::unexpected(version.error());
  std::unique_ptr<JdwpVm> vm(new JdwpVm(std::move(client), std::move(options)));
  vm->description_ = version->vm_name + " " + version->vm_version;
  vm->pump_ = std::thread([raw = vm.get()] { raw->pump(); });
  vm->arm();
  return vm;
}

util::Result<std::unique_ptr<JdwpVm>> JdwpVm::attach(const std::string& host, unsigned short port, VmOptions options,
                                                     Deadline deadline) {
  auto client = Client::connect(host, port, options.session, deadline);
  if (!client) return std::unexpected(client.error());
  return create(std::move(*client), std::move(options), deadline);
}

util::Result<std::unique_ptr<JdwpVm>> JdwpVm::attach_socket(boost::asio::ip::tcp::socket socket, VmOptions options,
                                                            Deadline deadline) {
  auto client = Client::adopt(std::move(socket), options.session, deadline);
  if (!client) return std::unexpected(client.error());
  return create(std::move(*client), std::move(options), deadline);
}

JdwpVm::~JdwpVm() {
  client_->close("controller destroyed");
  {
    std::lock_guard lock(events_mutex_);
    ended_ = true;
  }
  events_cv_.notify_all();
  {
    std::lock_guard lock(slow_mutex_);
    stopping_ = true;
  }
  slow_cv_.notify_all();
  if (pump_.joinable()) pump_.join();
  // Joins the io thread while this object is still whole: its last handlers touch slow_.
  client_.reset();
}

bool JdwpVm::alive() const { return !client_->closed(); }

util::Result<void> JdwpVm::check_alive() const {
  if (client_->closed()) return fail(Errc::disconnected, "the VM session has ended");
  return {};
}

// ---- end ----------------------------------------------------------------------------------

util::Result<void> JdwpVm::detach(Deadline deadline) {
  // Every request is cleared before Dispose. An event that fires while the VM handles Dispose
  // can leave its thread suspended with no debugger to resume it: seen under CPU load, the
  // end-of-test breakpoint hit as the debugger detached kept a runner at
  // RunNotifier.fireTestFinished until the run's deadline. Once no request is left no event
  // can fire, and Dispose resumes the threads that earlier events suspended.
  std::vector<core::RequestHandle> handles;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [handle, request] : requests_) handles.push_back(handle);
  }
  for (auto handle : handles) (void)clear(handle, deadline);  // a VM that is gone needs none
  (void)client_->call<ErClearAllBreakpoints>({}, deadline);
  auto r = client_->call<VmDispose>({}, deadline);
  client_->close("detached");
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<void> JdwpVm::exit(int code, Deadline deadline) {
  auto r = client_->call<VmExit>({code}, deadline);
  // The VM may close the connection before it answers: that is the exit we asked for.
  if (!r && r.error().code != Errc::disconnected) return std::unexpected(r.error());
  return {};
}

}  // namespace flakescan::jdwp
