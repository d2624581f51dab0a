#pragma once
// Starting a JVM under the debugger, either side listening on loopback:
//   * default: the daemon listens on a fresh port (port 0, so parallel launches never
//     collide), adds `-agentlib:jdwp=transport=dt_socket,server=n,address=127.0.0.1:<port>,
//     suspend=y|n` right after `java`, and accepts the agent's connection;
//   * vm_listens: the agent listens (`server=y,address=127.0.0.1:0`), prints
//     "Listening for transport dt_socket at address: <port>" on the JVM's stdout, and the
//     daemon reads that line from the stdout file and connects.
// The process runs under util::Child (own process group). A JVM that exits before the
// debugger is attached is reported with its exit status.
#include <chrono>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "jdwp/jdwp_vm.hpp"
#include "util/process.hpp"

namespace flakescan::jdwp {

struct LaunchOptions {
  VmOptions vm;
  // true: the JVM stops before main; the first event is vm_start, and nothing runs until
  // resume_all() (set breakpoints first). false: it runs at once.
  bool suspend = true;
  std::chrono::milliseconds attach_timeout{20000};
  bool vm_listens = false;  // see above; needs stdout in a file (a temporary one if unset)
};

struct Launched {
  std::unique_ptr<JdwpVm> vm;
  util::Child child;
};

// The agent option for a debugger listening on 127.0.0.1:port, or (vm_listens) for an
// agent listening on a port of its choice.
std::string agent_option(unsigned short port, bool suspend, bool vm_listens = false);
// argv with the agent option inserted after argv[0] (which must name java).
util::Result<std::vector<std::string>> with_agent(const std::vector<std::string>& argv, unsigned short port, bool suspend,
                                                  bool vm_listens = false);
// The port in the agent's "Listening for transport dt_socket at address: N" line, if the
// text holds one.
std::optional<unsigned short> listening_port(std::string_view output);

util::Result<Launched> launch(util::SpawnOptions command, const LaunchOptions& options);

}  // namespace flakescan::jdwp
