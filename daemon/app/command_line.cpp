#include "app/command_line.hpp"

#include <cctype>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

namespace flakescan::app {

namespace {

constexpr std::size_t help_column = 30;

// CLI11's wording, made to read like the rest of the CLI's messages.
std::string describe(const CLI::ParseError& e) {
  std::string text = e.what();
  // "--out: 1 required TEXT missing" (no value after the option)
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && text.starts_with("-") && text.ends_with(" missing")) {
    return text.substr(0, text.find(':')) + " needs a value";
  }
  if (text.size() > 1 && std::isupper(static_cast<unsigned char>(text[0])) &&
      std::islower(static_cast<unsigned char>(text[1]))) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

// Arguments the parser matched to nothing.
std::string extras_message(const std::vector<std::string>& extras, bool expects_command) {
  const std::string& first = extras.front();
  if (first.starts_with("-")) return "unknown option " + first.substr(0, first.find('='));
  return (expects_command ? "unknown command '" : "unexpected argument '") + first + "'";
}

// The command list shows each command's first description line (its summary); the command's
// own help shows all of it.
class Formatter : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    const std::string& text = sub->get_description();
    CLI::detail::format_help(out, sub->get_display_name(true), text.substr(0, text.find('\n')), column_width_);
    return out.str();
  }
};

void add_common_options(CLI::App& cmd, CommonOptions& common, const CommandDef& def) {
  const bool local = def.reach == Reach::local;
  const std::string group = "Common options";
  cmd.add_option("--daemon", common.daemon,
                 local ? "accepted, not used: this command runs here without a daemon"
                       : "the daemon to use (default " + std::string(default_daemon_url) + ", started here if none answers)")
      ->envname("FLAKESCAN_DAEMON")
      ->type_name("URL")
      ->group(group);
  cmd.add_flag("--keep-daemon", common.keep_daemon,
               local ? "accepted, not used: this command starts no daemon" : "leave a daemon started here running (without it, the daemon stops by itself " + std::to_string(daemon_idle_seconds) + " s after its last client)")
      ->group(group);
  cmd.add_flag("--json", common.json,
               def.json_help.empty() ? "print the machine-readable result on stdout instead of the text" : def.json_help)
      ->group(group);
  cmd.add_flag("--quiet", common.quiet,
               def.quiet_help.empty() ? "no progress or status lines on stderr (errors still print)" : def.quiet_help)
      ->group(group);
}

std::string command_path(const CLI::App* app) {
  std::string path = app->get_name();
  for (const CLI::App* p = app->get_parent(); p; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

// Parses `args` into `app`; errors are worded for `program` unless a subcommand was chosen.
std::optional<int> parse_into(CLI::App& app, const Args& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 reads from the back
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    out << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    auto chosen = app.get_subcommands();
    const CLI::App* where = chosen.empty() ? &app : chosen.front();
    // An unknown option explains a missing required one (a misspelt name): it goes first.
    if (auto extras = where->remaining(); !extras.empty() && dynamic_cast<const CLI::RequiredError*>(&e)) {
      return usage_error(err, command_path(where), extras_message(extras, where == &app));
    }
    return usage_error(err, command_path(where), describe(e));
  }
  return std::nullopt;
}

}  // namespace

CommandLine::CommandLine(const std::vector<CommandDef>& commands, std::string version)
    : app_(std::make_unique<CLI::App>("flakescan finds flaky tests: it reruns them and explores their orders and\n"
                                      "schedules through the daemon (flakescand), and reports what it found.",
                                      "flakescan")) {
  app_->formatter(std::make_shared<Formatter>());
  app_->get_formatter()->column_width(help_column);
  app_->set_version_flag("--version", "flakescan " + version, "print the version and exit");
  app_->require_subcommand(0, 1);
  app_->allow_extras();
  app_->footer("`flakescan COMMAND --help` describes a command's options (also `flakescan help COMMAND`).\n"
               "`flakescan completion bash` prints a bash completion script.");
  for (const auto& def : commands) {
    auto entry = std::make_unique<Entry>();
    CLI::App* cmd = app_->add_subcommand(def.name, def.summary);
    cmd->allow_extras();  // unknown arguments are reported by parse() in one wording
    entry->command = def.define(*cmd);
    if (const std::string more = cmd->get_description(); more != def.summary) cmd->description(def.summary + "\n" + more);
    if (def.reach != Reach::none) add_common_options(*cmd, entry->common, def);
    entries_.emplace(def.name, std::move(entry));
  }
}

CommandLine::~CommandLine() = default;

