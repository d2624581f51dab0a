#pragma once
// What every writer renders from: the verdict file with each test located in the sources.
// Writers are pure functions of a Report (no file system), so they are snapshot-tested.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/flaky_annotation.hpp"
#include "report/source_locator.hpp"
#include "report/verdict_file.hpp"

namespace flakescan::report {

struct LocatedEntry {
  Entry entry;
  std::optional<SourceLocation> where;  // nullopt: no source root holds the class
  std::string path;  // where->file relative to the base dir, '/'-separated; empty when unknown
};

struct Report {
  ScanInfo scan;
  std::vector<LocatedEntry> entries;
  std::string tool_version;
};

// Locates every entry; paths are made relative to base_dir (the repository root in CI, the
// project directory for Gradle) when the file lies under it, else kept as found.
Report locate_all(const VerdictFile& file, SourceLocator& locator, const std::filesystem::path& base_dir,
                  std::string tool_version);

std::size_t count_kind(const Report& report, core::VerdictKind kind);

// sarif.cpp: SARIF 2.1.0 log, one result per flaky or could-not-run test; the result of a test
// with a verified repair carries it as fixes[] (its patch's hunks as replacements, unified_diff.hpp).
std::string render_sarif(const Report& report);
// github.cpp: workflow commands, one per flaky (warning) or could-not-run (notice) test,
// each on the test's file and line; titles cut at 255 bytes, messages at 65535.
std::string render_annotations(const Report& report);
// html_sections.cpp: index.html, self-contained (inline CSS and SVG, no script, nothing
// fetched): the summary, a section per test with its pictures (report/html.hpp).
std::string render_html(const Report& report);
// summary.cpp: the Markdown summary (summary.md and the GitHub job summary).
std::string render_summary(const Report& report);
// junit_xml.cpp: file name ("TEST-pkg.Class.xml") -> Surefire-style JUnit XML, one file per class.
std::map<std::string, std::string> render_junit(const Report& report);
// quarantine.cpp: AndroidJUnitRunner notTestFile lines, and a Gradle script of test excludes.
std::string render_quarantine_txt(const Report& report);
std::string render_quarantine_gradle(const Report& report);
// flaky_patch.cpp: unified diff marking each flaky test found in the sources with the
// annotation flaky_annotation.hpp chooses (AndroidX @FlakyTest(detail = "..."), JUnit 5
// @Tag("flaky"), JUnit 4 @Category(FlakyTests.class) plus the marker interface as a new
// file, or the user's), and its import; empty when there is none to add.
std::string render_flaky_patch(const Report& report, SourceLocator& locator, const PatchOptions& options = {});
// repairs_patch.cpp: the first finding with a verified patch (details patch, patch_file,
// verified_by_run: technique `repair`, with polluted_field, cleaner, repair; or `shuffle`, with
// fix, fix_kind), else the first of technique `repair`; nullopt when the verdict has none.
std::optional<core::Finding> repair_finding(const core::Verdict& v);
// repairs_patch.cpp: flakescan-repairs.patch, every entry's verified repair patch (details
// "patch", present only when the repair compiled and made the test pass) in entry order, the
// same text once; empty when there is none.
std::string render_repairs_patch(const Report& report);

}  // namespace flakescan::report
