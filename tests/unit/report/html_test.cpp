// The HTML report (report/html.hpp, html_pictures.hpp): escaping, self-containment, and what
// each picture draws from a verdict's evidence. What a browser makes of the page is checked by
// tests/integration/browser.
#include <catch2/catch.hpp>

#include "support/text.hpp"

#include <regex>

#include "report/html.hpp"
#include "report/html_pictures.hpp"
#include "report_fixture.hpp"

using namespace flakescan;
using namespace flakescan::report;

namespace {

using flakescan::text_checks::count_of;
const LocatedEntry& entry_of(const Report& r, const std::string& test) {
  for (const auto& le : r.entries)
    if (le.entry.verdict.test == test) return le;
  throw std::runtime_error("no entry " + test);
}

Report every_category() {
  auto locator = testing::fixture_locator();
  return testing::fixture_report("verdicts_every_category.json", locator);
}

}  // namespace

TEST_CASE("html escape covers text and attribute values and drops control characters", "[report][html]") {
  CHECK(html::escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  CHECK(html::escape(std::string("x\x01y\x7fz\n\t", 7)) == "xyz\n\t");
  CHECK(html::escape("größe ✓") == "größe ✓");
  CHECK(html::url_component("pkg.C#m[1] x/y") == "pkg.C%23m%5B1%5D%20x%2Fy");
}

TEST_CASE("index.html is self-contained: no script, nothing fetched, a policy that forbids both", "[report][html]") {
  auto page = render_html(every_category());
  CHECK(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("default-src &#39;none&#39;") != std::string::npos);
  CHECK(page.find("script-src") == std::string::npos);
  // No URL but the SVG namespace (an identifier, never fetched).
  std::string rest = std::regex_replace(page, std::regex("http://www\\.w3\\.org/2000/svg"), "");
  CHECK_FALSE(std::regex_search(rest, std::regex("(https?|ftp)://")));
  CHECK_FALSE(std::regex_search(rest, std::regex("(src|href)=\"(?!#)")));
  CHECK(page.find("<title>flakescan: 5 flaky tests out of 8 scanned</title>") != std::string::npos);
}

TEST_CASE("text from the verdict file is escaped wherever it lands", "[report][html]") {
  Report r = every_category();
  auto& v = r.entries.front().entry.verdict;
  v.test = "a.B#m\"><script>x()</script>";
  v.evidence.reason = "<img src=x onerror=y()>";
  for (auto& f : v.findings) f.evidence.details["event_thread"] = "t'\"<b>";  // the schedule is drawn from explore's finding
  auto page = render_html(r);
  CHECK(page.find("<script>x()") == std::string::npos);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("&lt;img src=x onerror=y()&gt;") != std::string::npos);
  CHECK(page.find("t&#39;&quot;&lt;b&gt;") != std::string::npos);
  CHECK(page.find("<b>") == std::string::npos);
}

TEST_CASE("a concurrency verdict of explore: both schedules, the racing statement, the moved message", "[report][html]") {
  auto r = every_category();
  const auto& le = entry_of(r, "demo.android.AsyncWaitTest#thumbnailShownAfterOpen");
  auto facts = html::schedule_facts(le.entry.verdict.evidence);
  REQUIRE(facts);
  CHECK(facts->posted_line == 54);
  CHECK(facts->racing_line == 57);
  CHECK(facts->delayed_to == 58);
  CHECK_FALSE(facts->upper_bound);
  CHECK(facts->thread == "thumbnail-decoder");
  auto svg = html::schedule_picture(*facts, "x");
  CHECK(count_of(svg, "<svg ") == 2);
  CHECK(count_of(svg, "role=\"img\"") == 2);
  CHECK(svg.find("<title id=\"x-pass-t\">Passing schedule (run 111)</title>") != std::string::npos);
  CHECK(svg.find("<title id=\"x-fail-t\">Failing schedule (run 115)</title>") != std::string::npos);
  CHECK(count_of(svg, "line 57 · racing statement") == 2);
  CHECK(count_of(svg, ">moved<") == 1);          // the arrow, in the failing panel only
  CHECK(count_of(svg, "passing schedule ran it here") == 1);
  CHECK(count_of(svg, "▶ message from &#39;thumbnail-decoder&#39;") == 2);
  CHECK(svg.find("delayed to just before line 58, after the racing statement on line 57") != std::string::npos);
}

TEST_CASE("a schedule delayed to the end of the test, with an upper bound", "[report][html]") {
  core::Evidence e;
  e.details = {{"lower_bound_line", "31"}, {"racing_line", "32"}, {"delayed_to_statement", "end"}, {"upper_bound_line", "40"}};
  auto facts = html::schedule_facts(e);
  REQUIRE(facts);
  CHECK_FALSE(facts->delayed_to);
  CHECK(facts->upper_bound == 40);
  auto svg = html::schedule_picture(*facts, "e");
  CHECK(svg.find("line 40 · test waits for it") != std::string::npos);
  CHECK(svg.find("delayed to the end of the test") != std::string::npos);
  // Details without the lines (a concurrency verdict of rerun): no schedule picture.
  CHECK_FALSE(html::schedule_facts(core::Evidence{}));
  e.details["racing_line"] = "x";
  CHECK_FALSE(html::schedule_facts(e));
}

