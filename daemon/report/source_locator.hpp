#pragma once
// Finds a test's source file and the line of its method declaration, so annotations, SARIF
// results and the @FlakyTest patch point at the test itself. Lookup order for class
// pkg.Outer$Inner: <root>/pkg/Outer.{java,kt} for each root, then a bounded walk of each root
// for a file whose path ends in pkg/Outer.{java,kt}. Results are memoised per class; files
// are read once. Not thread-safe (one locator per report run).
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace flakescan::report {

struct SourceLocation {
  std::filesystem::path file;  // as found (absolute or relative to the cwd)
  int line = 0;                // 1-based line of the method declaration, 0 when not found
  int annotation_line = 0;     // 1-based first line of the method's annotation block
  std::string indent;          // the declaration's leading whitespace
  bool kotlin = false;
  bool has_flaky_test = false; // an annotation named FlakyTest already sits on the method
};

// Pure: the method's lines in a file's text. Method names may carry a parameter suffix
// ("name[1]", "name(String)"), which is dropped.
std::optional<SourceLocation> find_method(const std::vector<std::string>& lines, const std::string& method, bool kotlin);

std::vector<std::string> split_lines(const std::string& text);

class SourceLocator {
 public:
  explicit SourceLocator(std::vector<std::filesystem::path> roots) : roots_(std::move(roots)) {}

  // The file of a class, or nullopt when no root holds it.
  std::optional<std::filesystem::path> find_file(const std::string& class_name);
  std::optional<SourceLocation> locate(const std::string& class_name, const std::string& method);
  // The lines of a file found by find_file (cached).
  const std::vector<std::string>& lines_of(const std::filesystem::path& file);

 private:
  std::vector<std::filesystem::path> roots_;
  std::map<std::string, std::optional<std::filesystem::path>> files_;
  std::map<std::filesystem::path, std::vector<std::string>> texts_;
  static constexpr std::size_t max_walk_entries_ = 200000;
};

}  // namespace flakescan::report
