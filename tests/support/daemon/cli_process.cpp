#include "support/daemon/cli_process.hpp"

#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

#include "support/daemon/daemon_process.hpp"

namespace flakescan::testing {

namespace fs = std::filesystem;

RunningCli::RunningCli(const std::vector<std::string>& args, const std::vector<std::string>& env, const fs::path& in) {
  static std::atomic<int> count{0};
  dir_ = fresh_dir("cli-out-" + std::to_string(count++));
  std::vector<std::string> argv{build_path("daemon/app/flakescan").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto child = util::Child::spawn({.argv = argv, .extra_env = env, .working_dir = (in.empty() ? dir_ : in).string(),
                                   .stdout_path = (dir_ / "out").string(), .stderr_path = (dir_ / "err").string()});
  if (!child) throw std::runtime_error("cannot start flakescan: " + child.error().message);
  child_ = std::move(*child);
}

CliResult RunningCli::finish() {
  CliResult r;
  auto status = child_->wait(std::chrono::steady_clock::now() + std::chrono::seconds(300));
  if (status && status->exited) r.code = status->code;
  std::ifstream o(dir_ / "out"), e(dir_ / "err");
  r.out.assign(std::istreambuf_iterator<char>(o), {});
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

}  // namespace flakescan::testing
