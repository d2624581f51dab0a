#pragma once
// Everything flakescan sends to a device shell is built here, from values that first pass
// a strict grammar and are then single-quoted. Nothing else in the backend concatenates
// user input into a shell command.
//
// Grammars (all ASCII):
//   package    [A-Za-z][A-Za-z0-9_]* ( "." [A-Za-z][A-Za-z0-9_]* )+        (Android's rule)
//   runner     Java binary name, optionally starting with "." (relative to the package)
//   test ids   core::TestId::parse (pkg.Class, pkg.Class#method, pkg.Class#method[params])
//   arg key    [A-Za-z][A-Za-z0-9_.-]*, not one flakescan sets itself (class, debug)
//   arg value  [A-Za-z0-9_.,:/=@+%#-]*  (no spaces, quotes, $, `, ;, |, &, <, >, \)
//   remote path /data/local/tmp/ followed by [A-Za-z0-9_.-]+
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.hpp"

namespace flakescan::backend::adb {

util::Result<void> check_package(std::string_view package);
util::Result<void> check_runner(std::string_view runner);
util::Result<void> check_arg(std::string_view key, std::string_view value);

// POSIX single quoting: 'it'\''s'.
std::string shell_quote(std::string_view word);

struct InstrumentArgs {
  std::string test_package;                                  // com.example.test
  std::string runner = "androidx.test.runner.AndroidJUnitRunner";
  std::vector<std::string> tests;                            // method or class ids
  std::vector<std::pair<std::string, std::string>> extra;    // -e key value
  bool debug = false;                                        // -e debug true
};

// "am instrument -w -r [-e debug true] [-e k v]... -e class 'a,b' 'pkg/runner'".
util::Result<std::string> instrument_command(const InstrumentArgs& args);
util::Result<std::string> clear_command(std::string_view package);            // pm clear
util::Result<std::string> install_command(std::string_view remote_apk_path);  // pm install -r -t
util::Result<std::string> remove_file_command(std::string_view remote_path);  // rm -f
util::Result<std::string> force_stop_command(std::string_view package);       // am force-stop
// `pidof PKG` (fallback `ps -A` parsing lives with the caller).
util::Result<std::string> pidof_command(std::string_view process);
util::Result<void> check_remote_tmp_path(std::string_view path);

}  // namespace flakescan::backend::adb
