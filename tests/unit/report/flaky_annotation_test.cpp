// Which annotation marks a flaky test (report/flaky_annotation.hpp): the policy as a table,
// the import analysis, and what counts as already marked.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "report/flaky_annotation.hpp"

using namespace flakescan::report;
namespace fs = std::filesystem;

namespace {

// A class directory holding (empty) class files of the given classes.
struct MarkClassDir {
  fs::path path;
  MarkClassDir(const std::string& name, const std::vector<std::string>& classes)
      : path(fs::temp_directory_path() / ("flakescan_marks_" + std::to_string(::getpid()) + "_" + name)) {
    fs::remove_all(path);
    for (auto c : classes) {
      for (auto& ch : c)
        if (ch == '.') ch = '/';
      fs::create_directories((path / c).parent_path());
      std::ofstream(path / (c + ".class"));
    }
  }
  ~MarkClassDir() { fs::remove_all(path); }
};

SourceFacts java_file(std::vector<std::string> imports, std::string path = "src/test/java/com/example/ATest.java") {
  return SourceFacts{"com.example", std::move(path), false, std::move(imports)};
}

const char* name_of(std::optional<FlakyMark> m) {
  if (!m) return "none";
  switch (*m) {
    case FlakyMark::user: return "user";
    case FlakyMark::androidx: return "androidx";
    case FlakyMark::junit5_tag: return "tag";
    case FlakyMark::junit4_category: return "category";
  }
  return "?";
}

}  // namespace

TEST_CASE("imports are read without static imports, semicolons, aliases or comments", "[report][patch]") {
  CHECK(imports_of({"package a;", "import static org.junit.Assert.assertEquals;", "import org.junit.Test;",
                    "  import org.junit.jupiter.api.*; // all", "import kotlin.test.Test as KTest", "class A {}",
                    "    importantCall();"}) ==
        std::vector<std::string>{"org.junit.Test", "org.junit.jupiter.api.*", "kotlin.test.Test"});
}

TEST_CASE("a type is visible through its import, its package's wildcard or the same package", "[report][patch]") {
  auto f = java_file({"org.junit.jupiter.api.*", "com.acme.labels.Tag", "org.junit.experimental.categories.Category"});
  CHECK(type_visible(f, "org.junit.jupiter.api.Tag"));
  CHECK(type_visible(f, "org.junit.experimental.categories.Category"));
  CHECK(type_visible(f, "com.example.FlakyTests"));
  CHECK_FALSE(type_visible(f, "com.example.testing.FlakyTests"));
  CHECK_FALSE(type_visible(f, "androidx.test.filters.FlakyTest"));
  CHECK(simple_name_taken(f, "org.junit.jupiter.api.Tag"));  // com.acme.labels.Tag has the name
  CHECK_FALSE(simple_name_taken(f, "org.junit.experimental.categories.Category"));
  CHECK_FALSE(simple_name_taken(f, "androidx.test.filters.FlakyTest"));
}

