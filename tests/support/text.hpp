#pragma once
// Text checks that several tests make.
#include <cstddef>
#include <string>

namespace flakescan::text_checks {

// How many times `needle` occurs in `text` (overlapping occurrences counted).
inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace flakescan::text_checks
