#pragma once
// Every store test runs on both engines:
//   auto engine = GENERATE(store_engines());  CAPTURE(engine);
//   auto s = store::Store::open(fresh_location(engine, "name")).value();
// SQLite: a fresh file under the temporary folder. PostgreSQL: a fresh database in the
// throwaway cluster that ctest starts (fixture `postgres`, scripts/throwaway-postgres), whose URI
// is in the file named by $FLAKESCAN_TEST_POSTGRES_FILE (or in $FLAKESCAN_TEST_POSTGRES).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <libpq-fe.h>
#include <string>
#include <unistd.h>

namespace store_test {

inline Catch::Generators::GeneratorWrapper<std::string> store_engines() {
  return Catch::Generators::values<std::string>({"sqlite", "postgresql"});
}

// postgresql://user@host:port/postgres -> the server's URI, from the environment.
inline std::string postgres_server_uri() {
  if (const char* uri = std::getenv("FLAKESCAN_TEST_POSTGRES"); uri && *uri) return uri;
  if (const char* file = std::getenv("FLAKESCAN_TEST_POSTGRES_FILE"); file && *file) {
    std::ifstream in(file);
    std::string uri;
    if (std::getline(in, uri) && !uri.empty()) return uri;
  }
  FAIL("no PostgreSQL for the store tests: run them through ctest (its fixture `postgres` starts one), or set "
       "FLAKESCAN_TEST_POSTGRES=postgresql://... (scripts/throwaway-postgres start DIR writes DIR/uri)");
  return {};
}

inline void postgres_command(const std::string& uri, const std::string& sql) {
  PGconn* conn = PQconnectdb(uri.c_str());
  INFO(PQerrorMessage(conn));
  REQUIRE(PQstatus(conn) == CONNECTION_OK);
  PGresult* r = PQexec(conn, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  auto status = PQresultStatus(r);
  PQclear(r);
  PQfinish(conn);
  REQUIRE((status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK));
}

// A fresh, empty database `name` (per test process) in the test cluster; its URI.
inline std::string fresh_postgres(const std::string& name) {
  std::string server = postgres_server_uri();
  std::string db = "store_" + std::to_string(getpid()) + "_" + name;
  postgres_command(server, "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
  postgres_command(server, "CREATE DATABASE " + db);
  return server.substr(0, server.rfind('/') + 1) + db;
}

inline std::filesystem::path fresh_sqlite(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("flakescan-store-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path db = dir / (name + ".db");
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db.string() + suffix);
  return db;
}

// A fresh store location of `engine` ("sqlite" or "postgresql").
inline std::string fresh_location(const std::string& engine, const std::string& name) {
  return engine == "postgresql" ? fresh_postgres(name) : fresh_sqlite(name).string();
}

}  // namespace store_test
