#pragma once
// Checks of test orders that several order tests make.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "order/orders.hpp"

namespace flakescan::testing {

// True when every class's methods form one contiguous block.
inline bool classes_contiguous(const std::vector<std::string>& order) {
  std::set<std::string_view> closed;
  std::string_view current;
  for (const auto& t : order) {
    auto c = order::class_of(t);
    if (c == current) continue;
    if (closed.count(c)) return false;
    if (!current.empty()) closed.insert(current);
    current = c;
  }
  return true;
}

}  // namespace flakescan::testing
