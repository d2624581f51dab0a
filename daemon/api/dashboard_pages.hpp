#pragma once
// The dashboard's pages (flakescand at /), as plain functions from what the store holds to
// HTML, built from the report layer's pieces (report/html.hpp) so a scan looks the same here
// as in its index.html. Only the live page of a queued or running scan has a script: a few
// lines that follow the scan's event stream (GET /v1/scans/{id}/events) and reload the page
// when the scan ends. Every value goes through report::html::escape().
//   /                         the scans, newest first
//   /scans/{id}               one scan: its report, or its live progress while it runs
//   /scans/{id}/test?name=T   one test of a finished scan
//   /suspects                 tests that look flaky from the imported CI history
//   /quarantine               tests whose latest verdict across scans is flaky
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report.hpp"
#include "store/store.hpp"

namespace flakescan::api::dashboard {

std::string scans_page(const std::vector<store::ScanRecord>& scans);
// A finished scan and its verdicts.
std::string scan_report_page(const store::ScanRecord& scan, const report::Report& report);
// A queued or running scan: its state and progress, filled in live from the event stream.
std::string scan_live_page(const store::ScanRecord& scan);
// One test's section; `index` is its position in the report.
std::string test_page(const store::ScanRecord& scan, const report::Report& report, std::size_t index);
// The bodies of GET /v1/suspects and GET /v1/quarantine (schema/suspects.schema.json,
// schema/quarantine.schema.json).
std::string suspects_page(const nlohmann::json& suspects);
std::string quarantine_page(const nlohmann::json& quarantine);
// A page that says what went wrong (unknown scan, unknown test, scan not finished).
std::string message_page(const std::string& title, const std::string& text);

// The links above every page.
std::string nav_html();

}  // namespace flakescan::api::dashboard
