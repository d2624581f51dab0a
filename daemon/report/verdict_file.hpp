#pragma once
// The verdict file (schema/verdicts.schema.json) as the report writers see it: the core
// Verdict of each test plus the details of its passing and failing run (message, stack,
// order), which the core type keeps only as run ids. Parsing is strict about the fields the
// reports depend on and tolerant of fields it does not know (newer daemons add some).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/verdict.hpp"
#include "util/error.hpp"

namespace flakescan::report {

struct RunDetail {
  std::int64_t id = 0;
  std::string outcome;  // pass, fail, error, skipped, not_found, infra
  std::vector<std::string> order;
  std::optional<std::int64_t> seed;
  double duration_ms = 0;
  std::string message;
  std::string exception;
  std::string signature;
  std::string stack;
};

// One run of the scan that reached the test (evidence.run_strip): the pass/fail strip of the
// HTML report. Files written before run_strip existed have none.
struct StripRun {
  std::int64_t run = 0;
  std::string outcome;    // pass, fail, error, skipped, not_found, infra
  std::string technique;  // rerun, noise, order, explore, ...; may be empty
};

struct Entry {
  core::Verdict verdict;
  std::string class_name;  // "pkg.Outer$Inner"
  std::string method;      // "name" or "name[1]"
  std::optional<RunDetail> passing_run;
  std::optional<RunDetail> failing_run;
  std::vector<StripRun> run_strip;  // every run that reached the test, in the order they ran
};

struct ScanInfo {
  std::string id;
  std::string state;
  std::string backend;
  std::vector<std::string> techniques;
  std::optional<std::int64_t> seed;
  std::string created_at;
  std::string finished_at;
  std::string error;
};

struct VerdictFile {
  ScanInfo scan;
  std::vector<Entry> entries;
};

// Caps the input: a verdict file larger than this is refused (too_large).
inline constexpr std::size_t max_verdict_file_bytes = 64u << 20;

util::Result<VerdictFile> parse_verdict_file(std::string_view json_text);
util::Result<VerdictFile> load_verdict_file(const std::string& path);

// Several scans (one per Gradle test task) into one file: entries concatenated, the same
// test merged with core::merge_verdicts, techniques united; the first scan names the result.
VerdictFile merge_verdict_files(const std::vector<VerdictFile>& files);

// Back to JSON (schema_version 1), pretty-printed; parse(serialize(x)) == x for what we keep.
std::string serialize_verdict_file(const VerdictFile& file);

}  // namespace flakescan::report
