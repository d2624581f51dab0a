#include <set>

#include "report/report.hpp"

namespace flakescan::report {

namespace {

std::string bare(const std::string& method) {
  auto cut = method.find_first_of("[(");
  return cut == std::string::npos ? method : method.substr(0, cut);
}

}  // namespace

std::string render_quarantine_txt(const Report& report) {
  // AndroidJUnitRunner's -e notTestFile reads one "pkg.Class#method" per line; a
  // parameterised test is quarantined as a whole method.
  std::set<std::string> lines;
  for (const auto& le : report.entries)
    if (le.entry.verdict.verdict == core::VerdictKind::flaky)
      lines.insert(le.entry.class_name + "#" + bare(le.entry.method));
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string render_quarantine_gradle(const Report& report) {
  std::set<std::string> patterns;
  for (const auto& le : report.entries) {
    if (le.entry.verdict.verdict != core::VerdictKind::flaky) continue;
    const std::string m = bare(le.entry.method);
    patterns.insert(le.entry.class_name + "." + m);
    if (m != le.entry.method) patterns.insert(le.entry.class_name + "." + m + "[*");
  }
  std::string out =
      "// Quarantine of flaky tests found by flakescan (scan " + report.scan.id + ").\n"
      "// Apply from a build script: apply from: 'build/reports/flakescan/quarantine.gradle'\n"
      "// Test filter excludes need Gradle 5.0+ (TestFilter.excludeTestsMatching); older Gradle\n"
      "// versions log a warning and run every test.\n"
      "def flakescanQuarantine = [\n";
  for (const auto& p : patterns) {
    std::string quoted;
    for (char c : p) {
      if (c == '\\' || c == '\'') quoted += '\\';
      quoted += c;
    }
    out += "    '" + quoted + "',\n";
  }
  out +=
      "]\n"
      "tasks.withType(Test) { testTask ->\n"
      "    if (testTask.filter.metaClass.respondsTo(testTask.filter, 'excludeTestsMatching', String)) {\n"
      "        flakescanQuarantine.each { testTask.filter.excludeTestsMatching(it) }\n"
      "    } else if (!flakescanQuarantine.isEmpty()) {\n"
      "        logger.warn(\"flakescan: Gradle ${gradle.gradleVersion} cannot exclude single tests; quarantine not applied to ${testTask.path}\")\n"
      "    }\n"
      "}\n";
  return out;
}

}  // namespace flakescan::report
