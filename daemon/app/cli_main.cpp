#include <cstdio>
#include <string_view>

#include "app/cli_commands.hpp"
#include "util/log.hpp"

namespace {

struct Command {
  std::string_view name;
  int (*run)(const flakescan::app::Args&);
  std::string_view summary;
};

constexpr Command commands[] = {
    {"scan", flakescan::app::cli_scan, "scan tests for flakiness and write verdicts.json"},
    {"replay", flakescan::app::cli_replay, "re-run a verdict's reproducer and say whether the failure came back"},
    {"report", flakescan::app::cli_report, "turn verdicts.json into SARIF, JUnit XML, annotations, quarantine lists, a patch"},
    {"tarpits", flakescan::app::cli_tarpits, "find UI exploration tarpits in UI traces and the guidance for the next runs"},
    {"devices", flakescan::app::cli_devices, "list the Android devices and emulators the adb server(s) see, with their states"},
    {"explore-ui", flakescan::app::cli_explore_ui, "run Monkey on a device through the daemon; print its tarpits and the guidance"},
    {"import-results", flakescan::app::cli_import_results, "import JUnit XML reports of a CI run into the daemon's history"},
    {"suspects", flakescan::app::cli_suspects, "list the tests that look flaky from the imported CI history"},
    {"quarantine", flakescan::app::cli_quarantine, "print the quarantine list (json, notTestFile lines or Gradle excludes)"},
};

int usage(FILE* out) {
  std::fprintf(out, "usage: flakescan COMMAND [OPTIONS]\n\ncommands:\n");
  for (const auto& c : commands)
    std::fprintf(out, "  %-10.*s %.*s\n", int(c.name.size()), c.name.data(), int(c.summary.size()), c.summary.data());
  std::fprintf(out, "\n`flakescan COMMAND --help` describes a command's options.\n");
  return out == stderr ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  flakescan::util::configure_logging_from_env();
  if (argc < 2) return usage(stderr);
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") return usage(stdout);
  if (name == "--version") {
    std::printf("flakescan %s\n", FLAKESCAN_VERSION);
    return 0;
  }
  for (const auto& c : commands) {
    if (c.name == name) return c.run(flakescan::app::Args(argv + 2, argv + argc));
  }
  std::fprintf(stderr, "flakescan: unknown command '%s'\n\n", argv[1]);
  return usage(stderr);
}
