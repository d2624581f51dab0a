#include <catch2/catch.hpp>

#include "scan/scan_json.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {
store::ScanRecord finished_record() {
  store::ScanRecord r;
  r.id = "s0123456789ab";
  r.state = "completed";
  r.backend = "local";
  r.techniques = {"rerun", "order"};
  r.seed = 7;
  r.created_at = "2026-11-28T08:00:00Z";
  r.started_at = "2026-11-28T08:00:01Z";
  r.finished_at = "2026-11-28T08:01:00Z";
  r.tests_total = 3;
  r.runs_done = 12;
  r.runs_planned = 12;
  return r;
}
}  // namespace

TEST_CASE("a scan's status body has every documented field", "[scan][json]") {
  json s = scan::scan_status_json(finished_record());
  CHECK(s == json{{"id", "s0123456789ab"},
                  {"state", "completed"},
                  {"backend", "local"},
                  {"techniques", {"rerun", "order"}},
                  {"seed", 7},
                  {"created_at", "2026-11-28T08:00:00Z"},
                  {"started_at", "2026-11-28T08:00:01Z"},
                  {"finished_at", "2026-11-28T08:01:00Z"},
                  {"error", nullptr},
                  {"progress", {{"tests", 3}, {"runs_done", 12}, {"runs_planned", 12}}},
                  {"links", {{"self", "/v1/scans/s0123456789ab"},
                             {"events", "/v1/scans/s0123456789ab/events"},
                             {"verdicts", "/v1/scans/s0123456789ab/verdicts"}}}});
}

TEST_CASE("the verdict file's scan object is the status body's subset of the schema", "[scan][json]") {
  store::ScanRecord r = finished_record();
  r.finished_at.clear();
  r.error = "rerun: boom";
  json status = scan::scan_status_json(r);
  json scan = scan::verdict_file_scan_json(r);
  CHECK(scan == json{{"id", "s0123456789ab"}, {"state", "completed"}, {"backend", "local"},
                     {"techniques", {"rerun", "order"}}, {"seed", 7}, {"created_at", "2026-11-28T08:00:00Z"},
                     {"finished_at", nullptr}, {"error", "rerun: boom"}});
  for (const auto& [key, value] : scan.items()) CHECK(status[key] == value);
}
