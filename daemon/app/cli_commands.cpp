#include "app/cli_commands.hpp"

namespace flakescan::app {

std::vector<CommandDef> all_commands() {
  return {scan_command(),           replay_command(),   report_command(),     tarpits_command(),
          devices_command(),        crawl_ui_command(), import_results_command(), suspects_command(),
          quarantine_command(),     verdicts_command(),   completion_command(), explore_ui_alias_command()};
}

}  // namespace flakescan::app
