// flakescan-repairs.patch (render_repairs_patch) and the repair in the HTML report, from
// tests/fixtures/report/verdicts_repair.json: a victim whose repair was verified (a patch),
// a NIO test with no method to reset its field (no patch) and a test that is not flaky.
#include <catch2/catch.hpp>

#include "support/text.hpp"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "report/html.hpp"
#include "report_fixture.hpp"

using namespace flakescan;
using namespace flakescan::report;
namespace fs = std::filesystem;

namespace {

constexpr const char* victim_file = "examples/jvm-repair/src/test/java/example/repair/RegistryVictimTest.java";

fs::path repair_project() { return testing::fixture_dir() / "repair-project"; }

Report repair_report() {
  SourceLocator locator({repair_project() / "examples/jvm-repair/src/test/java"});
  auto file = load_verdict_file((testing::fixture_dir() / "verdicts_repair.json").string());
  REQUIRE(file);
  return locate_all(*file, locator, repair_project(), "0.1.0");
}

using flakescan::text_checks::count_of;
}  // namespace

TEST_CASE("the repairs patch holds each verified patch once, in entry order", "[report][repair]") {
  const Report r = repair_report();
  const std::string patch = render_repairs_patch(r);
  auto victim = repair_finding(r.entries[0].entry.verdict);
  REQUIRE(victim);
  CHECK(patch == victim->evidence.details.at("patch"));
  CHECK(patch.starts_with(std::string("--- a/") + victim_file + "\n+++ b/" + victim_file + "\n"));
  CHECK(count_of(patch, "+        example.repair.app.Registry.clearAll();\n") == 1);
  // The NIO test has a finding of repair without a patch: nothing of it is in the file.
  auto nio = repair_finding(r.entries[1].entry.verdict);
  REQUIRE(nio);
  CHECK_FALSE(nio->evidence.details.contains("patch"));
  CHECK(patch.find("TicketCounter") == std::string::npos);
  CHECK_FALSE(repair_finding(r.entries[2].entry.verdict));

  // A second entry with the same patch (the same test of another scan) adds nothing; one
  // without a final newline gets one, so what follows still starts on its own line.
  Report twice = r;
  twice.entries.push_back(r.entries[0]);
  LocatedEntry other = r.entries[0];
  core::Finding f = *victim;
  f.evidence.details["patch"] = "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1,2 @@\n a\n+b";
  other.entry.verdict.findings = {f};
  twice.entries.push_back(other);
  CHECK(render_repairs_patch(twice) == patch + "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1,2 @@\n a\n+b\n");
}

TEST_CASE("no verified repair: the repairs patch is empty", "[report][repair]") {
  Report r = repair_report();
  r.entries.erase(r.entries.begin());
  CHECK(render_repairs_patch(r).empty());
  CHECK(render_repairs_patch(Report{}).empty());
}

TEST_CASE("the repairs patch applies to the sources with git apply and inserts the cleaner", "[report][repair]") {
  const std::string patch = render_repairs_patch(repair_report());
  const fs::path work = fs::temp_directory_path() / ("flakescan_repairs_apply_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(repair_project(), work, fs::copy_options::recursive);
  std::ofstream(work / "flakescan-repairs.patch", std::ios::binary) << patch;
  const std::string cd = "cd '" + work.string() + "' && ";
  CHECK(std::system((cd + "git apply --check flakescan-repairs.patch").c_str()) == 0);
  REQUIRE(std::system((cd + "git apply flakescan-repairs.patch").c_str()) == 0);
  const std::string source = testing::read_text(work / victim_file);
  CHECK(source.find("    public void startsEmpty() {\n"
                    "        example.repair.app.Registry.clearAll();\n"
                    "        assertTrue(Registry.NAMES.isEmpty());\n") != std::string::npos);
  // patch(1) reads it as well (the Gradle docs apply patches with patch -p1).
  CHECK(std::system((cd + "patch -p1 -R --dry-run --quiet < flakescan-repairs.patch").c_str()) == 0);
  fs::remove_all(work);
}

TEST_CASE("the HTML report shows the repair: field, cleaner and patch, or why there is none", "[report][repair][html]") {
  const Report r = repair_report();
  const std::string victim = html::test_section_html(r.entries[0], 0, {});
  CHECK(victim.find("<h4>Repair</h4>") != std::string::npos);
  CHECK(victim.find("Polluted field: <code>example.repair.app.Registry.NAMES</code>") != std::string::npos);
  CHECK(victim.find("<pre><code>example.repair.app.Registry.clearAll();</code></pre>") != std::string::npos);
  CHECK(victim.find("verified by run 42") != std::string::npos);
  CHECK(victim.find("<pre class=\"patch\">--- a/examples/jvm-repair/") != std::string::npos);
  CHECK(victim.find("+        example.repair.app.Registry.clearAll();\n") != std::string::npos);
  CHECK(victim.find("No patch") == std::string::npos);

  const std::string nio = html::test_section_html(r.entries[1], 1, {});
  CHECK(nio.find("<h4>Repair</h4>") != std::string::npos);
  CHECK(nio.find("No patch: no method on the classpath resets example.repair.app.TicketCounter.issued") != std::string::npos);
  CHECK(nio.find("class=\"patch\"") == std::string::npos);

  CHECK(html::test_section_html(r.entries[2], 2, {}).find("Repair") == std::string::npos);

  // Text from the verdict file is escaped in the patch as everywhere.
  LocatedEntry hostile = r.entries[0];
  for (auto& f : hostile.entry.verdict.findings)
    if (f.technique == "repair") f.evidence.details["patch"] = "--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+</pre><script>x()</script>\n";
  const std::string page = html::test_section_html(hostile, 0, {});
  CHECK(page.find("<script>") == std::string::npos);
  CHECK(page.find("&lt;/pre&gt;&lt;script&gt;") != std::string::npos);
}

TEST_CASE("two repairs in one file apply together, each diff made against the original", "[report][repair]") {
  // `repair` diffs each victim against the unchanged source; git apply takes the second
  // section of the same file at its offset.
  const std::string source = "class T {\n  void a() {\n    x();\n  }\n  void b() {\n    y();\n  }\n}\n";
  Report r;
  for (auto [method, patch] : {std::pair{"a", "--- a/T.java\n+++ b/T.java\n@@ -1,5 +1,6 @@\n class T {\n   void a() {\n+    ca();\n"
                                              "     x();\n   }\n   void b() {\n"},
                               std::pair{"b", "--- a/T.java\n+++ b/T.java\n@@ -3,6 +3,7 @@\n     x();\n   }\n   void b() {\n+    cb();\n"
                                              "     y();\n   }\n }\n"}}) {
    LocatedEntry le;
    le.entry.verdict.test = std::string("T#") + method;
    le.entry.verdict.verdict = core::VerdictKind::flaky;
    core::Finding f;
    f.technique = "repair";
    f.verdict = core::VerdictKind::flaky;
    f.evidence.details["patch"] = patch;
    le.entry.verdict.findings = {f};
    r.entries.push_back(le);
  }
  const fs::path work = fs::temp_directory_path() / ("flakescan_repairs_two_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  std::ofstream(work / "T.java", std::ios::binary) << source;
  std::ofstream(work / "repairs.patch", std::ios::binary) << render_repairs_patch(r);
  REQUIRE(std::system(("cd '" + work.string() + "' && git apply --check repairs.patch && git apply repairs.patch").c_str()) == 0);
  CHECK(testing::read_text(work / "T.java") == "class T {\n  void a() {\n    ca();\n    x();\n  }\n  void b() {\n    cb();\n    y();\n  }\n}\n");
  fs::remove_all(work);
}
