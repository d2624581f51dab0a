#pragma once
// The pieces both engines share between a row and a record. Pure: values in, values out.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "store/shuffle_columns.hpp"
#include "store/threads_columns.hpp"
#include "store/store.hpp"

namespace flakescan::store {

// The columns both engines read a scan and a run with (ScanRecord, core::RecordedRun), in
// this order; the caller appends WHERE and ORDER BY in its dialect.
extern const char* const scan_select;
extern const char* const run_select;

// The record of one row of scan_select / run_select / result_select, whatever the engine: a
// Row answers text(col), integer(col) and real(col) for the current row.
template <class Row> ScanRecord scan_from(const Row& s);
template <class Row> core::RecordedRun run_from(const Row& s);
template <class Row> core::TestResult result_from(const Row& s);
extern const char* const result_select;  // + the engine's "WHERE run_id = ? ORDER BY position"

// A JSON array of strings (scans.techniques, runs.tests); anything else reads as empty.
std::vector<std::string> parse_string_array(const std::string& text);
// '' or a JSON array of non-negative integers (runs.class_run_starts), and back.
std::vector<std::size_t> parse_positions(const std::string& text);
std::string positions_text(const std::vector<std::size_t>& positions);

// The import as it will be stored: counts computed from `results`, no `replaced` yet.
CiImportRecord counted_import(const CiImportRecord& import, const std::vector<CiResultRow>& results);

// The queries of CI suspects, the same text on both engines ($1 is SQLite's first parameter
// too): each yields (test, commit) rows for its reason; `mixed_recently` takes the window as $1.
// Then suspect_results_sql ($1: the test) yields its results, newest import first, read by
// observation_from.
struct SuspectQuery;
extern const char* const suspect_results_sql;
template <class Row> CiObservation observation_from(const Row& s, const std::string& test);

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

struct SuspectQuery {
  SuspectList::Reason reason;
  const char* sql;
};
extern const SuspectQuery suspect_queries[3];

// Text that a PostgreSQL text column accepts: valid UTF-8 without NUL. Invalid bytes become
// U+FFFD and NUL is dropped; valid text passes unchanged. (SQLite keeps any bytes.)
std::string storable_text(const std::string& text);

template <class Row>
ScanRecord scan_from(const Row& s) {
  ScanRecord r;
  r.id = s.text(0);
  r.state = s.text(1);
  r.request = s.text(2);
  r.backend = s.text(3);
  r.techniques = parse_string_array(s.text(4));
  r.seed = s.integer(5);
  r.created_at = s.text(6);
  r.started_at = s.text(7);
  r.finished_at = s.text(8);
  r.error = s.text(9);
  r.tests_total = int(s.integer(10));
  r.runs_planned = int(s.integer(11));
  r.runs_done = int(s.integer(12));
  r.daemon = s.text(13);
  r.group = s.text(14);
  r.shard = s.text(15);
  return r;
}

template <class Row>
core::RecordedRun run_from(const Row& s) {
  core::RecordedRun r;
  r.id = s.integer(0);
  r.spec.technique = s.text(1);
  r.spec.purpose = s.text(2);
  r.spec.seed = std::uint64_t(s.integer(3));
  r.spec.tests = parse_string_array(s.text(4));
  r.report.exit_code = int(s.integer(5));
  r.report.signal = int(s.integer(6));
  r.report.timed_out = s.integer(7) != 0;
  r.report.infra_reason = s.text(8);
  r.report.wall_ms = s.real(9);
  r.report.log_path = s.text(10);
  r.spec.shuffle = parse_shuffle_spec(s.text(11));
  r.spec.class_run_starts = parse_positions(s.text(12));
  r.spec.schedule = parse_schedule_column(s.text(13));
  return r;
}

template <class Row>
CiObservation observation_from(const Row& s, const std::string& test) {
  return {.import_id = s.integer(0), .source = s.text(1), .commit = s.text(2), .branch = s.text(3),
          .imported_at = s.text(4),
          .result = {.test = test, .outcome = s.text(5), .duration_ms = s.real(6), .message = s.text(7),
                     .failed_attempts = int(s.integer(8))}};
}

template <class Row>
core::TestResult result_from(const Row& s) {
  core::TestResult r;
  r.test = s.text(0);
  r.outcome = core::parse_outcome(s.text(1)).value_or(core::Outcome::infra);
  r.message = s.text(2);
  r.exception_type = s.text(3);
  r.signature = s.text(4);
  r.stack = s.text(5);
  r.duration_ms = s.real(6);
  r.shuffled = parse_shuffled_sites(s.text(7));
  r.threads = parse_threads_column(s.text(8));
  return r;
}

}  // namespace flakescan::store
