// The @FlakyTest patch for each annotation choice, compared byte for byte with
// tests/fixtures/report/expected/patch/ (regenerate with FLAKESCAN_UPDATE_SNAPSHOTS=1 and
// review the diff), and applied with git apply to a copy of the sources.
#include <catch2/catch.hpp>

#include "support/text.hpp"

#include <unistd.h>

#include <cstdlib>

#include "report_fixture.hpp"

using namespace flakescan::report;
namespace fs = std::filesystem;

namespace {

void check_patch(const std::string& name, const std::string& actual) { testing::check_snapshot("patch/" + name, actual); }

using flakescan::text_checks::count_of;
// A class directory with (empty) class files, standing in for a classpath entry.
struct PatchClassDir {
  fs::path path;
  explicit PatchClassDir(const std::vector<std::string>& files)
      : path(fs::temp_directory_path() / ("flakescan_patch_cp_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    for (const auto& f : files) {
      fs::create_directories((path / f).parent_path());
      std::ofstream(path / f);
    }
  }
  ~PatchClassDir() { fs::remove_all(path); }
};

std::string mixed_patch(const PatchOptions& options) {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  return render_flaky_patch(r, locator, options);
}

fs::path patch_project() { return testing::fixture_dir() / "patch-project"; }

std::string patch_project_patch(const PatchOptions& options) {
  SourceLocator locator({patch_project() / "src/test/java", patch_project() / "src/androidTest/java"});
  auto file = load_verdict_file((testing::fixture_dir() / "verdicts_patch.json").string());
  REQUIRE(file);
  return render_flaky_patch(locate_all(*file, locator, patch_project(), "0.1.0"), locator, options);
}

// git apply in a copy of `project`; the text of each `files` afterwards.
std::vector<std::string> apply(const fs::path& project, const std::string& patch, const std::vector<std::string>& files) {
  const fs::path work = fs::temp_directory_path() / ("flakescan_patch_apply_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(project, work, fs::copy_options::recursive);
  std::ofstream(work / "fix.patch") << patch;
  const int status = std::system(("cd '" + work.string() + "' && git init -q && git apply fix.patch").c_str());
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(status == 0 ? testing::read_text(work / f) : "git apply failed");
  fs::remove_all(work);
  return out;
}

}  // namespace

TEST_CASE("without a classpath, JUnit 4 tests get a category and JUnit 5 tests a tag", "[report][patch]") {
  const auto patch = mixed_patch({});
  check_patch("mixed-no-classpath.patch", patch);
  CHECK(patch.find("androidx") == std::string::npos);
  CHECK(count_of(patch, "+    @Tag(\"flaky\")\n") == 3);                    // CacheTest: JUnit 5
  CHECK(count_of(patch, "+    @Category(FlakyTests.class)\n") == 1);        // CounterTest: JUnit 4
  CHECK(count_of(patch, "+    @Category(FlakyTests::class)\n") == 1);       // ClockTest.kt
  CHECK(count_of(patch, "+++ b/src/test/java/com/example/FlakyTests.java\n") == 1);  // one marker per package
  CHECK(count_of(patch, "FlakyTests.kt") == 0);
  auto files = apply(testing::project_dir(), patch,
                     {"src/test/java/com/example/FlakyTests.java", "src/test/java/com/example/CounterTest.java"});
  CHECK(files[0].starts_with("package com.example;\n"));
  CHECK(files[0].find("public interface FlakyTests {\n}\n") != std::string::npos);
  CHECK(files[1].find("import org.junit.Test;\nimport org.junit.experimental.categories.Category;\n") != std::string::npos);
}

TEST_CASE("a Kotlin test alone in its package gets a Kotlin marker interface", "[report][patch]") {
  auto locator = testing::fixture_locator();
  auto r = testing::fixture_report("verdicts_mixed.json", locator);
  std::erase_if(r.entries, [](const LocatedEntry& le) { return le.entry.class_name != "com.example.ClockTest"; });
  const auto patch = render_flaky_patch(r, locator, {});
  CHECK(count_of(patch, "+    @Category(FlakyTests::class)\n") == 1);
  CHECK(count_of(patch, "+import org.junit.experimental.categories.Category\n") == 1);
  CHECK(patch.find("--- /dev/null\n+++ b/src/test/kotlin/com/example/FlakyTests.kt\n@@ -0,0 +1,4 @@\n+package com.example\n+\n") !=
        std::string::npos);
  CHECK(patch.find("+interface FlakyTests\n") != std::string::npos);
  CHECK(patch.find(".java") == std::string::npos);
}

TEST_CASE("AndroidX's FlakyTest on the classpath gives @FlakyTest(detail = ...) to every test", "[report][patch]") {
  PatchClassDir cp({"androidx/test/filters/FlakyTest.class"});
  ClasspathIndex index({cp.path.string()});
  const auto patch = mixed_patch({"", "", &index});
  check_patch("mixed-androidx.patch", patch);
  CHECK(count_of(patch, "@FlakyTest(detail = ") == 5);
  CHECK(count_of(patch, "+import androidx.test.filters.FlakyTest") == 3);
  CHECK(patch.find("Category") == std::string::npos);
}

TEST_CASE("a classpath without JUnit 5 leaves the JUnit 5 tests out", "[report][patch]") {
  PatchClassDir cp({"org/junit/experimental/categories/Category.class", "com/example/FlakyTests.class"});
  ClasspathIndex index({cp.path.string()});
  const auto patch = mixed_patch({"", "", &index});
  check_patch("mixed-junit4-classpath.patch", patch);
  CHECK(patch.find("CacheTest") == std::string::npos);
  CHECK(patch.find("/dev/null") == std::string::npos);  // the marker is on the classpath already
}

TEST_CASE("the user's annotation is used as given", "[report][patch]") {
  const auto patch = mixed_patch({"com.acme.Flaky", "", nullptr});
  check_patch("mixed-user-annotation.patch", patch);
  CHECK(count_of(patch, "+    @Flaky\n") == 5);
  CHECK(count_of(patch, "+import com.acme.Flaky;\n") == 2);
  CHECK(count_of(patch, "+import com.acme.Flaky\n") == 1);
}

TEST_CASE("a configured category marker is imported and added under the source root", "[report][patch]") {
  const auto patch = mixed_patch({"", "com.example.testing.FlakyTests", nullptr});
  check_patch("mixed-category-package.patch", patch);
  CHECK(count_of(patch, "+import com.example.testing.FlakyTests;\n") == 1);
  CHECK(count_of(patch, "+import com.example.testing.FlakyTests\n") == 1);
  CHECK(count_of(patch, "+++ b/src/test/java/com/example/testing/FlakyTests.java\n") == 1);
  auto files = apply(testing::project_dir(), patch, {"src/test/java/com/example/testing/FlakyTests.java"});
  CHECK(files[0].starts_with("package com.example.testing;\n"));
}

TEST_CASE("no duplicate annotation, import or marker; clashing names are qualified", "[report][patch]") {
  const auto patch = patch_project_patch({});
  check_patch("already-marked.patch", patch);
  // TaggedTest imports org.junit.jupiter.api.*: only the untagged test, no import.
  CHECK(count_of(patch, "+    @Tag(\"flaky\")\n") == 1);
  CHECK(patch.find("import org.junit.jupiter.api.Tag") == std::string::npos);
  // CategorizedTest: neither the marked test nor the one in another category; FlakyTests exists.
  CHECK(count_of(patch, "@Category(FlakyTests.class)") == 1);
  CHECK(patch.find("/dev/null") == std::string::npos);
  CHECK(patch.find("+import org.junit.experimental.categories.Category") == std::string::npos);
  // ClashTest imports another Tag: the annotation is written qualified.
  CHECK(count_of(patch, "+    @org.junit.jupiter.api.Tag(\"flaky\")\n") == 1);
  // An androidTest source set gets AndroidX's annotation.
  CHECK(count_of(patch, "+import androidx.test.filters.FlakyTest;\n") == 1);
  auto files = apply(patch_project(), patch, {"src/test/java/com/acme/CategorizedTest.java"});
  CHECK(count_of(files[0], "@Category(") == 3);

  // Applied once, the patch leaves nothing to add.
  const fs::path work = fs::temp_directory_path() / ("flakescan_patch_twice_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(patch_project(), work, fs::copy_options::recursive);
  std::ofstream(work / "fix.patch") << patch;
  REQUIRE(std::system(("cd '" + work.string() + "' && git init -q && git apply fix.patch").c_str()) == 0);
  SourceLocator locator({work / "src/test/java", work / "src/androidTest/java"});
  auto file = load_verdict_file((testing::fixture_dir() / "verdicts_patch.json").string());
  REQUIRE(file);
  CHECK(render_flaky_patch(locate_all(*file, locator, work, "0.1.0"), locator, {}) == "");
  fs::remove_all(work);
}
