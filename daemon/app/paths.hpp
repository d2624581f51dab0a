#pragma once
// Where the executables find their companions: the runner jar, the other executable, the
// data folder. Both the build tree (build/daemon/app/, build/lib/) and an installed tree
// (bin/, share/flakescan/ as the Debian package lays it out, or lib/flakescan/) are searched.
#include <filesystem>
#include <optional>

namespace flakescan::app {

std::filesystem::path executable_dir();
// A jar the daemon ships (`name`): $`env` when set, else beside the executables.
std::optional<std::filesystem::path> find_jar(const char* name, const char* env);
std::optional<std::filesystem::path> find_runner_jar();         // flakescan-runner.jar
std::optional<std::filesystem::path> find_shuffling_jdk_jar();  // flakescan-shuffling-jdk.jar
std::optional<std::filesystem::path> find_threads_agent_jar();  // flakescan-threads-agent.jar (technique threads)
std::optional<std::filesystem::path> find_sibling(const char* name);
// $FLAKESCAN_HOME, else $XDG_DATA_HOME/flakescan, else ~/.local/share/flakescan.
std::filesystem::path default_data_dir();

}  // namespace flakescan::app
