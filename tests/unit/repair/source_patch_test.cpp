// Statements at the start of a test method, as patched lines and a unified diff
// (repair/source_patch.hpp); the diff is checked with git apply on a real file.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "repair/source_patch.hpp"

using namespace flakescan;
using namespace flakescan::repair;
namespace fs = std::filesystem;

namespace {

using Work = flakescan::test_support::ScratchDir;
using flakescan::test_support::joined_lines;
using flakescan::test_support::read_text_file;
using flakescan::test_support::write_text_file;

const std::vector<std::string> victim_test{
    "package pkg;",
    "",
    "import org.junit.jupiter.api.Test;",
    "",
    "class VictimTest {",
    "    @Test",
    "    void countsNames() {",
    "        assertEquals(0, Registry.size());",
    "    }",
    "",
    "    @Test",
    "    void otherTest()",
    "    {",
    "        Registry.register(\"x\");",
    "    }",
    "",
    "    @Test",
    "    void oneLiner() { Registry.clearAll(); }",
    "}",
};





}  // namespace

TEST_CASE("insert_at_method_start: statements after the opening brace, one level deeper", "[repair][patch]") {
  auto patch = insert_at_method_start(victim_test, "countsNames", "src/test/java/pkg/VictimTest.java",
                                      "flakescan repair: reset pkg.Registry.NAMES", {"pkg.Registry.clearAll();"});
  if (!patch) FAIL(patch.error().message);
  REQUIRE(patch->lines.size() == victim_test.size() + 2);
  CHECK(patch->lines[6] == "    void countsNames() {");
  CHECK(patch->lines[7] == "        // flakescan repair: reset pkg.Registry.NAMES");
  CHECK(patch->lines[8] == "        pkg.Registry.clearAll();");
  CHECK(patch->lines[9] == "        assertEquals(0, Registry.size());");
  // Everything else is as it was.
  std::vector<std::string> without(patch->lines);
  without.erase(without.begin() + 7, without.begin() + 9);
  CHECK(without == victim_test);

  CHECK(patch->diff.starts_with("--- a/src/test/java/pkg/VictimTest.java\n+++ b/src/test/java/pkg/VictimTest.java\n"));
  CHECK(patch->diff.find("\n+        // flakescan repair: reset pkg.Registry.NAMES\n+        pkg.Registry.clearAll();\n") !=
        std::string::npos);
}

TEST_CASE("insert_at_method_start: several statements keep their order", "[repair][patch]") {
  auto patch = insert_at_method_start(victim_test, "countsNames", "VictimTest.java", "why", {"a();", "b();", "c();"});
  REQUIRE(patch);
  REQUIRE(patch->lines.size() == victim_test.size() + 4);
  CHECK(patch->lines[7] == "        // why");
  CHECK(patch->lines[8] == "        a();");
  CHECK(patch->lines[9] == "        b();");
  CHECK(patch->lines[10] == "        c();");
}

TEST_CASE("insert_at_method_start: the brace on the next line", "[repair][patch]") {
  auto patch = insert_at_method_start(victim_test, "otherTest", "VictimTest.java", "reset", {"pkg.Registry.clearAll();"});
  if (!patch) FAIL(patch.error().message);
  REQUIRE(patch->lines.size() == victim_test.size() + 2);
  CHECK(patch->lines[11] == "    void otherTest()");
  CHECK(patch->lines[12] == "    {");
  CHECK(patch->lines[13] == "        // reset");
  CHECK(patch->lines[14] == "        pkg.Registry.clearAll();");
  CHECK(patch->lines[15] == "        Registry.register(\"x\");");
}

TEST_CASE("insert_at_method_start: a parameter suffix on the method name is dropped", "[repair][patch]") {
  auto patch = insert_at_method_start(victim_test, "countsNames[1]", "VictimTest.java", "reset", {"x();"});
  if (!patch) FAIL(patch.error().message);
  CHECK(patch->lines[8] == "        x();");
}

TEST_CASE("insert_at_method_start: a deeper declaration indents deeper", "[repair][patch]") {
  const std::vector<std::string> nested{
      "class Outer {",
      "    static class Inner {",
      "        @Test",
      "        void deep() {",
      "            work();",
      "        }",
      "    }",
      "}",
  };
  auto patch = insert_at_method_start(nested, "deep", "Outer.java", "c", {"s();"});
  if (!patch) FAIL(patch.error().message);
  CHECK(patch->lines[4] == "            // c");
  CHECK(patch->lines[5] == "            s();");
}

TEST_CASE("insert_at_method_start: errors", "[repair][patch]") {
  SECTION("no such method") {
    auto patch = insert_at_method_start(victim_test, "missing", "VictimTest.java", "c", {"s();"});
    REQUIRE_FALSE(patch);
    CHECK(patch.error().code == util::Errc::not_found);
  }
  SECTION("a call is no declaration") {
    // register( appears only as a call in the file.
    auto patch = insert_at_method_start(victim_test, "register", "VictimTest.java", "c", {"s();"});
    REQUIRE_FALSE(patch);
    CHECK(patch.error().code == util::Errc::not_found);
  }
  SECTION("the body on one line") {
    auto patch = insert_at_method_start(victim_test, "oneLiner", "VictimTest.java", "c", {"s();"});
    REQUIRE_FALSE(patch);
    CHECK(patch.error().code == util::Errc::unsupported);
  }
  SECTION("void t() { x(); } alone") {
    auto patch = insert_at_method_start({"class A {", "  void t() { x(); }", "}"}, "t", "A.java", "c", {"s();"});
    REQUIRE_FALSE(patch);
    CHECK(patch.error().code == util::Errc::unsupported);
  }
  SECTION("no brace within 20 lines") {
    std::vector<std::string> lines{"interface A {", "  void t()"};
    for (int i = 0; i < 25; ++i) lines.push_back("      // " + std::to_string(i));
    lines.push_back("  ;");
    lines.push_back("}");
    auto patch = insert_at_method_start(lines, "t", "A.java", "c", {"s();"});
    REQUIRE_FALSE(patch);
    CHECK(patch.error().code == util::Errc::unsupported);
  }
}

