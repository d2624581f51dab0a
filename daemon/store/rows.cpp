#include "store/rows.hpp"

#include <nlohmann/json.hpp>

namespace flakescan::store {

const char* const scan_select =
    "SELECT id, state, request, backend, techniques, seed, created_at, COALESCE(started_at,''), "
    "COALESCE(finished_at,''), COALESCE(error,''), tests_total, runs_planned, "
    "(SELECT COUNT(*) FROM runs WHERE runs.scan_id = scans.id), daemon, scan_group, shard FROM scans ";

const char* const run_select =
    "SELECT id, technique, purpose, seed, tests, exit_code, signal, timed_out, infra_reason, wall_ms, log_path, shuffle, "
    "class_run_starts, schedule FROM runs ";

const char* const result_select =
    "SELECT test, outcome, message, exception, signature, stack, duration_ms, shuffled, threads FROM results ";

std::vector<std::string> parse_string_array(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  std::vector<std::string> out;
  if (j.is_array())
    for (auto& e : j) if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

std::vector<std::size_t> parse_positions(const std::string& text) {
  std::vector<std::size_t> out;
  if (text.empty()) return out;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_array())
    for (auto& e : j) if (e.is_number_unsigned()) out.push_back(e.get<std::size_t>());
  return out;
}

std::string positions_text(const std::vector<std::size_t>& positions) {
  return positions.empty() ? std::string() : nlohmann::json(positions).dump();
}

CiImportRecord counted_import(const CiImportRecord& import, const std::vector<CiResultRow>& results) {
  CiImportRecord out = import;
  out.tests = int(results.size());
  out.failed = 0;
  out.flaky_by_rerun = 0;
  for (const auto& r : results) {
    if (r.outcome == "fail" || r.outcome == "error") ++out.failed;
    if (r.outcome == "pass" && r.failed_attempts > 0) ++out.flaky_by_rerun;
  }
  out.replaced.reset();
  return out;
}

void SuspectList::add_reason(const std::string& test, Reason reason, const std::string& commit) {
  auto& suspect = suspects_[test];
  suspect.test = test;
  switch (reason) {
    case Reason::same_commit:
      suspect.same_commit = true;
      suspect.commits.push_back(commit);
      break;
    case Reason::passed_on_rerun: suspect.passed_on_rerun = true; break;
    case Reason::mixed_recently: suspect.mixed_recently = true; break;
  }
}

std::vector<std::string> SuspectList::tests() const {
  std::vector<std::string> out;
  for (const auto& [test, suspect] : suspects_) out.push_back(test);
  return out;
}

void SuspectList::add_observation(CiObservation o, int max_evidence) {
  auto it = suspects_.find(o.result.test);
  if (it == suspects_.end()) return;
  auto& suspect = it->second;
  const auto& outcome = o.result.outcome;
  if (outcome == "skipped") {
    ++suspect.skipped;
    return;
  }
  if (outcome == "pass") ++suspect.passed;
  else ++suspect.failed;
  if (outcome == "pass" && o.result.failed_attempts > 0) ++suspect.flaky_by_rerun;
  if (int(suspect.evidence.size()) < max_evidence) suspect.evidence.push_back(std::move(o));
}

const SuspectQuery suspect_queries[3] = {
    {SuspectList::Reason::same_commit,
     "SELECT r.test, i.commit_sha FROM ci_results r JOIN ci_imports i ON i.id = r.import_id "
     "WHERE i.commit_sha <> '' GROUP BY r.test, i.commit_sha "
     "HAVING SUM(CASE WHEN r.outcome = 'pass' THEN 1 ELSE 0 END) > 0 "
     "AND SUM(CASE WHEN r.outcome IN ('fail', 'error') THEN 1 ELSE 0 END) > 0 ORDER BY r.test, i.commit_sha"},
    {SuspectList::Reason::passed_on_rerun,
     "SELECT DISTINCT test, '' FROM ci_results WHERE outcome = 'pass' AND failed_attempts > 0"},
    {SuspectList::Reason::mixed_recently,
     "SELECT test, '' FROM ci_results "
     "WHERE import_id IN (SELECT id FROM ci_imports ORDER BY id DESC LIMIT $1) GROUP BY test "
     "HAVING SUM(CASE WHEN outcome = 'pass' THEN 1 ELSE 0 END) > 0 "
     "AND SUM(CASE WHEN outcome IN ('fail', 'error') THEN 1 ELSE 0 END) > 0"},
};

const char* const suspect_results_sql =
    "SELECT i.id, i.source, i.commit_sha, i.branch, i.imported_at, r.outcome, r.duration_ms, r.message, "
    "r.failed_attempts FROM ci_results r JOIN ci_imports i ON i.id = r.import_id WHERE r.test = $1 "
    "ORDER BY i.id DESC";

std::vector<CiSuspect> SuspectList::sorted() const {
  std::vector<CiSuspect> out;
  for (const auto& [test, suspect] : suspects_) out.push_back(suspect);
  return out;
}

namespace {

// The length of the valid UTF-8 sequence at text[i], or 0 when it is not one.
std::size_t utf8_sequence(const std::string& text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b = byte(i);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  unsigned cp = n == 1 ? b : n == 2 ? b & 0x1f : n == 3 ? b & 0x0f : b & 0x07;
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (byte(i + k) & 0x3f);
  static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;  // overlong, surrogate
  return n;
}

}  // namespace

std::string storable_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '\0') {
      ++i;
      continue;
    }
    std::size_t n = utf8_sequence(text, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace flakescan::store
