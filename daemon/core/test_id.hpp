#pragma once
// Test ids as users write them: "pkg.Class#method" (one test) or "pkg.Class" (all its tests).
// The grammar is strict because ids travel to JVM command lines and device shells:
// Java binary names ([A-Za-z_$][A-Za-z0-9_$]* separated by '.'), and a method name that may
// carry a parameter suffix such as "name[1]" for parameterised tests.
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::core {

struct TestId {
  std::string class_name;  // binary name, "pkg.Outer$Inner"
  std::string method;      // empty: the whole class

  bool is_class() const { return method.empty(); }
  std::string str() const { return method.empty() ? class_name : class_name + "#" + method; }

  static util::Result<TestId> parse(std::string_view text);
  friend auto operator<=>(const TestId&, const TestId&) = default;
};

// A Java binary name: [A-Za-z_$][A-Za-z0-9_$]* segments joined by '.', at most 512 bytes
// ("pkg.Outer$Inner"; also an Android activity's class name).
bool valid_binary_name(std::string_view s);

// Parses a comma-separated list; empty items are errors.
util::Result<std::vector<TestId>> parse_test_ids(std::string_view list);

}  // namespace flakescan::core
