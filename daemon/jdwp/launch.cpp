#include "jdwp/launch.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include <stdlib.h>
#include <unistd.h>

#include <sys/wait.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

namespace flakescan::jdwp {

namespace asio = boost::asio;
using util::Errc;

std::string agent_option(unsigned short port, bool suspend, bool vm_listens) {
  if (vm_listens) return std::string("-agentlib:jdwp=transport=dt_socket,server=y,address=127.0.0.1:0,suspend=") + (suspend ? "y" : "n");
  return "-agentlib:jdwp=transport=dt_socket,server=n,address=127.0.0.1:" + std::to_string(port) +
         ",suspend=" + (suspend ? "y" : "n");
}

std::optional<unsigned short> listening_port(std::string_view output) {
  static constexpr std::string_view marker = "Listening for transport dt_socket at address: ";
  auto at = output.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  std::size_t i = at + marker.size();
  unsigned long port = 0;
  std::size_t digits = 0;
  while (i < output.size() && output[i] >= '0' && output[i] <= '9' && digits < 6) {
    port = port * 10 + static_cast<unsigned long>(output[i] - '0');
    ++i;
    ++digits;
  }
  // Only a complete line counts: the rest of the number may not be written yet.
  if (digits == 0 || i >= output.size() || (output[i] != '\n' && output[i] != '\r') || port == 0 || port > 65535) {
    return std::nullopt;
  }
  return static_cast<unsigned short>(port);
}

util::Result<std::vector<std::string>> with_agent(const std::vector<std::string>& argv, unsigned short port, bool suspend,
                                                  bool vm_listens) {
  if (argv.empty()) return util::fail(Errc::invalid_argument, "empty command line");
  const auto program = std::filesystem::path(argv.front()).filename().string();
  if (program != "java") return util::fail(Errc::invalid_argument, "the command must start with java, not " + argv.front());
  for (const auto& arg : argv) {
    if (arg.starts_with("-agentlib:jdwp") || arg.starts_with("-Xrunjdwp")) {
      return util::fail(Errc::invalid_argument, "the command already loads a JDWP agent");
    }
  }
  std::vector<std::string> out;
  out.push_back(argv.front());
  out.push_back(agent_option(port, suspend, vm_listens));
  out.insert(out.end(), argv.begin() + 1, argv.end());
  return out;
}

namespace {

// Whether the child has exited, without reaping it (util::Child reaps).
bool exited(pid_t pid) {
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return true;
  return info.si_pid == pid;
}

}  // namespace

namespace {

util::Result<Launched> launch_vm_listening(util::SpawnOptions command, const LaunchOptions& options) {
  const auto deadline = Clock::now() + options.attach_timeout;
  bool own_output = false;
  if (command.stdout_path.empty()) {
    own_output = true;
    char path[] = "/tmp/flakescan-jvm-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return util::fail(Errc::io, "cannot create a file for the JVM's output");
    ::close(fd);
    command.stdout_path = path;
  }
  auto argv = with_agent(command.argv, 0, options.suspend, true);
  if (!argv) return std::unexpected(argv.error());
  command.argv = std::move(*argv);
  auto child = util::Child::spawn(command);
  if (!child) return std::unexpected(child.error());
  std::optional<unsigned short> port;
  while (!port && Clock::now() < deadline) {
    std::ifstream in(command.stdout_path);
    std::stringstream text;
    text << in.rdbuf();
    port = listening_port(text.str());
    if (port) break;
    if (exited(child->pid())) {
      auto status = child->wait(Clock::now() + std::chrono::seconds(1));
      return util::fail(Errc::process, "the JVM ended before its agent listened: " +
                                           (status ? status->describe() : status.error().message));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::error_code ignored;
  if (own_output) std::filesystem::remove(command.stdout_path, ignored);  // the JVM keeps its descriptor
  if (!port) {
    child->kill_group();
    return util::fail(Errc::timeout, "the JVM's agent did not report its port in time");
  }
  auto vm = JdwpVm::attach("127.0.0.1", *port, options.vm, deadline);
  if (!vm) {
    child->kill_group();
    return std::unexpected(vm.error());
  }
  return Launched{std::move(*vm), std::move(*child)};
}

}  // namespace

util::Result<Launched> launch(util::SpawnOptions command, const LaunchOptions& options) {
  if (options.vm_listens) return launch_vm_listening(std::move(command), options);
  const auto deadline = Clock::now() + options.attach_timeout;
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io);
  boost::system::error_code ec;
  const asio::ip::tcp::endpoint loopback(asio::ip::make_address("127.0.0.1"), 0);
  acceptor.open(loopback.protocol(), ec);
  if (!ec) acceptor.bind(loopback, ec);
  if (!ec) acceptor.listen(1, ec);
  if (ec) return util::fail(Errc::io, "cannot listen on loopback: " + ec.message());
  const unsigned short port = acceptor.local_endpoint().port();

  auto argv = with_agent(command.argv, port, options.suspend);
  if (!argv) return std::unexpected(argv.error());
  command.argv = std::move(*argv);
  auto child = util::Child::spawn(command);
  if (!child) return std::unexpected(child.error());

  asio::ip::tcp::socket socket(io);
  std::optional<boost::system::error_code> accepted;
  acceptor.async_accept(socket, [&](boost::system::error_code e) { accepted = e; });
  while (!accepted && Clock::now() < deadline) {
    io.run_for(std::chrono::milliseconds(20));
    if (!accepted && exited(child->pid())) {
      auto status = child->wait(Clock::now() + std::chrono::seconds(1));
      return util::fail(Errc::process, "the JVM ended before the debugger attached: " +
                                           (status ? status->describe() : status.error().message));
    }
  }
  if (!accepted) {
    child->kill_group();
    return util::fail(Errc::timeout, "the JVM did not connect to the debugger in time");
  }
  if (*accepted) {
    child->kill_group();
    return util::fail(Errc::io, "accept: " + accepted->message());
  }
  acceptor.close(ec);
  auto vm = JdwpVm::attach_socket(std::move(socket), options.vm, deadline);
  if (!vm) {
    child->kill_group();
    return std::unexpected(vm.error());
  }
  return Launched{std::move(*vm), std::move(*child)};
}

}  // namespace flakescan::jdwp
