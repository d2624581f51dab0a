#pragma once
// The subcommands of the `flakescan` CLI. Each lives in its own cli_<name>.cpp as a CommandDef
// (command_line.hpp: its options, its checks, what it runs); they are read by the one parser
// in command_line.cpp. To add one: declare it here and list it in all_commands()
// (cli_commands.cpp).
#include <vector>

#include "app/command_line.hpp"

namespace flakescan::app {

CommandDef scan_command();
CommandDef replay_command();
CommandDef report_command();
CommandDef tarpits_command();
CommandDef devices_command();
CommandDef crawl_ui_command();
CommandDef explore_ui_alias_command();  // the old name of crawl-ui (issue 30)
CommandDef import_results_command();
CommandDef suspects_command();
CommandDef quarantine_command();
CommandDef verdicts_command();
CommandDef completion_command();

// Every subcommand, in the order `flakescan --help` lists them.
std::vector<CommandDef> all_commands();

}  // namespace flakescan::app
