// Snapshot tests: the rendered annotations, summary and every other report of the fixture
// verdict files, compared byte for byte with tests/fixtures/report/expected/. After an
// intended change, regenerate with FLAKESCAN_UPDATE_SNAPSHOTS=1 and review the diff.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "report_fixture.hpp"

using namespace flakescan::report;
namespace fs = std::filesystem;

TEST_CASE("snapshots of the mixed verdict file", "[report][snapshot]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  testing::check_snapshot("mixed/annotations.txt", render_annotations(r));
  testing::check_snapshot("mixed/summary.md", render_summary(r));
  testing::check_snapshot("mixed/flakescan.sarif", render_sarif(r));
  testing::check_snapshot("mixed/quarantine.txt", render_quarantine_txt(r));
  testing::check_snapshot("mixed/quarantine.gradle", render_quarantine_gradle(r));
  testing::check_snapshot("mixed/flakytest-suggestions.patch", render_flaky_patch(r, locator));
  for (const auto& [name, xml] : render_junit(r)) testing::check_snapshot("mixed/junit/" + name, xml);
}

TEST_CASE("snapshots of a scan without flaky tests", "[report][snapshot]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_clean.json", locator);
  testing::check_snapshot("clean/annotations.txt", render_annotations(r));
  testing::check_snapshot("clean/summary.md", render_summary(r));
}
