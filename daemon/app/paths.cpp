#include "app/paths.hpp"

#include <cstdlib>

namespace flakescan::app {

namespace fs = std::filesystem;

fs::path executable_dir() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

std::optional<fs::path> find_jar(const char* name, const char* env) {
  if (const char* set = std::getenv(env)) return fs::path(set);
  fs::path dir = executable_dir();
  for (const fs::path& candidate : {dir / "../share/flakescan" / name, dir / "../lib/flakescan" / name, dir / "../../lib" / name,
                                    dir / "../lib" / name}) {
    std::error_code ec;
    if (fs::exists(candidate, ec)) return fs::weakly_canonical(candidate, ec);
  }
  return std::nullopt;
}

std::optional<fs::path> find_runner_jar() { return find_jar("flakescan-runner.jar", "FLAKESCAN_RUNNER_JAR"); }

std::optional<fs::path> find_shuffling_jdk_jar() { return find_jar("flakescan-shuffling-jdk.jar", "FLAKESCAN_SHUFFLING_JDK_JAR"); }

std::optional<fs::path> find_threads_agent_jar() { return find_jar("flakescan-threads-agent.jar", "FLAKESCAN_THREADS_AGENT_JAR"); }

std::optional<fs::path> find_sibling(const char* name) {
  fs::path candidate = executable_dir() / name;
  std::error_code ec;
  if (fs::exists(candidate, ec)) return candidate;
  return std::nullopt;
}

fs::path default_data_dir() {
  if (const char* env = std::getenv("FLAKESCAN_HOME")) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return fs::path(xdg) / "flakescan";
  if (const char* home = std::getenv("HOME")) return fs::path(home) / ".local/share/flakescan";
  return fs::temp_directory_path() / "flakescan";
}

}  // namespace flakescan::app
