#include "history/history.hpp"

#include <set>

#include "report/junit_import.hpp"
#include "report/report.hpp"

namespace flakescan::history {

namespace {

using nlohmann::json;
using util::Errc;

util::Result<bool> check_text(const std::string& name, const std::string& value, std::size_t max_bytes, bool required,
                              bool allow_space) {
  if (value.empty()) {
    if (required) return util::fail(Errc::invalid_argument, "'" + name + "' is required (the CI run's id)");
    return true;
  }
  if (value.size() > max_bytes)
    return util::fail(Errc::invalid_argument, "'" + name + "' is longer than " + std::to_string(max_bytes) + " bytes");
  for (unsigned char c : value) {
    if (c < 0x20 || c == 0x7f)
      return util::fail(Errc::invalid_argument, "'" + name + "' holds a control character");
    if (c == ' ' && !allow_space) return util::fail(Errc::invalid_argument, "'" + name + "' holds a space");
  }
  return true;
}

json text_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

}  // namespace

util::Result<bool> validate(const ImportParams& p) {
  if (auto r = check_text("source", p.source, 256, true, true); !r) return r;
  if (auto r = check_text("commit", p.commit, 128, false, false); !r) return r;
  return check_text("branch", p.branch, 256, false, true);
}

util::Result<json> import_results(store::Store& store, std::string_view xml, const ImportParams& params) {
  if (auto ok = validate(params); !ok) return std::unexpected(ok.error());
  auto parsed = report::parse_junit_xml(xml);
  if (!parsed) return std::unexpected(parsed.error());
  std::vector<store::CiResultRow> rows;
  rows.reserve(parsed->results.size());
  int passed = 0, skipped = 0;
  for (const auto& r : parsed->results) {
    rows.push_back({.test = r.test, .outcome = std::string(report::imported_outcome_name(r.outcome)),
                    .duration_ms = r.duration_ms, .message = r.message, .failed_attempts = r.failed_attempts});
    passed += r.outcome == report::ImportedOutcome::pass;
    skipped += r.outcome == report::ImportedOutcome::skipped;
  }
  auto stored = store.import_ci_results({.source = params.source, .commit = params.commit, .branch = params.branch}, rows);
  if (!stored) return std::unexpected(stored.error());
  return json{{"id", stored->id},
              {"source", stored->source},
              {"commit", text_or_null(stored->commit)},
              {"branch", text_or_null(stored->branch)},
              {"imported_at", stored->imported_at},
              {"imported", stored->tests},
              {"passed", passed},
              {"failed", stored->failed},
              {"skipped", skipped},
              {"flaky_by_rerun", stored->flaky_by_rerun},
              {"testcases", parsed->testcases},
              {"ignored", parsed->ignored},
              {"replaced", stored->replaced ? json(*stored->replaced) : json(nullptr)},
              {"links", {{"suspects", "/v1/suspects"}}}};
}

util::Result<json> suspects(store::Store& store, int window) {
  if (window < 1 || window > max_suspect_window)
    return util::fail(Errc::invalid_argument, "'window' must be between 1 and " + std::to_string(max_suspect_window));
  auto total = store.ci_import_count();
  if (!total) return std::unexpected(total.error());
  auto found = store.ci_suspects(window);
  if (!found) return std::unexpected(found.error());
  json list = json::array();
  for (const auto& s : *found) {
    json reasons = json::array();
    if (s.same_commit) reasons.push_back("same_commit");
    if (s.passed_on_rerun) reasons.push_back("passed_on_rerun");
    if (s.mixed_recently) reasons.push_back("mixed_recently");
    json evidence = json::array();
    for (const auto& o : s.evidence)
      evidence.push_back({{"import", o.import_id},
                          {"source", o.source},
                          {"commit", text_or_null(o.commit)},
                          {"branch", text_or_null(o.branch)},
                          {"imported_at", o.imported_at},
                          {"outcome", o.result.outcome},
                          {"failed_attempts", o.result.failed_attempts},
                          {"message", o.result.message}});
    list.push_back({{"test", s.test},
                    {"reasons", reasons},
                    {"commits", s.commits},
                    {"counts",
                     {{"passed", s.passed}, {"failed", s.failed}, {"skipped", s.skipped}, {"flaky_by_rerun", s.flaky_by_rerun}}},
                    {"evidence", evidence}});
  }
  return json{{"window", window}, {"imports", std::min(window, *total)}, {"suspects", list}};
}

util::Result<QuarantineFormat> parse_quarantine_format(std::string_view name) {
  if (name.empty() || name == "json") return QuarantineFormat::json;
  if (name == "notTestFile") return QuarantineFormat::not_test_file;
  if (name == "gradle") return QuarantineFormat::gradle;
  return util::fail(Errc::invalid_argument,
                    "'format' must be json, notTestFile or gradle, not '" + std::string(name) + "'");
}

util::Result<Rendered> quarantine(store::Store& store, QuarantineFormat format) {
  auto rows = store.quarantine();
  if (!rows) return std::unexpected(rows.error());
  if (format == QuarantineFormat::json) {
    json tests = json::array();
    for (const auto& r : *rows) {
      // The verdict's own sentence of evidence, when its stored body has one.
      json body = json::parse(r.body, nullptr, false);
      std::string reason;
      if (body.is_object() && body.contains("evidence") && body["evidence"].is_object() &&
          body["evidence"].contains("reason") && body["evidence"]["reason"].is_string())
        reason = body["evidence"]["reason"].get<std::string>();
      tests.push_back({{"test", r.test},
                       {"category", text_or_null(r.category)},
                       {"scan", r.scan_id},
                       {"scan_created_at", r.scan_created_at},
                       {"reason", reason},
                       {"links", {{"verdicts", "/v1/scans/" + r.scan_id + "/verdicts"}}}});
    }
    return Rendered{"application/json", json{{"count", rows->size()}, {"tests", tests}}.dump()};
  }
  // The report layer's writers render from a Report: one flaky entry per quarantined test.
  report::Report rep;
  std::set<std::string> scans;
  for (const auto& r : *rows) {
    report::LocatedEntry le;
    le.entry.verdict.test = r.test;
    le.entry.verdict.verdict = core::VerdictKind::flaky;
    auto hash = r.test.find('#');
    le.entry.class_name = r.test.substr(0, hash);
    le.entry.method = hash == std::string::npos ? std::string() : r.test.substr(hash + 1);
    rep.entries.push_back(std::move(le));
    scans.insert(r.scan_id);
  }
  for (const auto& id : scans) rep.scan.id += (rep.scan.id.empty() ? "" : ", ") + id;
  if (rep.scan.id.empty()) rep.scan.id = "none: nothing is quarantined";
  if (format == QuarantineFormat::not_test_file) return Rendered{"text/plain; charset=utf-8", report::render_quarantine_txt(rep)};
  return Rendered{"text/plain; charset=utf-8", report::render_quarantine_gradle(rep)};
}

}  // namespace flakescan::history
