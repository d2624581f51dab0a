#pragma once
// JUnit XML test reports from CI runs (Surefire/Failsafe `TEST-*.xml`, Gradle's
// `build/test-results/**/TEST-*.xml`, AGP's) -> one record per test, for the CI history
// behind POST /v1/results. A pure function over the document's text: no I/O, no logging.
//
// What is read, and nothing else:
//
//   <testsuites>                          optional wrapper; suites (and wrappers) may nest
//     <testsuite name="pkg.Class">
//       <testcase classname="pkg.Class" name="method[1]" time="0.012">
//         <failure message="..." type="...">stack</failure>     or <error>, or <skipped/>
//         <flakyFailure message="..."/>   Surefire rerunFailingTestsCount: failed attempts of
//         <flakyError .../>               a test that passed at last
//         <rerunFailure .../>             ... and of a test that failed every attempt
//         <rerunError .../>               (after its first <failure>/<error>)
//       </testcase>
//
// A test that appears several times in one document (Gradle's test-retry plugin writes one
// <testcase> per execution) becomes one record: it passed if any execution passed, and the
// failed executions count as failed attempts.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::report {

// The largest document accepted (also POST /v1/results' body limit); larger is too_large.
inline constexpr std::size_t max_junit_report_bytes = 16u << 20;
// Deeper element nesting than this is refused before parsing (the XML parser recurses).
inline constexpr int max_junit_nesting = 32;
// Failure messages are cut to this many bytes (at a UTF-8 boundary).
inline constexpr std::size_t max_junit_message_bytes = 1000;

enum class ImportedOutcome { pass, fail, error, skipped };
std::string_view imported_outcome_name(ImportedOutcome outcome);

struct ImportedResult {
  std::string test;         // "pkg.Class#method" as flakescan spells ids (see import_test_id)
  ImportedOutcome outcome = ImportedOutcome::pass;
  double duration_ms = 0;   // of the execution that decided the outcome (a retried test's passing one)
  std::string message;      // first line of the (first) failure message; empty for passes
  int failed_attempts = 0;  // failed attempts before the final outcome (reruns/retries)

  bool flaky_by_rerun() const { return outcome == ImportedOutcome::pass && failed_attempts > 0; }
};

struct JunitImport {
  std::vector<ImportedResult> results;  // in document order of each test's first appearance
  int testcases = 0;                    // <testcase> elements read
  int ignored = 0;                      // <testcase> elements without a name or class, skipped
};

// Parses one JUnit XML document. Errors: too_large (over max_bytes), invalid_argument
// (not well-formed XML, nested too deep, root not <testsuite>/<testsuites>, or no usable
// <testcase> at all).
util::Result<JunitImport> parse_junit_xml(std::string_view xml, std::size_t max_bytes = max_junit_report_bytes);

// "pkg.Class" + "method(String, int)[2]" -> "pkg.Class#method[2]": parameter type lists that
// JUnit 5 reports put after the method name are dropped so the id is one `flakescan scan`
// takes; anything else is kept as the report wrote it.
std::string import_test_id(std::string_view class_name, std::string_view name);

}  // namespace flakescan::report
