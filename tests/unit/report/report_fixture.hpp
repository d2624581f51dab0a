#pragma once
// Shared set-up of the report tests: the fixture verdict files and sample project in
// tests/fixtures/report/.
#include <catch2/catch.hpp>

#include <cstdlib>
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

// Compares `actual` byte for byte with tests/fixtures/report/expected/NAME; with
// FLAKESCAN_UPDATE_SNAPSHOTS=1 writes it there first (review the diff).
inline void check_snapshot(const std::string& name, const std::string& actual) {
  const std::filesystem::path path = fixture_dir() / "expected" / name;
  if (const char* u = std::getenv("FLAKESCAN_UPDATE_SNAPSHOTS"); u && std::string(u) == "1") {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
  }
  INFO("snapshot " << path.string());
  REQUIRE(std::filesystem::exists(path));
  CHECK(read_text(path) == actual);
}

}  // namespace flakescan::report::testing
