// `flakescan completion bash`: a bash completion script generated from the parser itself, so
// it knows every command and option the binary does.
#include <cstdio>

#include <CLI/CLI.hpp>

#include "app/cli_commands.hpp"

namespace flakescan::app {

CommandDef completion_command() {
  return {
      .name = "completion",
      .summary = "print a shell completion script (bash) generated from this parser",
      .reach = Reach::none,
      .define =
          [](CLI::App& cmd) {
            auto shell = std::make_shared<std::string>();
            cmd.add_option("shell", *shell, "the shell: bash")->required()->check(CLI::IsMember({"bash"}));
            cmd.footer("Load it with `source <(flakescan completion bash)`, or save it as\n"
                       "~/.local/share/bash-completion/completions/flakescan.\n"
                       "Takes none of the common options (--daemon, --json, --quiet): it prints a script and asks nobody.\n"
                       "Exit status: 0 printed, 2 on usage errors.");
            const CLI::App* root = cmd.get_parent();
            return Command{.run = [shell, root](const CommonOptions&) {
              std::fputs(bash_completion(*root).c_str(), stdout);
              return 0;
            }};
          },
  };
}

}  // namespace flakescan::app
