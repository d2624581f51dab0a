// The dashboard's pages (api/dashboard_pages.hpp) and routes: plain functions from what the
// store holds to HTML; only the live page of a running scan has a script. The pages in a real
// browser: tests/integration/browser.
#include <catch2/catch.hpp>

#include "support/text.hpp"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "api/dashboard_pages.hpp"
#include "api/dashboard_routes.hpp"
#include "report/verdict_file.hpp"

using namespace flakescan;
using nlohmann::json;

namespace {

store::ScanRecord scan_record(const std::string& state) {
  store::ScanRecord s;
  s.id = "s1<b>";
  s.state = state;
  s.backend = "local";
  s.techniques = {"rerun"};
  s.created_at = "2026-11-25T03:10:00.000Z";
  s.runs_done = 3;
  s.runs_planned = 10;
  return s;
}

using flakescan::text_checks::count_of;
}  // namespace

TEST_CASE("the scan list links every scan and escapes what it shows", "[api][dashboard]") {
  auto page = api::dashboard::scans_page({scan_record("completed"), scan_record("running")});
  CHECK(count_of(page, "href=\"/scans/s1%3Cb%3E\"") == 2);
  CHECK(page.find("s1&lt;b&gt;") != std::string::npos);
  CHECK(page.find("<b>") == std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find(">3 of 10<") != std::string::npos);  // a running scan's progress
  CHECK(api::dashboard::scans_page({}).find("No scan yet") != std::string::npos);
}

TEST_CASE("a running scan's page follows its event stream with its one inline script", "[api][dashboard]") {
  auto page = api::dashboard::scan_live_page(scan_record("running"));
  CHECK(count_of(page, "<script>") == 1);
  CHECK(page.find("data-events=\"/v1/scans/s1%3Cb%3E/events\"") != std::string::npos);
  CHECK(page.find("new EventSource(live.dataset.events)") != std::string::npos);
  CHECK(page.find("script-src &#39;unsafe-inline&#39;; connect-src &#39;self&#39;") != std::string::npos);
  CHECK(page.find("innerHTML") == std::string::npos);  // what the stream says is written as text
  CHECK(page.find("<span id=\"done\">3</span> of <span id=\"planned\">10</span>") != std::string::npos);
}

TEST_CASE("a finished scan's page is its report, linking each test's page", "[api][dashboard]") {
  auto file = report::load_verdict_file(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/report/verdicts_every_category.json");
  REQUIRE(file);
  report::SourceLocator none({});
  auto r = report::locate_all(*file, none, {}, "0.1.0");
  auto page = api::dashboard::scan_report_page(scan_record("completed"), r);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("<h1>flakescan: 5 flaky tests out of 8 scanned</h1>") != std::string::npos);
  CHECK(page.find("href=\"/scans/s1%3Cb%3E/test?name=example.order.LedgerNioTest%23recordsOneEntry\"") != std::string::npos);
  CHECK(page.find("flakescan replay --scan s1&lt;b&gt; --test") != std::string::npos);
  auto one = api::dashboard::test_page(scan_record("completed"), r, 1);
  CHECK(count_of(one, "<article class=\"test") == 1);
  CHECK(one.find("<h1>CachedPriceTest#listPriceWithoutDiscount</h1>") != std::string::npos);
}

TEST_CASE("suspects and quarantine pages from the API's bodies", "[api][dashboard]") {
  json suspects = {{"window", 20}, {"imports", 2}, {"suspects", {{{"test", "a.B#c"}, {"reasons", {"same_commit"}}, {"commits", {"c0ffee"}},
                    {"counts", {{"passed", 1}, {"failed", 1}, {"skipped", 0}, {"flaky_by_rerun", 0}}},
                    {"evidence", {{{"outcome", "fail"}, {"source", "ci-2"}, {"message", "<boom>"}, {"failed_attempts", 0}}}}}}}};
  auto page = api::dashboard::suspects_page(suspects);
  CHECK(page.find("fail in ci-2: &lt;boom&gt;") != std::string::npos);
  CHECK(page.find("<code>c0ffee</code>") != std::string::npos);
  json quarantine = {{"count", 1}, {"tests", {{{"test", "a.B#c"}, {"category", "nio"}, {"scan", "s9"}, {"scan_created_at", "t"}, {"reason", "r"}}}}};
  auto q = api::dashboard::quarantine_page(quarantine);
  CHECK(q.find("href=\"/scans/s9/test?name=a.B%23c\"") != std::string::npos);
  CHECK(api::dashboard::quarantine_page({{"count", 0}, {"tests", json::array()}}).find("No test is quarantined") != std::string::npos);
}