TEST_CASE("the annotation follows the test's framework and the classpath", "[report][patch]") {
  MarkClassDir androidx("androidx", {"androidx.test.filters.FlakyTest", "org.junit.experimental.categories.Category"});
  MarkClassDir junit4("junit4", {"org.junit.experimental.categories.Category", "org.junit.Test"});
  MarkClassDir jupiter("jupiter", {"org.junit.jupiter.api.Tag", "org.junit.jupiter.api.Test"});
  MarkClassDir both("both", {"org.junit.jupiter.api.Tag", "org.junit.experimental.categories.Category"});
  ClasspathIndex cp_androidx({androidx.path.string()}), cp_junit4({junit4.path.string()}), cp_jupiter({jupiter.path.string()}),
      cp_both({both.path.string()}), cp_none;
  const std::vector<std::string> junit4_imports{"org.junit.Test"}, jupiter_imports{"org.junit.jupiter.api.Test"},
      testng_imports{"org.testng.annotations.Test"};

  struct Row {
    const char* what;
    SourceFacts file;
    ClasspathIndex* classpath;
    std::string backend;
    std::string user;
    const char* expected;
  };
  const std::vector<Row> rows = {
      {"JUnit 4, no classpath given", java_file(junit4_imports), &cp_none, "local", "", "category"},
      {"JUnit 4, JUnit 4 on the classpath", java_file(junit4_imports), &cp_junit4, "local", "", "category"},
      {"JUnit 4, AndroidX on the classpath", java_file(junit4_imports), &cp_androidx, "local", "", "androidx"},
      {"JUnit 5, no classpath given", java_file(jupiter_imports), &cp_none, "local", "", "tag"},
      {"JUnit 5, JUnit 5 on the classpath", java_file(jupiter_imports), &cp_jupiter, "local", "", "tag"},
      {"JUnit 5, only JUnit 4 on the classpath: no annotation compiles", java_file(jupiter_imports), &cp_junit4, "local", "",
       "none"},
      {"JUnit 4, only JUnit 5 on the classpath", java_file(junit4_imports), &cp_jupiter, "local", "", "none"},
      {"the user's annotation wins over AndroidX", java_file(junit4_imports), &cp_androidx, "local", "com.acme.Flaky", "user"},
      {"an androidTest source set is AndroidX", java_file(junit4_imports, "app/src/androidTest/java/com/example/ATest.java"),
       &cp_junit4, "local", "", "androidx"},
      {"a file that imports AndroidX's FlakyTest", java_file({"org.junit.Test", "androidx.test.filters.FlakyTest"}), &cp_junit4,
       "local", "", "androidx"},
      {"a device scan without a classpath", java_file(junit4_imports), &cp_none, "adb", "", "androidx"},
      {"a device scan with a classpath that lacks AndroidX", java_file(junit4_imports), &cp_junit4, "adb", "", "category"},
      {"no framework import, JUnit 5 and 4 on the classpath", java_file(testng_imports), &cp_both, "local", "", "tag"},
      {"no framework import, JUnit 4 on the classpath", java_file(testng_imports), &cp_junit4, "local", "", "category"},
      {"no framework import, no classpath given", java_file(testng_imports), &cp_none, "local", "", "category"},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    PatchOptions options{row.user, "", row.classpath};
    CHECK(std::string(name_of(choose_flaky_mark(row.file, options, row.backend))) == row.expected);
  }
}

TEST_CASE("the category's marker is FlakyTests in the test's package unless configured", "[report][patch]") {
  CHECK(marker_class(java_file({}), PatchOptions{}) == "com.example.FlakyTests");
  CHECK(marker_class(SourceFacts{"", "src/test/java/ATest.java", false, {}}, PatchOptions{}) == "FlakyTests");
  CHECK(marker_class(java_file({}), PatchOptions{"", "com.acme.testing.Flaky", nullptr}) == "com.acme.testing.Flaky");
}

TEST_CASE("a test already marked gets nothing more", "[report][patch]") {
  const PatchOptions none{}, user{"com.acme.Flaky", "", nullptr};
  struct Row {
    std::vector<std::string> block;
    FlakyMark mark;
    const PatchOptions* options;
    bool marked;
  };
  const std::vector<Row> rows = {
      {{"    @Tag(\"flaky\")", "    @Test", "    void a() {"}, FlakyMark::junit5_tag, &none, true},
      {{"    @org.junit.jupiter.api.Tag( value = \"flaky\" ) @Test void a() {"}, FlakyMark::junit5_tag, &none, true},
      {{"    @Tag(\"slow\")", "    @Test", "    void a() {"}, FlakyMark::junit5_tag, &none, false},
      {{"    @Tags({@Tag(\"fast\")})", "    void a() {"}, FlakyMark::junit5_tag, &none, false},
      {{"    @FlakyTest", "    @Test", "    void a() {"}, FlakyMark::junit5_tag, &none, true},
      {{"    @Category(FlakyTests.class)", "    public void a() {"}, FlakyMark::junit4_category, &none, true},
      {{"    @Category({Slow.class, Db.class}) @Test", "    public void a() {"}, FlakyMark::junit4_category, &none, true},
      {{"    @Categoryless", "    public void a() {"}, FlakyMark::junit4_category, &none, false},
      {{"    @com.acme.Flaky", "    public void a() {"}, FlakyMark::user, &user, true},
      {{"    @Flaky(reason = \"x\") public void a() {"}, FlakyMark::user, &user, true},
      {{"    @FlakyNot", "    public void a() {"}, FlakyMark::user, &user, false},
      {{"    @Test", "    public void a() {"}, FlakyMark::androidx, &none, false},
  };
  for (const auto& row : rows) {
    INFO(row.block.front());
    CHECK(already_marked(row.block, row.mark, *row.options) == row.marked);
  }
}