TEST_CASE("an order-dependent victim: failing and passing order, polluter and cleaner marked", "[report][html]") {
  auto r = every_category();
  const auto& le = entry_of(r, "example.order.CachedPriceTest#listPriceWithoutDiscount");
  auto facts = html::order_facts(le.entry.verdict.test, le.entry.verdict.evidence);
  REQUIRE(facts);
  CHECK(facts->role == "victim");
  CHECK(facts->setters == std::vector<std::string>{"example.order.DiscountPolluterTest#cachesDiscountedPrice"});
  CHECK(facts->cleaners == std::vector<std::string>{"example.order.CacheCleanerTest#clearsCache"});
  auto svg = html::order_picture(*facts, "o");
  CHECK(count_of(svg, "<svg ") == 3);
  CHECK(svg.find("Failing order (run 207)") != std::string::npos);
  CHECK(svg.find("Passing order (run 201)") != std::string::npos);
  CHECK(svg.find("Passing with a cleaner") != std::string::npos);
  CHECK(count_of(svg, ">polluter</text>") == 2);
  CHECK(count_of(svg, ">cleaner</text>") == 1);
  CHECK(count_of(svg, ">fails</text>") == 1);
  CHECK(count_of(svg, ">passes</text>") == 2);
}

TEST_CASE("brittle and NIO orders", "[report][html]") {
  auto r = every_category();
  const auto& brittle = entry_of(r, "example.order.CurrencyBrittleTest#formatsInCurrency");
  auto b = html::order_picture(*html::order_facts(brittle.entry.verdict.test, brittle.entry.verdict.evidence), "b");
  CHECK(count_of(b, ">state-setter</text>") == 1);
  CHECK(b.find("Brittle:") != std::string::npos);
  const auto& nio = entry_of(r, "example.order.LedgerNioTest#recordsOneEntry");
  auto n = html::order_picture(*html::order_facts(nio.entry.verdict.test, nio.entry.verdict.evidence), "n");
  CHECK(n.find(">run 1 · passes</text>") != std::string::npos);
  CHECK(n.find(">run 2 · fails</text>") != std::string::npos);
}

TEST_CASE("long orders keep the marked tests and fold the others", "[report][html]") {
  html::OrderFacts f;
  f.test = "p.V#v";
  f.role = "victim";
  for (int i = 0; i < 20; ++i) f.failing_order.push_back("p.O#t" + std::to_string(i));
  f.failing_order.insert(f.failing_order.begin() + 10, "p.P#polluter");
  f.failing_order.push_back("p.V#v");
  f.setters = {"p.P#polluter"};
  auto svg = html::order_picture(f, "l");
  CHECK(count_of(svg, "other tests</text>") == 2);
  CHECK(svg.find("… 10 other tests") != std::string::npos);
  CHECK(svg.find(">polluter</text>") != std::string::npos);
  CHECK(svg.find("<title>22. p.V#v (fails)</title>") != std::string::npos);  // positions count the folded tests
}

TEST_CASE("the run strip: in order from evidence.run_strip, else grouped from the counts", "[report][html]") {
  std::vector<StripRun> strip = {{7, "fail", "rerun"}, {8, "pass", "rerun"}, {9, "infra", "noise"}};
  auto svg = html::run_strip_picture(strip, {}, "s");
  CHECK(count_of(svg, "<g><title>") == 3);
  CHECK(svg.find("<title>run 7: fail (rerun)</title>") < svg.find("<title>run 8: pass (rerun)</title>"));
  CHECK(svg.find("1 passed, 1 failed, 1 without an outcome") != std::string::npos);
  auto grouped = html::run_strip_picture({}, core::RunCounts{5, 3, 2, 0, 0}, "c");
  CHECK(count_of(grouped, "<title>pass</title>") == 3);
  CHECK(count_of(grouped, "<title>fail</title>") == 2);
  CHECK(grouped.find("grouped by outcome") != std::string::npos);
  CHECK(html::run_strip_picture({}, {}, "none").empty());
  std::vector<StripRun> many(600, StripRun{1, "pass", ""});
  CHECK(html::run_strip_picture(many, {}, "m").find("… and 100 more runs") != std::string::npos);
}

TEST_CASE("every test gets a section with its verdict, categories, runs and reproducer", "[report][html]") {
  auto r = every_category();
  auto body = html::tests_html(r, {});
  CHECK(count_of(body, "<article class=\"test") == 8);
  CHECK(count_of(body, "<figure class=\"schedule\">") == 1);
  CHECK(count_of(body, "<figure class=\"orders\">") == 3);
  CHECK(count_of(body, "<figure class=\"strip\">") == 8);
  CHECK(body.find("flakescan replay --verdicts verdicts.json --test &#39;example.order.CachedPriceTest#listPriceWithoutDiscount&#39;") !=
        std::string::npos);
  // The order finding of FirstRunFlakyTest does not decide: listed, not drawn.
  const auto& first_run = entry_of(r, "example.order.FirstRunFlakyTest#failsOnFirstRunOnly");
  auto section = html::test_section_html(first_run, 4, {});
  CHECK(section.find("no: the failing order (alone) also passed") != std::string::npos);
  CHECK(section.find("figure class=\"orders\"") == std::string::npos);
  html::Links dashboard{"/scans/s1/test?name=", "--scan s1"};
  auto linked = html::summary_html(r, dashboard);
  CHECK(linked.find("href=\"/scans/s1/test?name=example.order.LedgerNioTest%23recordsOneEntry\"") != std::string::npos);
}

