#pragma once
// Which annotation the @FlakyTest patch (flaky_patch.cpp) puts on a flaky test, decided per
// source file from the file's imports, where it lies, and the project's test classpath
// (`flakescan report --classpath`). The policy, first match wins:
//   1. the user's annotation (`--flaky-annotation pkg.Name`), for every test, as given
//      (no arguments; not checked against the classpath);
//   2. AndroidX `@FlakyTest(detail = "...")` (androidx.test.filters.FlakyTest) when the
//      classpath has that class, the file already imports it (or androidx.test.filters.*),
//      the file lies in an `androidTest` source folder, or, with no classpath given, the
//      scan ran on devices (backend adb);
//   3. JUnit 5 -- the file imports something from org.junit.jupiter -- `@Tag("flaky")`;
//   4. JUnit 4 -- the file imports something from org.junit (not jupiter) --
//      `@Category(FlakyTests.class)`, with a marker interface FlakyTests in the test's
//      package (or `--flaky-category pkg.Name`) that the patch adds unless it exists;
//   5. neither framework recognised (TestNG, kotlin.test, ...): with a classpath, @Tag when it
//      has JUnit 5's Tag, else @Category when it has JUnit 4's; with none, @Category.
// With a classpath given, 3-5 are only chosen when it has the annotation's class; otherwise
// the test is left out of the patch rather than given an annotation that does not compile.
// The import is the simplest reliable signal of a test's framework: the class file would
// need the compiled classes (not in the report's reach for Android), and every JUnit test
// source names its framework's @Test or an assertion in an import.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/classpath_index.hpp"

namespace flakescan::report {

inline constexpr std::string_view androidx_flaky_test = "androidx.test.filters.FlakyTest";
inline constexpr std::string_view jupiter_tag = "org.junit.jupiter.api.Tag";
inline constexpr std::string_view junit4_category = "org.junit.experimental.categories.Category";

struct PatchOptions {
  std::string flaky_annotation;  // fully qualified; empty: chosen by the policy above
  std::string category_class;    // fully qualified marker; empty: FlakyTests in the test's package
  ClasspathIndex* classpath = nullptr;  // nullptr or !known(): no classpath given
};

enum class FlakyMark { user, androidx, junit5_tag, junit4_category };

// What the policy needs to know about one source file.
struct SourceFacts {
  std::string package;  // from the test's class name; empty in the default package
  std::string path;     // '/'-separated, as it goes into the patch
  bool kotlin = false;
  std::vector<std::string> imports;  // non-static imports: "a.b.C", "a.b.*"
};

std::vector<std::string> imports_of(const std::vector<std::string>& lines);

// Nullopt: no annotation the project can compile (the test is left out of the patch).
std::optional<FlakyMark> choose_flaky_mark(const SourceFacts& file, const PatchOptions& options, std::string_view backend);

// The annotation's type, fully qualified ("org.junit.jupiter.api.Tag"), and for a category
// the marker interface's.
std::string mark_type(FlakyMark mark, const PatchOptions& options);
std::string marker_class(const SourceFacts& file, const PatchOptions& options);

// True when the import list already makes `type` visible by its simple name (an import of
// it, of its package with '*', or the same package).
bool type_visible(const SourceFacts& file, std::string_view type);
// True when another import already uses the simple name of `type` (it must be qualified).
bool simple_name_taken(const SourceFacts& file, std::string_view type);

// True when the method's annotation block (the lines from its first annotation to its
// declaration) already marks it: any *FlakyTest, or the chosen annotation (@Tag("flaky"),
// any @Category -- a second one would not compile -- or the user's).
bool already_marked(const std::vector<std::string>& block, FlakyMark mark, const PatchOptions& options);

}  // namespace flakescan::report
