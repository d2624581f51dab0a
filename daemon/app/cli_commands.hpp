#pragma once
// The subcommands of the `flakescan` CLI. Each lives in its own cli_<name>.cpp, takes the
// arguments after its name, and returns the process exit code (0 ok, 1 could not run,
// 2 usage error). To add one: declare it here, list it in cli_main.cpp's table, and add its
// file to flakescan_cli in CMakeLists.txt.
#include <string>
#include <vector>

namespace flakescan::app {

using Args = std::vector<std::string>;

int cli_scan(const Args& args);
int cli_replay(const Args& args);
int cli_report(const Args& args);
int cli_tarpits(const Args& args);
int cli_devices(const Args& args);
int cli_explore_ui(const Args& args);
int cli_import_results(const Args& args);
int cli_suspects(const Args& args);
int cli_quarantine(const Args& args);

}  // namespace flakescan::app
