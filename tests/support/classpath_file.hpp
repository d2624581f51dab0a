#pragma once
// The first line of a classpath file the examples' build writes (`<example>.classpath`, or
// line 1 of `<example>.scan`), split at ':' into its entries.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace flakescan::test_support {

inline std::vector<std::string> classpath_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> out;
  std::stringstream parts(line);
  for (std::string p; std::getline(parts, p, ':');)
    if (!p.empty()) out.push_back(p);
  return out;
}

}  // namespace flakescan::test_support
