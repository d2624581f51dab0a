#pragma once
#include <string_view>
#include <vector>

namespace flakescan::store {

struct Migration {
  std::string_view name;  // "001_initial.sql": applied in this order, each once
  std::string_view sql;
};

const std::vector<Migration>& migrations();

}  // namespace flakescan::store