TEST_CASE("the verdict file keeps evidence.run_strip through parse, merge and serialize", "[report][html]") {
  auto file = load_verdict_file((testing::fixture_dir() / "verdicts_every_category.json").string());
  REQUIRE(file);
  const auto& strip = file->entries.front().run_strip;
  REQUIRE(strip.size() == 16);
  CHECK(strip[11].run == 112);
  CHECK(strip[11].outcome == "fail");
  CHECK(strip[11].technique == "explore");
  auto again = parse_verdict_file(serialize_verdict_file(*file));
  REQUIRE(again);
  CHECK(again->entries.front().run_strip.size() == 16);
  auto merged = merge_verdict_files({*file, *file});
  CHECK(merged.entries.front().run_strip.size() == 32);
  CHECK_FALSE(parse_verdict_file(R"({"schema_version":1,"scan":{"id":"s","state":"completed"},"verdicts":[
    {"test":"a.B#c","verdict":"flaky","runs":{"total":1,"passed":1,"failed":0},"evidence":{"run_strip":[{"outcome":"pass"}]}}]})"));
}

TEST_CASE("an implementation-dependent verdict: the API, the line that reads the order, the seed, the fix", "[report][html]") {
  Report r = every_category();
  auto& v = r.entries.front().entry.verdict;
  v.findings.clear();
  v.verdict = core::VerdictKind::flaky;
  v.category = core::Category::implementation_dependent;
  v.technique = "shuffle";
  auto& d = v.evidence.details;
  d = {{"api", "HashMap.entrySet iteration"},
       {"user_frame", "example.shuffle.app.ReportRenderer.summary(ReportRenderer.java:21)"},
       {"via", "HashMap$EntrySet.iterator"},
       {"seed", "40213"},
       {"mode", "full"},
       {"seeds", "40213,7,9"},
       {"failing_seeds", "40213"},
       {"located", "one site"},
       {"locate_runs", "3"},
       {"frames", "example.shuffle.app.ReportRenderer.summary(ReportRenderer.java:21)\nexample.shuffle.ReportRendererTest.x(ReportRendererTest.java:9)"},
       {"fix", "a LinkedHashMap at line 14"},
       {"fix_kind", "linked_allocation"},
       {"patch", "--- a/R.java\n+++ b/R.java\n@@ -1,1 +1,1 @@\n-Map<String, Integer> m = new HashMap<>();\n+Map<String, Integer> m = new LinkedHashMap<>();\n"},
       {"verified_by_run", "17"}};
  auto page = render_html(r);
  CHECK(page.find("<h4>Unspecified order</h4>") != std::string::npos);
  CHECK(page.find("<code>HashMap.entrySet iteration</code>") != std::string::npos);
  CHECK(page.find("<code>example.shuffle.app.ReportRenderer.summary(ReportRenderer.java:21)</code>") != std::string::npos);
  CHECK(page.find("40213 (mode full); failing seeds 40213 of 40213,7,9") != std::string::npos);
  CHECK(page.find("one site, in 3 runs") != std::string::npos);
  CHECK(page.find("Fix: a LinkedHashMap at line 14") != std::string::npos);
  CHECK(page.find("+Map&lt;String, Integer&gt; m = new LinkedHashMap&lt;&gt;();") != std::string::npos);
  CHECK(page.find("verified by run 17") != std::string::npos);

  // No search was needed when the failing run permuted one site: no "in 0 runs".
  d["located"] = "one site: the only one the failing run permuted";
  d["locate_runs"] = "0";
  page = render_html(r);
  CHECK(page.find("one site: the only one the failing run permuted</td>") != std::string::npos);
  CHECK(page.find("in 0 runs") == std::string::npos);

  // A finding that does not decide (its failure did not come back) gets no such section.
  v.findings = {core::Finding{.technique = "shuffle", .verdict = core::VerdictKind::flaky,
                              .category = core::Category::implementation_dependent, .evidence = v.evidence,
                              .not_deciding = "passed under its seed again"}};
  CHECK(render_html(r).find("<h4>Unspecified order</h4>") == std::string::npos);
}

TEST_CASE("a not-flaky test's section says what its passes rule out, when its verdict says it", "[report][html]") {
  auto locator = testing::fixture_locator();
  auto page = render_html(testing::fixture_report("verdicts_clean.json", locator));
  CHECK(count_of(page, "<p class=\"facts\">Rules out failing 46 % of executions or more, at 95 % confidence") == 1);
}
