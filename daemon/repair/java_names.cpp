#include "repair/java_names.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace flakescan::repair {

std::string internal_name(std::string s) {
  std::replace(s.begin(), s.end(), '.', '/');
  return s;
}

std::string binary_name(std::string s) {
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

std::string package_of(const std::string& binary_name) {
  auto dot = binary_name.rfind('.');
  return dot == std::string::npos ? "" : binary_name.substr(0, dot);
}

bool is_project_class(const std::string& name) {
  static constexpr std::array<std::string_view, 15> outside{
      "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.junit.", "junit.", "org.hamcrest.", "org.opentest4j.",
      "org.apiguardian.", "io.flakescan.runner.", "kotlin.", "org.jetbrains.", "org.w3c.", "org.xml."};
  if (name.find("$$Lambda") != std::string::npos || name.find('/') != std::string::npos) return false;
  return std::none_of(outside.begin(), outside.end(), [&](std::string_view p) { return name.starts_with(p); });
}

}  // namespace flakescan::repair
