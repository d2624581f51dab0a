#include "store/pg_connection.hpp"

#include <cstdio>
#include <libpq-fe.h>

namespace flakescan::store {

namespace {

using util::Errc;

std::string first_line(const char* message) {
  std::string s = message ? message : "";
  if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

}  // namespace

PgParams& PgParams::add(const std::string& v) {
  values_.emplace_back(v);
  return *this;
}

PgParams& PgParams::add(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);  // round-trips a double exactly
  values_.emplace_back(buf);
  return *this;
}

PgParams& PgParams::add_null() {
  values_.emplace_back(std::nullopt);
  return *this;
}

PgRows::PgRows(pg_result* result) : result_(result, PQclear) {}
int PgRows::size() const { return PQntuples(result_.get()); }
std::string PgRows::text(int row, int col) const {
  return std::string(PQgetvalue(result_.get(), row, col), PQgetlength(result_.get(), row, col));
}
std::int64_t PgRows::integer(int row, int col) const {
  const char* v = PQgetvalue(result_.get(), row, col);
  return *v ? std::stoll(v) : 0;
}
double PgRows::real(int row, int col) const {
  const char* v = PQgetvalue(result_.get(), row, col);
  return *v ? std::stod(v) : 0.0;
}
int PgRows::affected() const {
  const char* n = PQcmdTuples(result_.get());
  return *n ? std::stoi(n) : 0;
}

util::Result<std::unique_ptr<PgConnection>> PgConnection::connect(const std::string& uri) {
  pg_conn* conn = PQconnectdb(uri.c_str());
  if (!conn) return util::fail(Errc::storage, "cannot connect to the PostgreSQL store: out of memory");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = first_line(PQerrorMessage(conn));
    PQfinish(conn);
    return util::fail(Errc::storage, "cannot connect to the PostgreSQL store: " + msg);
  }
  std::unique_ptr<PgConnection> out(new PgConnection(conn));
  // Our notices (e.g. "relation already exists, skipping") are not the user's business.
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  if (auto r = out->exec("SET client_encoding = 'UTF8'"); !r) return std::unexpected(r.error());
  return out;
}

PgConnection::~PgConnection() { PQfinish(conn_); }

util::Result<PgRows> PgConnection::exec(const std::string& sql, const PgParams& params) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    if (in_transaction_) return util::fail(Errc::storage, "the PostgreSQL connection broke inside a transaction");
    PQreset(conn_);
    if (PQstatus(conn_) != CONNECTION_OK)
      return util::fail(Errc::storage, "the PostgreSQL store is unreachable: " + first_line(PQerrorMessage(conn_)));
  }
  std::vector<const char*> values;
  for (const auto& v : params.values()) values.push_back(v ? v->c_str() : nullptr);
  PGresult* result = PQexecParams(conn_, sql.c_str(), int(values.size()), nullptr, values.data(), nullptr, nullptr, 0);
  PgRows rows(result);
  auto status = PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    return util::fail(Errc::storage, first_line(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_)));
  return rows;
}

util::Result<bool> PgConnection::exec_script(const std::string& sql) {
  // PQexec runs every statement and returns the last result; an error stops the script there.
  PGresult* result = PQexec(conn_, sql.c_str());
  PgRows rows(result);
  auto status = PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    return util::fail(Errc::storage, first_line(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_)));
  return true;
}

util::Result<bool> PgConnection::command(const char* sql) {
  auto r = exec(sql);
  std::string s = sql;
  if (s == "BEGIN" && r) in_transaction_ = true;
  if (s == "COMMIT" || s == "ROLLBACK") in_transaction_ = false;
  if (!r) return std::unexpected(r.error());
  return true;
}

std::string PgConnection::where() const {
  std::string host = PQhost(conn_) ? PQhost(conn_) : "";
  std::string port = PQport(conn_) ? PQport(conn_) : "";
  std::string db = PQdb(conn_) ? PQdb(conn_) : "";
  return host + ":" + port + "/" + db;
}

}  // namespace flakescan::store
