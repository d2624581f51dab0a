// parse_unified_diff: the hunks of a unified diff as the replacements a SARIF fix carries.
#include <catch2/catch.hpp>

#include "report/unified_diff.hpp"

using namespace flakescan::report;

TEST_CASE("a pure insertion goes in front of the old line it precedes", "[report][diff]") {
  const std::string diff =
      "--- a/src/test/java/a/VictimTest.java\n"
      "+++ b/src/test/java/a/VictimTest.java\n"
      "@@ -8,6 +8,7 @@\n"
      " public class VictimTest {\n"
      "     @Test\n"
      "     public void startsEmpty() {\n"
      "+        a.Registry.clearAll();\n"
      "         assertTrue(Registry.NAMES.isEmpty());\n"
      "     }\n"
      " }\n";
  auto files = parse_unified_diff(diff);
  REQUIRE(files);
  REQUIRE(files->size() == 1);
  const auto& f = files->front();
  CHECK(f.old_path == "src/test/java/a/VictimTest.java");
  CHECK(f.path() == "src/test/java/a/VictimTest.java");
  REQUIRE(f.replacements.size() == 1);
  CHECK(f.replacements[0].start_line == 11);
  CHECK(f.replacements[0].deleted_lines == 0);
  CHECK(f.replacements[0].inserted == "        a.Registry.clearAll();\n");
}

TEST_CASE("deletions and changes give the old lines they replace, hunk by hunk and file by file", "[report][diff]") {
  const std::string diff =
      "diff --git a/one.txt b/one.txt\n"
      "index 1111111..2222222 100644\n"
      "--- a/one.txt\t2024-01-01 00:00:00\n"
      "+++ b/one.txt\t2024-01-01 00:00:01\n"
      "@@ -1,4 +1,3 @@\n"
      " a\n"
      "-b\n"
      "-c\n"
      "+B\n"
      " d\n"
      "@@ -10,3 +9,2 @@ heading text\n"
      " x\n"
      "-y\n"
      " z\n"
      "--- a/two.txt\n"
      "+++ b/two.txt\n"
      "@@ -0,0 +1,2 @@\n"
      "+first\n"
      "+second\n"
      "@@ -5 +7,2 @@\n"
      "--- dashes\n"
      "+++ pluses\n"
      "+tail\n"
      "\\ No newline at end of file\n";
  auto files = parse_unified_diff(diff);
  REQUIRE(files);
  REQUIRE(files->size() == 2);
  const auto& one = (*files)[0];
  CHECK(one.path() == "one.txt");
  REQUIRE(one.replacements.size() == 2);
  CHECK(one.replacements[0].start_line == 2);
  CHECK(one.replacements[0].deleted_lines == 2);
  CHECK(one.replacements[0].inserted == "B\n");
  CHECK(one.replacements[1].start_line == 11);
  CHECK(one.replacements[1].deleted_lines == 1);
  CHECK(one.replacements[1].inserted.empty());
  const auto& two = (*files)[1];
  REQUIRE(two.replacements.size() == 2);
  CHECK(two.replacements[0].start_line == 1);  // "-0,0": in front of line 1
  CHECK(two.replacements[0].deleted_lines == 0);
  CHECK(two.replacements[0].inserted == "first\nsecond\n");
  // Lines that look like file headers are hunk lines while the header's counts last.
  CHECK(two.replacements[1].start_line == 5);
  CHECK(two.replacements[1].deleted_lines == 1);
  CHECK(two.replacements[1].inserted == "++ pluses\ntail");
}

TEST_CASE("new and deleted files keep /dev/null on their missing side", "[report][diff]") {
  auto files = parse_unified_diff("--- /dev/null\n+++ b/src/FlakyTests.java\n@@ -0,0 +1,1 @@\n+interface FlakyTests {}\n"
                                  "--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n");
  REQUIRE(files);
  REQUIRE(files->size() == 2);
  CHECK((*files)[0].old_path == "/dev/null");
  CHECK((*files)[0].path() == "src/FlakyTests.java");
  CHECK((*files)[1].path() == "gone.txt");
  REQUIRE((*files)[1].replacements.size() == 1);
  CHECK((*files)[1].replacements[0].start_line == 1);
  CHECK((*files)[1].replacements[0].deleted_lines == 2);
}

TEST_CASE("a diff that does not add up is refused", "[report][diff]") {
  CHECK(parse_unified_diff("").value().empty());
  CHECK(parse_unified_diff("no diff here\n").value().empty());
  CHECK_FALSE(parse_unified_diff("@@ -1 +1 @@\n-a\n+b\n"));                       // no file header
  CHECK_FALSE(parse_unified_diff("--- a/f\n+++ b/f\n@@ -1,x +1 @@\n-a\n+b\n"));    // bad header
  CHECK_FALSE(parse_unified_diff("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n"));      // ends early
  CHECK_FALSE(parse_unified_diff("--- a/f\n+++ b/f\n@@ -1,1 +1,2 @@\n a\n b\n"));  // more context than counted
  CHECK_FALSE(parse_unified_diff("--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n?a\n"));      // not a hunk line
}
