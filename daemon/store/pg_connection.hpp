#pragma once
// One libpq connection and the little the PostgreSQL engine needs of it: statements with
// text parameters, rows read as text, transactions. Not thread-safe: its owner holds a mutex.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/error.hpp"

struct pg_conn;
struct pg_result;

namespace flakescan::store {

// Positional parameters ($1, $2, ...) as text; nullopt is SQL NULL.
class PgParams {
 public:
  PgParams& add(const std::string& v);
  PgParams& add(std::int64_t v) { return add(std::to_string(v)); }
  PgParams& add(int v) { return add(std::to_string(v)); }
  PgParams& add(double v);
  PgParams& add_null();
  const std::vector<std::optional<std::string>>& values() const { return values_; }

 private:
  std::vector<std::optional<std::string>> values_;
};

class PgRows {
 public:
  explicit PgRows(pg_result* result);
  int size() const;
  std::string text(int row, int col) const;
  std::int64_t integer(int row, int col) const;
  double real(int row, int col) const;
  int affected() const;  // rows changed by an UPDATE, DELETE or INSERT

 private:
  std::shared_ptr<pg_result> result_;
};

class PgConnection {
 public:
  static util::Result<std::unique_ptr<PgConnection>> connect(const std::string& uri);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one statement; a broken connection is re-made once outside a transaction.
  util::Result<PgRows> exec(const std::string& sql, const PgParams& params = {});
  // Runs several statements without parameters (a migration).
  util::Result<bool> exec_script(const std::string& sql);
  util::Result<bool> begin() { return command("BEGIN"); }
  util::Result<bool> commit() { return command("COMMIT"); }
  void rollback() { (void)command("ROLLBACK"); }
  // "host:port/database" (no user or password).
  std::string where() const;

 private:
  explicit PgConnection(pg_conn* conn) : conn_(conn) {}
  util::Result<bool> command(const char* sql);
  pg_conn* conn_;
  bool in_transaction_ = false;
};

}  // namespace flakescan::store
