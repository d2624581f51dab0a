#include "store/store.hpp"

#include "store/postgres_store.hpp"
#include "store/sqlite_store.hpp"

namespace flakescan::store {

bool is_postgres_location(const std::string& location) {
  return location.starts_with("postgresql://") || location.starts_with("postgres://");
}

util::Result<std::unique_ptr<Store>> Store::open(const std::string& location) {
  if (location.empty()) return util::fail(util::Errc::invalid_argument, "no store named (a file or a postgresql:// URI)");
  if (is_postgres_location(location)) {
    auto pg = PostgresStore::open(location);
    if (!pg) return std::unexpected(pg.error());
    return std::unique_ptr<Store>(std::move(*pg));
  }
  auto sqlite = SqliteStore::open(location);
  if (!sqlite) return std::unexpected(sqlite.error());
  return std::unique_ptr<Store>(std::move(*sqlite));
}

}  // namespace flakescan::store
