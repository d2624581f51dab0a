#pragma once
// Shared set-up of the report tests: the fixture verdict files and sample project in
// tests/fixtures/report/.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "report/report.hpp"

namespace flakescan::report::testing {

inline std::filesystem::path fixture_dir() { return std::filesystem::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/report"; }
inline std::filesystem::path project_dir() { return fixture_dir() / "project"; }

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

inline SourceLocator fixture_locator() {
  return SourceLocator({project_dir() / "src/test/java", project_dir() / "src/test/kotlin"});
}

// Loads a fixture verdict file and locates it against the sample project.
inline Report fixture_report(const std::string& name, SourceLocator& locator) {
  auto file = load_verdict_file((fixture_dir() / name).string());
  if (!file) throw std::runtime_error(file.error().message);
  return locate_all(*file, locator, project_dir(), "0.1.0");
}

}  // namespace flakescan::report::testing
