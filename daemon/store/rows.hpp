#pragma once
// The pieces both engines share between a row and a record. Pure: values in, values out.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace flakescan::store {

// The columns both engines read a scan and a run with (ScanRecord, core::RecordedRun), in
// this order; the caller appends WHERE and ORDER BY in its dialect.
extern const char* const scan_select;
extern const char* const run_select;

// A JSON array of strings (scans.techniques, runs.tests); anything else reads as empty.
std::vector<std::string> parse_string_array(const std::string& text);
// '' or a JSON array of non-negative integers (runs.class_run_starts), and back.
std::vector<std::size_t> parse_positions(const std::string& text);
std::string positions_text(const std::vector<std::size_t>& positions);

// The import as it will be stored: counts computed from `results`, no `replaced` yet.
CiImportRecord counted_import(const CiImportRecord& import, const std::vector<CiResultRow>& results);

// Gathers CI suspects: first the reasons each engine's queries found, then every result of
// each suspect, newest import first.
class SuspectList {
 public:
  enum class Reason { same_commit, passed_on_rerun, mixed_recently };
  void add_reason(const std::string& test, Reason reason, const std::string& commit = {});
  std::vector<std::string> tests() const;
  void add_observation(CiObservation observation, int max_evidence);
  std::vector<CiSuspect> sorted() const;

 private:
  std::map<std::string, CiSuspect> suspects_;
};

// Text that a PostgreSQL text column accepts: valid UTF-8 without NUL. Invalid bytes become
// U+FFFD and NUL is dropped; valid text passes unchanged. (SQLite keeps any bytes.)
std::string storable_text(const std::string& text);

}  // namespace flakescan::store