TEST_CASE("insert_at_method_start: the diff applies with git apply -p1 and gives the patched lines", "[repair][patch]") {
  const std::string path = "src/test/java/pkg/VictimTest.java";
  auto method = GENERATE(as<std::string>{}, "countsNames", "otherTest");
  auto patch = insert_at_method_start(victim_test, method, path, "flakescan repair: reset pkg.Registry.NAMES",
                                      {"pkg.Registry.clearAll();", "pkg.Registry.register(\"a \\\"b\\\"\");"});
  if (!patch) FAIL(patch.error().message);
  INFO(patch->diff);

  Work work("source-patch-git-" + method);
  write_text_file(work.dir / path, joined_lines(victim_test));
  write_text_file(work.dir / "fix.patch", patch->diff);
  REQUIRE(work.run("git apply --check -p1 fix.patch") == 0);
  REQUIRE(work.run("git apply -p1 fix.patch") == 0);
  CHECK(read_text_file(work.dir / path) == joined_lines(patch->lines));
}

TEST_CASE("insert_at_method_start: the diff applies with patch -p1", "[repair][patch]") {
  const std::string path = "pkg/VictimTest.java";
  auto patch = insert_at_method_start(victim_test, "otherTest", path, "reset", {"pkg.Registry.clearAll();"});
  if (!patch) FAIL(patch.error().message);
  INFO(patch->diff);

  Work work("source-patch-patch");
  write_text_file(work.dir / path, joined_lines(victim_test));
  write_text_file(work.dir / "fix.patch", patch->diff);
  REQUIRE(work.run("patch --dry-run -s -p1 < fix.patch") == 0);
  REQUIRE(work.run("patch -s -p1 < fix.patch") == 0);
  CHECK(read_text_file(work.dir / path) == joined_lines(patch->lines));
}

TEST_CASE("insert_at_method_start: a method near the top of the file (short leading context)", "[repair][patch]") {
  const std::vector<std::string> lines{"class A {", "  void t() {", "    x();", "  }", "}"};
  auto patch = insert_at_method_start(lines, "t", "A.java", "c", {"s();"});
  if (!patch) FAIL(patch.error().message);
  INFO(patch->diff);
  CHECK(patch->diff.find("@@ -1,") != std::string::npos);
  // Four spaces deeper than the declaration, whatever the file's own step.
  CHECK(patch->lines[2] == "      // c");
  CHECK(patch->lines[3] == "      s();");

  Work work("source-patch-top");
  write_text_file(work.dir / "A.java", joined_lines(lines));
  write_text_file(work.dir / "fix.patch", patch->diff);
  REQUIRE(work.run("git apply --check -p1 fix.patch") == 0);
  REQUIRE(work.run("git apply -p1 fix.patch") == 0);
  CHECK(read_text_file(work.dir / "A.java") == joined_lines(patch->lines));
}

TEST_CASE("insert_at_class_start: an instance initializer before the field initializers", "[repair][patch]") {
  const std::vector<std::string> text{
      "package pkg;",
      "",
      "/** Tests what the class Listener does with the factory. */",
      "public class ListenerTest {",
      "",
      "    private final Parser p = Factory.getInstance().parser(\"VDM\");",
      "",
      "    static class Listener {",
      "    }",
      "}",
  };
  auto patch = insert_at_class_start(text, "pkg.ListenerTest", "src/ListenerTest.java", "reset the factory",
                                     {"pkg.Factory.getInstance().reset();"});
  REQUIRE(patch);
  REQUIRE(patch->lines.size() == text.size() + 4);
  // Right after the class's own opening line (not the Javadoc that names a class), before the field.
  CHECK(patch->lines[3] == "public class ListenerTest {");
  CHECK(patch->lines[4] == "    {");
  CHECK(patch->lines[5] == "        // reset the factory");
  CHECK(patch->lines[6] == "        pkg.Factory.getInstance().reset();");
  CHECK(patch->lines[7] == "    }");
  CHECK(patch->lines[9] == text[5]);
  CHECK(patch->diff.find("+++ b/src/ListenerTest.java") != std::string::npos);
  CHECK(patch->diff.find("+    {\n") != std::string::npos);

  // A nested class is found by its own name, with its own indentation.
  auto nested = insert_at_class_start(text, "pkg.ListenerTest$Listener", "src/ListenerTest.java", "c", {"x();"});
  REQUIRE(nested);
  CHECK(nested->lines[8] == "        {");
  CHECK(nested->lines[10] == "            x();");

  auto missing = insert_at_class_start(text, "pkg.Other", "src/ListenerTest.java", "c", {"x();"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == util::Errc::not_found);
  auto one_line = insert_at_class_start({"class Tiny { int x; }"}, "Tiny", "Tiny.java", "c", {"x();"});
  REQUIRE_FALSE(one_line);
  CHECK(one_line.error().code == util::Errc::unsupported);
}
