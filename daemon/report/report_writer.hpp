#pragma once
// Writes every report file of one scan into a directory (the `flakescan report` command,
// called by the Gradle plugin and the CI action). Files written:
//   verdicts.json  flakescan.sarif  summary.md  index.html  junit/TEST-<class>.xml
//   quarantine.txt  quarantine.gradle  flakytest-suggestions.patch  flakescan-repairs.patch
// (a patch with nothing to change is written empty, as quarantine.txt with no flaky test).
// Each file is written to a temporary name and renamed, so a reader never sees half a file;
// junit/ is emptied of earlier TEST-*.xml first so removed tests do not linger.
#include <filesystem>
#include <string>
#include <vector>

#include "report/report.hpp"
#include "util/error.hpp"

namespace flakescan::report {

struct ReportOptions {
  std::vector<std::string> verdict_files;          // merged when more than one
  std::filesystem::path out_dir;
  std::vector<std::filesystem::path> source_roots;
  std::filesystem::path base_dir;                  // paths in SARIF, annotations and the patch
  std::string tool_version;
  std::vector<std::string> classpath;  // the tests' classpath (':'-separated entries), for the patch
  std::string flaky_annotation;        // PatchOptions::flaky_annotation
  std::string flaky_category;          // PatchOptions::category_class
};

struct ReportOutcome {
  Report report;
  std::vector<std::filesystem::path> written;
};

util::Result<ReportOutcome> write_reports(const ReportOptions& options);

}  // namespace flakescan::report
