#include "api/dashboard_pages.hpp"

#include "report/html.hpp"
#include "report/html_pictures.hpp"

#ifndef FLAKESCAN_VERSION
#define FLAKESCAN_VERSION "0.0.0"
#endif

namespace flakescan::api::dashboard {

namespace {

using nlohmann::json;
using report::html::escape;
using report::html::url_component;

// The live page's only script: follows the scan's event stream (the same GET
// /v1/scans/{id}/events the CLI reads; the browser resumes it after a dropped connection)
// and writes what it hears with textContent, never as markup. When the scan ends it reloads,
// and the daemon then serves the scan's report.
constexpr std::string_view live_script = R"js(
(() => {
  const live = document.getElementById('live');
  const el = (id) => document.getElementById(id);
  const source = new EventSource(live.dataset.events);
  const progress = (d) => {
    if (d.runs_planned !== undefined) { el('planned').textContent = d.runs_planned; el('progress').max = Math.max(1, d.runs_planned); }
    if (d.runs_done !== undefined) { el('done').textContent = d.runs_done; el('progress').value = d.runs_done; }
  };
  source.addEventListener('progress', (e) => progress(JSON.parse(e.data)));
  source.addEventListener('run_finished', (e) => {
    const d = JSON.parse(e.data);
    progress(d);
    el('last-run').textContent = 'Run ' + d.run + ' (' + d.technique + ', ' + d.purpose + '): ' +
      (d.outcome || (d.passed + ' passed, ' + d.failed + ' failed')) + (d.infra_reason ? ' (' + d.infra_reason + ')' : '');
  });
  source.addEventListener('verdict', (e) => {
    const v = JSON.parse(e.data);
    const row = el('live-verdicts').tBodies[0].insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = v.test;
    row.appendChild(th);
    const failed = v.runs.failed + ' out of ' + (v.runs.passed + v.runs.failed) + ' runs failed';
    for (const text of [v.verdict.replaceAll('_', ' '), (v.categories || []).join(', ') || 'none', failed])
      row.insertCell().textContent = text;
  });
  source.addEventListener('state', (e) => {
    const d = JSON.parse(e.data);
    el('state').textContent = d.state;
    progress(d);
    if (d.state !== 'queued' && d.state !== 'running') {
      source.close();
      el('last-run').textContent = 'The scan ended (' + d.state + '); loading its report.';
      location.reload();
    }
  });
})();
)js";

std::string num(long long v) { return std::to_string(v); }

std::string page(const std::string& title, const std::string& body, const std::string& script = {}) {
  report::html::Page p;
  p.title = title + " · flakescan";
  p.nav = nav_html();
  p.body = body;
  p.script = script;
  p.generator = "flakescand " FLAKESCAN_VERSION;
  return report::html::render_page(p);
}

std::string scan_href(const std::string& id) { return "/scans/" + url_component(id); }

std::string scan_facts(const store::ScanRecord& s) {
  std::string out = "<p class=\"facts\">" + escape(s.backend) + " backend, techniques ";
  for (std::size_t i = 0; i < s.techniques.size(); ++i) out += (i ? ", " : "") + escape(s.techniques[i]);
  out += ", seed " + num(s.seed) + "; created " + escape(s.created_at);
  if (!s.finished_at.empty()) out += ", finished " + escape(s.finished_at);
  return out + ".</p>";
}

std::string text_of(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

long long int_of(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<long long>() : 0;
}

}  // namespace

std::string nav_html() {
  return "<ul><li><a href=\"/\">Scans</a></li><li><a href=\"/suspects\">Suspects</a></li>"
         "<li><a href=\"/quarantine\">Quarantine</a></li></ul>";
}

std::string message_page(const std::string& title, const std::string& text) {
  return page(title, "<h1>" + escape(title) + "</h1><p>" + escape(text) + "</p><p><a href=\"/\">All scans</a></p>");
}

std::string scans_page(const std::vector<store::ScanRecord>& scans) {
  std::string body = "<h1>Scans</h1>";
  if (scans.empty())
    return page("Scans", body + "<p>No scan yet. Start one with <code>flakescan scan</code> or <code>POST /v1/scans</code>.</p>");
  body += "<div class=\"scroll\"><table class=\"scans stack\"><caption>The " + num(long(scans.size())) +
          " most recent scans, newest first</caption><thead><tr><th scope=\"col\">Scan</th><th scope=\"col\">State</th>"
          "<th scope=\"col\">Created</th><th scope=\"col\">Techniques</th><th scope=\"col\">Tests</th>"
          "<th scope=\"col\">Runs</th><th scope=\"col\">Error</th></tr></thead><tbody>";
  for (const auto& s : scans) {
    std::string techniques;
    for (std::size_t i = 0; i < s.techniques.size(); ++i) techniques += (i ? ", " : "") + s.techniques[i];
    std::string runs = num(s.runs_done) + (s.state == "running" || s.state == "queued" ? " of " + num(s.runs_planned) : "");
    body += "<tr><th scope=\"row\"><a href=\"" + escape(scan_href(s.id)) + "\"><code>" + escape(s.id) + "</code></a></th>"
            "<td data-label=\"State\">" + escape(s.state) + "</td><td data-label=\"Created\">" + escape(s.created_at) +
            "</td><td data-label=\"Techniques\">" + escape(techniques) + "</td><td class=\"num\" data-label=\"Tests\">" +
            num(s.tests_total) + "</td><td class=\"num\" data-label=\"Runs\">" + escape(runs) + "</td><td data-label=\"Error\">" +
            escape(s.error) + "</td></tr>";
  }
  return page("Scans", body + "</tbody></table></div>");
}

std::string scan_report_page(const store::ScanRecord& scan, const report::Report& report) {
  report::html::Links links;
  links.test_page_prefix = scan_href(scan.id) + "/test?name=";
  links.replay_source = "--scan " + scan.id;
  std::string body = "<h1>" + escape(report::html::headline(report)) + "</h1>" + scan_facts(scan) +
                     "<p>Verdict file: <a href=\"/v1/scans/" + escape(url_component(scan.id)) +
                     "/verdicts\">verdicts.json</a> (<code>flakescan report --verdicts FILE --out-dir DIR</code> writes "
                     "this page as index.html).</p>" +
                     report::html::summary_html(report, links) + report::html::tests_html(report, links);
  return page("Scan " + scan.id, body);
}

std::string scan_live_page(const store::ScanRecord& scan) {
  const std::string events = "/v1/scans/" + url_component(scan.id) + "/events";
  std::string body = "<h1>Scan <code>" + escape(scan.id) + "</code></h1>" + scan_facts(scan);
  body += "<section id=\"live\" class=\"live\" aria-labelledby=\"live-h\" data-events=\"" + escape(events) + "\">"
          "<h2 id=\"live-h\">Progress</h2><p role=\"status\" aria-live=\"polite\">State: <strong id=\"state\">" +
          escape(scan.state) + "</strong>; <span id=\"done\">" + num(scan.runs_done) + "</span> of <span id=\"planned\">" +
          num(scan.runs_planned) + "</span> runs done. <progress id=\"progress\" value=\"" + num(scan.runs_done) + "\" max=\"" +
          num(std::max(1, scan.runs_planned)) + "\" aria-label=\"runs done\"></progress></p><p id=\"last-run\">" +
          (scan.state == "queued" ? "Waiting for an earlier scan to finish." : "Waiting for the next run.") +
          "</p><noscript><p>This page follows the scan with a script; reload it to see the progress.</p></noscript></section>";
  body += "<div class=\"scroll\"><table id=\"live-verdicts\" class=\"stack full\"><caption>Verdicts so far (they come when the "
          "scan ends)</caption><thead><tr><th scope=\"col\">Test</th><th scope=\"col\">Verdict</th>"
          "<th scope=\"col\">Categories</th><th scope=\"col\">Runs</th></tr></thead><tbody></tbody></table></div>";
  return page("Scan " + scan.id + " (" + scan.state + ")", body, std::string(live_script));
}

std::string test_page(const store::ScanRecord& scan, const report::Report& report, std::size_t index) {
  report::html::Links links;
  links.replay_source = "--scan " + scan.id;
  const auto& le = report.entries.at(index);
  std::string body = "<p><a href=\"" + escape(scan_href(scan.id)) + "\">Scan <code>" + escape(scan.id) + "</code></a></p>" +
                     "<h1>" + escape(report::html::short_test_name(le.entry.verdict.test)) + "</h1>" +
                     report::html::test_section_html(le, index, links);
  return page(le.entry.verdict.test, body);
}

std::string suspects_page(const json& doc) {
  std::string body = "<h1>Suspects from CI history</h1><p class=\"facts\">Tests whose imported CI results alone look flaky: "
                     "they failed and passed on one commit, passed only on a rerun, or both within the last " +
                     num(int_of(doc, "window")) + " imports (" + num(int_of(doc, "imports")) +
                     " counted). Import results with <code>flakescan import-results</code>.</p>";
  const json& list = doc.contains("suspects") ? doc["suspects"] : json::array();
  if (list.empty()) return page("Suspects", body + "<p>No suspect.</p>");
  body += "<div class=\"scroll\"><table class=\"suspects stack\"><caption>" + num(long(list.size())) +
          (list.size() == 1 ? " suspect" : " suspects") + "</caption><thead><tr><th scope=\"col\">Test</th>"
          "<th scope=\"col\">Why</th><th scope=\"col\">Passed</th><th scope=\"col\">Failed</th>"
          "<th scope=\"col\">Passed on rerun</th><th scope=\"col\">Commits with both</th><th scope=\"col\">Latest failure</th>"
          "</tr></thead><tbody>";
  for (const auto& s : list) {
    std::string reasons, commits, latest;
    for (const auto& r : s.value("reasons", json::array())) reasons += (reasons.empty() ? "" : ", ") + r.get<std::string>();
    for (const auto& c : s.value("commits", json::array())) commits += (commits.empty() ? "" : ", ") + c.get<std::string>();
    // Evidence is newest first: the first result that failed, or passed after failed attempts.
    for (const auto& e : s.value("evidence", json::array())) {
      const bool failed = text_of(e, "outcome") == "fail" || text_of(e, "outcome") == "error";
      if (!failed && int_of(e, "failed_attempts") == 0) continue;
      std::string what = failed ? text_of(e, "outcome") : "passed after " + num(int_of(e, "failed_attempts")) + " failed attempts";
      latest = what + " in " + text_of(e, "source") + (text_of(e, "message").empty() ? "" : ": " + text_of(e, "message"));
      break;
    }
    const json counts = s.value("counts", json::object());
    body += "<tr><th scope=\"row\"><code>" + escape(text_of(s, "test")) + "</code></th><td data-label=\"Why\">" +
            escape(reasons) + "</td><td class=\"num\" data-label=\"Passed\">" + num(int_of(counts, "passed")) +
            "</td><td class=\"num\" data-label=\"Failed\">" + num(int_of(counts, "failed")) +
            "</td><td class=\"num\" data-label=\"Passed on rerun\">" + num(int_of(counts, "flaky_by_rerun")) +
            "</td><td data-label=\"Commits with both\"><code>" + escape(commits) + "</code></td><td data-label=\"Latest failure\">" +
            escape(latest) + "</td></tr>";
  }
  return page("Suspects", body + "</tbody></table></div>");
}

std::string quarantine_page(const json& doc) {
  std::string body = "<h1>Quarantine</h1><p class=\"facts\">Tests whose latest decisive verdict across the scans is flaky. "
                     "As lists: <a href=\"/v1/quarantine?format=notTestFile\">notTestFile lines</a>, "
                     "<a href=\"/v1/quarantine?format=gradle\">a Gradle script</a>.</p>";
  const json& tests = doc.contains("tests") ? doc["tests"] : json::array();
  if (tests.empty()) return page("Quarantine", body + "<p>No test is quarantined.</p>");
  body += "<div class=\"scroll\"><table class=\"quarantine stack\"><caption>" + num(long(tests.size())) +
          (tests.size() == 1 ? " test" : " tests") + "</caption><thead><tr><th scope=\"col\">Test</th>"
          "<th scope=\"col\">Category</th><th scope=\"col\">Scan</th><th scope=\"col\">Reason</th></tr></thead><tbody>";
  for (const auto& t : tests) {
    const std::string scan = text_of(t, "scan"), test = text_of(t, "test");
    body += "<tr><th scope=\"row\"><a href=\"" + escape(scan_href(scan) + "/test?name=" + url_component(test)) + "\"><code>" +
            escape(test) + "</code></a></th><td data-label=\"Category\">" + escape(text_of(t, "category")) +
            "</td><td data-label=\"Scan\"><a href=\"" + escape(scan_href(scan)) + "\"><code>" + escape(scan) + "</code></a> (" +
            escape(text_of(t, "scan_created_at")) + ")</td><td data-label=\"Reason\">" + escape(text_of(t, "reason")) + "</td></tr>";
  }
  return page("Quarantine", body + "</tbody></table></div>");
}

}  // namespace flakescan::api::dashboard
