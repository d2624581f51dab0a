#pragma once
// The schema of each engine, compiled in from schema/migrations/<engine>/*.sql (CMakeLists.txt
// of this folder). Both engines have the same migrations by name, each in its own dialect.
#include <string_view>
#include <vector>

namespace flakescan::store {

struct Migration {
  std::string_view name;  // "001_initial.sql": applied in this order, each once
  std::string_view sql;
};

const std::vector<Migration>& sqlite_migrations();
const std::vector<Migration>& postgres_migrations();

}  // namespace flakescan::store
