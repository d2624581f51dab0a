#pragma once
// The one command-line parser of `flakescan` (CLI11), and what every subcommand shares.
//
// Policy: every subcommand is a CommandDef. Its `define` adds the command's own options to
// its CLI::App (bound to state the returned Command owns); CommandLine adds the common
// options and does all the reading, so every subcommand behaves the same:
//   * `flakescan CMD --help` (also -h, `flakescan help CMD`) prints CMD's help on stdout and
//     exits 0; `flakescan --help` lists the commands.
//   * A usage error prints "flakescan CMD: <what>" and a pointer to --help on stderr and
//     exits 2, whether CLI11 found it (unknown option, missing value, bad number) or the
//     command's own check() did (options that need each other, files to read). Nothing has
//     run when parse() returns; run() does the work (0 done, 1 could not run, other codes
//     as the command's help says).
//   * The common options are accepted by every subcommand (except `completion`, whose help
//     says why): --daemon URL (else $FLAKESCAN_DAEMON), --keep-daemon, --json, --quiet.
//     --json puts the machine-readable result on stdout instead of the text; --quiet drops
//     progress and status lines on stderr (errors still print). A command that runs here
//     without a daemon (report, tarpits, devices --adb) accepts --daemon and --keep-daemon
//     and says in its help that it does not use them, so one set of flags (or the
//     environment) serves every command of a script.
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/daemon_connection.hpp"

namespace CLI {
class App;
}

namespace flakescan::app {

using Args = std::vector<std::string>;

struct CommonOptions {
  std::string daemon;        // --daemon URL, else $FLAKESCAN_DAEMON; empty: the default address, or start one
  bool keep_daemon = false;  // leave a daemon started for this command running
  bool json = false;         // machine-readable result on stdout
  bool quiet = false;        // no progress or status lines on stderr
};

// What a subcommand's definition returns: both functions own the command's parsed state.
struct Command {
  // Usage errors CLI11 cannot see; empty when there are none. Runs inside parse().
  std::function<std::string(const CommonOptions&)> check;
  std::function<int(const CommonOptions&)> run;
};

// Whether the common options reach a daemon, for their help text.
enum class Reach {
  daemon,  // talks to the daemon: --daemon, --keep-daemon apply
  local,   // runs here: --daemon and --keep-daemon are accepted and not used
  none,    // takes no common options at all (`completion`)
};

struct CommandDef {
  std::string name;
  std::string summary;  // one line, for `flakescan --help`
  Reach reach = Reach::daemon;
  // What the common options mean for this command (help text); empty: the generic wording.
  std::string json_help, quiet_help;
  std::function<Command(CLI::App& cmd)> define;
};

class CommandLine {
 public:
  CommandLine(const std::vector<CommandDef>& commands, std::string version);
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // Reads `args` (without the program name). Returns the exit code when nothing is left to
  // run: 0 after help or --version (printed on `out`), 2 after a usage error (on `err`);
  // nullopt when a command is ready, which run() then runs.
  std::optional<int> parse(const Args& args, std::ostream& out, std::ostream& err);
  int run();

  // The chosen command's name and common options (after a successful parse).
  const std::string& chosen() const { return chosen_; }
  const CommonOptions& common() const;
  const CLI::App& app() const { return *app_; }

 private:
  struct Entry {
    Command command;
    CommonOptions common;
  };
  std::unique_ptr<CLI::App> app_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
  std::string chosen_;
};

// Parses and runs, with stdout and stderr: what `flakescan`'s main() does.
int run_command_line(const std::vector<CommandDef>& commands, const Args& args, std::string version);

// One CLI11 application without subcommands (flakescand), read with the same wording and
// exit codes: 0 after help, 2 after a usage error, nullopt when the program may go on.
std::optional<int> parse_single(CLI::App& app, const Args& args, std::ostream& out, std::ostream& err);

// A usage error worded as the parser words its own ("flakescan CMD: what" and the --help
// pointer) on `err`; returns 2.
int usage_error(std::ostream& err, std::string_view program, const std::string& message);

// A bash completion script for `program` built from the parser: commands, each command's
// options, file names elsewhere.
std::string bash_completion(const CLI::App& root);

// The daemon a command talks to (CommonOptions::daemon, else the default, started if none
// answers); on failure says so as "flakescan CMD: could not run: ..." and returns null.
std::unique_ptr<DaemonConnection> open_daemon(std::string_view command, const CommonOptions& common);

}  // namespace flakescan::app
