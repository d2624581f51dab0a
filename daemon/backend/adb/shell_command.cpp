#include "backend/adb/shell_command.hpp"

#include "core/test_id.hpp"

namespace flakescan::backend::adb {

using util::Errc;
using util::fail;

namespace {

bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

util::Result<void> refuse(std::string_view what, std::string_view value) {
  return fail(Errc::invalid_argument, "refused " + std::string(what) + " (not in the allowed grammar): '" + std::string(value) + "'");
}

}  // namespace

util::Result<void> check_package(std::string_view package) {
  if (package.empty() || package.size() > 255) return refuse("package name", package);
  int segments = 0;
  bool at_start = true;
  for (char c : package) {
    if (c == '.') {
      if (at_start) return refuse("package name", package);
      at_start = true;
    } else if (at_start ? alpha(c) : (alpha(c) || digit(c) || c == '_')) {
      if (at_start) ++segments;
      at_start = false;
    } else {
      return refuse("package name", package);
    }
  }
  if (at_start || segments < 2) return refuse("package name", package);
  return {};
}

util::Result<void> check_runner(std::string_view runner) {
  std::string_view name = runner.starts_with('.') ? runner.substr(1) : runner;
  auto id = core::TestId::parse(name);
  if (!id || !id->is_class()) return refuse("runner class", runner);
  return {};
}

util::Result<void> check_arg(std::string_view key, std::string_view value) {
  if (key.empty() || key.size() > 128 || !alpha(key[0])) return refuse("instrumentation argument name", key);
  for (char c : key)
    if (!(alpha(c) || digit(c) || c == '_' || c == '.' || c == '-')) return refuse("instrumentation argument name", key);
  if (key == "class" || key == "debug")
    return fail(Errc::invalid_argument, "instrumentation argument '" + std::string(key) + "' is set by flakescan itself");
  if (value.size() > 1024) return refuse("instrumentation argument value", value);
  for (char c : value) {
    bool ok = alpha(c) || digit(c);
    for (char allowed : std::string_view("_.,:/=@+%#-")) ok = ok || c == allowed;
    if (!ok) return refuse("instrumentation argument value", value);
  }
  return {};
}

std::string shell_quote(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

util::Result<std::string> instrument_command(const InstrumentArgs& args) {
  if (auto r = check_package(args.test_package); !r) return std::unexpected(r.error());
  if (auto r = check_runner(args.runner); !r) return std::unexpected(r.error());
  if (args.tests.empty()) return fail(Errc::invalid_argument, "no tests to instrument");
  std::string classes;
  for (const auto& t : args.tests) {
    auto id = core::TestId::parse(t);
    if (!id) return fail(Errc::invalid_argument, "refused test id: " + id.error().message);
    if (!classes.empty()) classes += ",";
    classes += id->str();
  }
  std::string cmd = "am instrument -w -r";
  if (args.debug) cmd += " -e debug true";
  for (const auto& [k, v] : args.extra) {
    if (auto r = check_arg(k, v); !r) return std::unexpected(r.error());
    cmd += " -e " + shell_quote(k) + " " + shell_quote(v);
  }
  cmd += " -e class " + shell_quote(classes);
  cmd += " " + shell_quote(args.test_package + "/" + args.runner);
  return cmd;
}

util::Result<std::string> clear_command(std::string_view package) {
  if (auto r = check_package(package); !r) return std::unexpected(r.error());
  return "pm clear " + shell_quote(package);
}

util::Result<void> check_remote_tmp_path(std::string_view path) {
  constexpr std::string_view dir = "/data/local/tmp/";
  if (!path.starts_with(dir) || path.size() == dir.size() || path.size() > 255) return refuse("remote path", path);
  for (char c : path.substr(dir.size()))
    if (!(alpha(c) || digit(c) || c == '_' || c == '.' || c == '-')) return refuse("remote path", path);
  if (path.substr(dir.size()).starts_with('.')) return refuse("remote path", path);
  return {};
}

util::Result<std::string> install_command(std::string_view remote_apk_path) {
  if (auto r = check_remote_tmp_path(remote_apk_path); !r) return std::unexpected(r.error());
  return "pm install -r -t " + shell_quote(remote_apk_path);
}

util::Result<std::string> remove_file_command(std::string_view remote_path) {
  if (auto r = check_remote_tmp_path(remote_path); !r) return std::unexpected(r.error());
  return "rm -f " + shell_quote(remote_path);
}

util::Result<std::string> force_stop_command(std::string_view package) {
  if (auto r = check_package(package); !r) return std::unexpected(r.error());
  return "am force-stop " + shell_quote(package);
}

util::Result<std::string> pidof_command(std::string_view process) {
  // Process names are package names, optionally with ":suffix" for secondary processes.
  std::string_view pkg = process.substr(0, process.find(':'));
  if (auto r = check_package(pkg); !r) return std::unexpected(r.error());
  if (pkg.size() != process.size()) {
    for (char c : process.substr(pkg.size() + 1))
      if (!(alpha(c) || digit(c) || c == '_')) return std::unexpected(refuse("process name", process).error());
  }
  return "pidof " + shell_quote(process);
}

}  // namespace flakescan::backend::adb
