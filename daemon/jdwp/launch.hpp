#pragma once
// Starting a JVM under the debugger: the daemon listens on a loopback port (port 0, so
// parallel launches never collide), adds `-agentlib:jdwp=transport=dt_socket,server=n,
// address=127.0.0.1:<port>,suspend=y|n` right after `java`, starts the process with
// util::Child (own process group) and accepts the agent's connection before the deadline.
// A JVM that exits before connecting is reported with its exit status.
#include <chrono>
#include <memory>
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
};

struct Launched {
  std::unique_ptr<JdwpVm> vm;
  util::Child child;
};

// The agent option for a debugger listening on 127.0.0.1:port.
std::string agent_option(unsigned short port, bool suspend);
// argv with the agent option inserted after argv[0] (which must name java).
util::Result<std::vector<std::string>> with_agent(const std::vector<std::string>& argv, unsigned short port, bool suspend);

util::Result<Launched> launch(util::SpawnOptions command, const LaunchOptions& options);

}  // namespace flakescan::jdwp
