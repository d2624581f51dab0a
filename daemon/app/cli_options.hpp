#pragma once
// Option parsing shared by the CLI commands: "--name value", "--name=value" and flags.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/cli_commands.hpp"
#include "util/error.hpp"

namespace flakescan::app {

struct ParsedOptions {
  std::map<std::string, std::vector<std::string>> values;  // option -> every value given
  std::set<std::string> flags;
  std::vector<std::string> positional;

  bool has(const std::string& name) const { return values.contains(name) || flags.contains(name); }
  std::string get(const std::string& name, const std::string& fallback = {}) const {
    auto it = values.find(name);
    return it == values.end() || it->second.empty() ? fallback : it->second.back();
  }
};

// `with_value` and `flags` are option names without the leading "--".
util::Result<ParsedOptions> parse_options(const Args& args, const std::set<std::string>& with_value,
                                          const std::set<std::string>& flags);

}  // namespace flakescan::app
