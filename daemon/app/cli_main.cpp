// flakescan: the CLI. Every subcommand is read by the one parser (command_line.hpp).
#include "app/cli_commands.hpp"
#include "util/log.hpp"
#include "util/version.hpp"

int main(int argc, char** argv) {
  flakescan::util::configure_logging_from_env();
  return flakescan::app::run_command_line(flakescan::app::all_commands(), flakescan::app::Args(argv + 1, argv + argc),
                                          std::string(flakescan::util::version()) + " (commit " +
                                              std::string(flakescan::util::commit()) + ")");
}
