#include <catch2/catch.hpp>

#include "report/source_locator.hpp"
#include "report_fixture.hpp"

using namespace flakescan::report;

TEST_CASE("Java methods are found with their annotation block", "[report][source]") {
  auto lines = split_lines(
      "class T {\n"
      "    void helper() { check(); }\n"
      "    @Test\n"
      "    @Timeout(\n"
      "        5\n"
      "    )\n"
      "    public void check() throws Exception {\n"
      "        check();\n"
      "    }\n"
      "}\n");
  auto loc = find_method(lines, "check", false);
  REQUIRE(loc);
  CHECK(loc->line == 7);
  CHECK(loc->annotation_line == 3);
  CHECK(loc->indent == "    ");
  CHECK_FALSE(loc->has_flaky_test);
}

TEST_CASE("parameter suffixes are dropped and existing FlakyTest annotations seen", "[report][source]") {
  auto lines = split_lines(
      "  @androidx.test.filters.FlakyTest(detail = \"x\")\n"
      "  @ParameterizedTest\n"
      "  void sizes(int n) {}\n");
  auto loc = find_method(lines, "sizes[3]", false);
  REQUIRE(loc);
  CHECK(loc->line == 3);
  CHECK(loc->annotation_line == 1);
  CHECK(loc->has_flaky_test);
  CHECK(find_method(lines, "sizes(int)", false)->line == 3);
  CHECK_FALSE(find_method(lines, "absent", false));
}

TEST_CASE("Kotlin functions with backticked names are found", "[report][source]") {
  auto lines = split_lines("class K {\n    @Test\n    fun `does a thing`() {}\n    fun plain() = 1\n}\n");
  auto loc = find_method(lines, "does a thing", true);
  REQUIRE(loc);
  CHECK(loc->line == 3);
  CHECK(loc->annotation_line == 2);
  CHECK(find_method(lines, "plain", true)->line == 4);
}

TEST_CASE("classes are found under source roots, inner classes in the outer file", "[report][source]") {
  auto locator = testing::fixture_locator();
  auto counter = locator.locate("com.example.CounterTest", "asyncIncrementIsVisible");
  REQUIRE(counter);
  CHECK(counter->file.filename() == "CounterTest.java");
  CHECK(counter->line == 17);
  CHECK(counter->annotation_line == 16);
  auto nested = locator.locate("com.example.CounterTest$Nested", "nestedWorks");
  REQUIRE(nested);
  CHECK(nested->file.filename() == "CounterTest.java");
  CHECK(nested->line == 31);
  CHECK(nested->indent == "        ");
  auto kotlin = locator.locate("com.example.ClockTest", "ticks within a second");
  REQUIRE(kotlin);
  CHECK(kotlin->kotlin);
  CHECK(kotlin->line == 8);
  CHECK_FALSE(locator.locate("com.example.Missing", "gone"));
}

TEST_CASE("a root that is a project directory is walked for the package path", "[report][source]") {
  SourceLocator locator({testing::project_dir()});
  auto cache = locator.locate("com.example.cache.CacheTest", "storesValue");
  REQUIRE(cache);
  CHECK(cache->line == 17);
}
