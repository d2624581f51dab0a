#pragma once
// The `flakescan` CLI run as a user runs it: its own process, its output in files, its exit code.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/process.hpp"

namespace flakescan::testing {

struct CliResult {
  int code = -1;  // -1: killed
  std::string out;
  std::string err;
};

// A CLI started and not yet waited for.
class RunningCli {
 public:
  // `env`: added to the environment; `in`: its working directory (default: the fresh folder its
  // output goes to).
  RunningCli(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
             const std::filesystem::path& in = {});
  // Waits (at most 300 s, then kills it) and returns what it printed.
  CliResult finish();

 private:
  std::filesystem::path dir_;
  std::optional<util::Child> child_;
};

// Runs the CLI to its end.
inline CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
                         const std::filesystem::path& in = {}) {
  return RunningCli(args, env, in).finish();
}

}  // namespace flakescan::testing
