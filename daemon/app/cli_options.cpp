#include "app/cli_options.hpp"

namespace flakescan::app {

util::Result<ParsedOptions> parse_options(const Args& args, const std::set<std::string>& with_value,
                                          const std::set<std::string>& flags) {
  ParsedOptions out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!a.starts_with("--")) {
      out.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool inline_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    if (flags.contains(name) && !inline_value) {
      out.flags.insert(name);
    } else if (with_value.contains(name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) return util::fail(util::Errc::invalid_argument, "--" + name + " needs a value");
        value = args[++i];
      }
      out.values[name].push_back(value);
    } else {
      return util::fail(util::Errc::invalid_argument, "unknown option --" + name);
    }
  }
  return out;
}

}  // namespace flakescan::app
