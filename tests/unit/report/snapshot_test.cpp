// Snapshot tests: the rendered annotations, summary and every other report of the fixture
// verdict files, compared byte for byte with tests/fixtures/report/expected/. After an
// intended change, regenerate with FLAKESCAN_UPDATE_SNAPSHOTS=1 and review the diff.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "report_fixture.hpp"

using namespace flakescan::report;
namespace fs = std::filesystem;

namespace {

void check_snapshot(const std::string& name, const std::string& actual) {
  const fs::path path = testing::fixture_dir() / "expected" / name;
  if (const char* u = std::getenv("FLAKESCAN_UPDATE_SNAPSHOTS"); u && std::string(u) == "1") {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << actual;
  }
  INFO("snapshot " << path.string());
  REQUIRE(fs::exists(path));
  CHECK(testing::read_text(path) == actual);
}

}  // namespace

TEST_CASE("snapshots of the mixed verdict file", "[report][snapshot]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  check_snapshot("mixed/annotations.txt", render_annotations(r));
  check_snapshot("mixed/summary.md", render_summary(r));
  check_snapshot("mixed/flakescan.sarif", render_sarif(r));
  check_snapshot("mixed/quarantine.txt", render_quarantine_txt(r));
  check_snapshot("mixed/quarantine.gradle", render_quarantine_gradle(r));
  check_snapshot("mixed/flakytest-suggestions.patch", render_flaky_patch(r, locator));
  for (const auto& [name, xml] : render_junit(r)) check_snapshot("mixed/junit/" + name, xml);
}

TEST_CASE("snapshots of a scan without flaky tests", "[report][snapshot]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_clean.json", locator);
  check_snapshot("clean/annotations.txt", render_annotations(r));
  check_snapshot("clean/summary.md", render_summary(r));
}