std::optional<int> CommandLine::parse(const Args& given, std::ostream& out, std::ostream& err) {
  chosen_.clear();
  Args args = given;
  if (args.empty()) {
    err << app_->help();
    return 2;
  }
  if (args.front() == "help") {  // `flakescan help [COMMAND]`
    args.erase(args.begin());
    args.push_back("--help");
  }
  if (auto done = parse_into(*app_, args, out, err)) return done;
  auto chosen = app_->get_subcommands();
  if (chosen.empty()) {
    auto extras = app_->remaining();
    return usage_error(err, "flakescan", extras.empty() ? "name a command" : extras_message(extras, true));
  }
  CLI::App* cmd = chosen.front();
  const std::string program = command_path(cmd);
  if (auto extras = cmd->remaining(); !extras.empty()) return usage_error(err, program, extras_message(extras, false));
  const Entry& entry = *entries_.at(cmd->get_name());
  if (entry.command.check) {
    if (auto problem = entry.command.check(entry.common); !problem.empty()) return usage_error(err, program, problem);
  }
  chosen_ = cmd->get_name();
  return std::nullopt;
}

int CommandLine::run() {
  const Entry& entry = *entries_.at(chosen_);
  return entry.command.run(entry.common);
}

const CommonOptions& CommandLine::common() const { return entries_.at(chosen_)->common; }

int run_command_line(const std::vector<CommandDef>& commands, const Args& args, std::string version) {
  CommandLine line(commands, std::move(version));
  if (auto done = line.parse(args, std::cout, std::cerr)) return *done;
  std::cout.flush();
  return line.run();
}

std::optional<int> parse_single(CLI::App& app, const Args& args, std::ostream& out, std::ostream& err) {
  app.get_formatter()->column_width(help_column);
  app.allow_extras();
  if (auto done = parse_into(app, args, out, err)) return done;
  if (auto extras = app.remaining(); !extras.empty()) return usage_error(err, app.get_name(), extras_message(extras, false));
  return std::nullopt;
}

int usage_error(std::ostream& err, std::string_view program, const std::string& message) {
  err << program << ": " << message << "\nRun `" << program << " --help` for help.\n";
  err.flush();
  return 2;
}

std::string bash_completion(const CLI::App& root) {
  const std::string name = root.get_name();
  std::string fn = "_" + name;
  for (char& c : fn) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  std::string commands, cases;
  for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; })) {
    commands += (commands.empty() ? "" : " ") + sub->get_name();
    std::string options, with_value;
    for (const CLI::Option* opt : sub->get_options()) {
      if (!opt->nonpositional()) continue;
      for (const auto& l : opt->get_lnames()) {
        options += " --" + l;
        if (opt->get_items_expected_max() > 0) with_value += " --" + l;
      }
      for (const auto& s : opt->get_snames()) options += " -" + s;
    }
    cases += "    " + sub->get_name() + ") options=\"" + options.substr(options.empty() ? 0 : 1) + "\"; with_value=\"" +
             with_value.substr(with_value.empty() ? 0 : 1) + "\" ;;\n";
  }
  return "# bash completion for " + name + ", generated by `" + name + " completion bash` from its parser.\n" +
         "# Use: source <(" + name + " completion bash), or save it in ~/.local/share/bash-completion/completions/" + name +
         "\n" + fn + "() {\n" +
         "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n" +
         "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n" +
         "    mapfile -t COMPREPLY < <(compgen -W \"" + commands + " help --help --version\" -- \"$cur\")\n" +
         "    return\n" +
         "  fi\n" +
         "  local options=\"\" with_value=\"\"\n" +
         "  case \"${COMP_WORDS[1]}\" in\n" + cases +
         "    help) mapfile -t COMPREPLY < <(compgen -W \"" + commands + "\" -- \"$cur\"); return ;;\n" +
         "  esac\n" +
         "  # after an option that takes a value, and for positional arguments: file names\n" +
         "  if [[ \" $with_value \" == *\" $prev \"* || \"$cur\" != -* ]]; then\n" +
         "    mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n" +
         "  else\n" +
         "    mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")\n" +
         "  fi\n" +
         "}\n" +
         "complete -o filenames -F " + fn + " " + name + "\n";
}

std::unique_ptr<DaemonConnection> open_daemon(std::string_view command, const CommonOptions& common) {
  auto conn = DaemonConnection::open(common.daemon, common.keep_daemon, common.quiet);
  if (!conn) {
    std::cerr << "flakescan " << command << ": could not run: " << conn.error().message << "\n";
    return nullptr;
  }
  return std::move(*conn);
}

}  // namespace flakescan::app
