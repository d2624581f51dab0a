#pragma once
// The one version of flakescan (CMakeLists.txt: project(... VERSION ...)) and the commit it was
// built from, for `--version`, the API's health answer and the packages. The commit is read
// at build time (cmake/write_version.cmake), "unknown" outside a git checkout.
#include <string>
#include <string_view>

namespace flakescan::util {

std::string_view version();
std::string_view commit();
// "flakescan 0.2.0 (commit 1a2b3c4)"
std::string version_line(std::string_view program);

}  // namespace flakescan::util
