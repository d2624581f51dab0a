// The sections of the HTML report: the summary and one article per test (html.hpp), and
// index.html itself (render_html in report.hpp).
#include <algorithm>
#include <tuple>

#include "report/html.hpp"
#include "report/html_pictures.hpp"
#include "report/text.hpp"

namespace flakescan::report {

namespace html {

namespace {

constexpr std::size_t max_order_items = 60;  // per run table; the verdict file has the rest

std::string num(long long v) { return std::to_string(v); }

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string test_href(const LocatedEntry& le, std::size_t index, const Links& links) {
  if (links.test_page_prefix.empty()) return "#test-" + num(index);
  return links.test_page_prefix + url_component(le.entry.verdict.test);
}

std::string categories_html(const core::Verdict& v) {
  std::string out;
  for (auto c : core::categories_of(v)) out += (out.empty() ? "" : " ") + category_tag(c);
  return out.empty() ? "none" : out;
}

std::string location_text(const LocatedEntry& le) {
  if (le.path.empty()) return {};
  std::string s = le.path;
  if (le.where && le.where->line > 0) s += ":" + num(le.where->line);
  return s;
}

std::string runs_text(const core::RunCounts& r) {
  std::string s = runs_failed_phrase(r);
  std::vector<std::string> extra;
  if (r.skipped) extra.push_back(num(r.skipped) + " skipped");
  if (r.infra) extra.push_back(num(r.infra) + " cut short by the infrastructure");
  for (std::size_t i = 0; i < extra.size(); ++i) s += (i ? ", " : " (") + extra[i];
  return s + (extra.empty() ? "" : ")");
}

// "Deciding": a flaky finding gives its category unless its condition did not decide the
// outcome (not_deciding); other findings give none.
std::string findings_table(const core::Verdict& v) {
  auto findings = core::findings_of(v);
  std::string out = "<div class=\"scroll\"><table class=\"findings stack\"><caption>What each technique found</caption><thead><tr>"
                    "<th scope=\"col\">Technique</th><th scope=\"col\">Verdict</th><th scope=\"col\">Category</th>"
                    "<th scope=\"col\">Reason</th><th scope=\"col\">Deciding</th></tr></thead><tbody>";
  for (const auto& f : findings) {
    out += "<tr><th scope=\"row\">" + escape(f.technique.empty() ? "(none)" : f.technique) + "</th><td data-label=\"Verdict\">" +
           verdict_badge(f.verdict) + "</td><td data-label=\"Category\">" +
           (f.category == core::Category::none ? std::string("none") : category_tag(f.category)) + "</td><td data-label=\"Reason\">" +
           escape(f.evidence.reason) + "</td><td data-label=\"Deciding\">" +
           (f.verdict != core::VerdictKind::flaky ? std::string("—")
            : f.not_deciding.empty()               ? std::string("yes")
                                                   : "no: " + escape(f.not_deciding)) +
           "</td></tr>";
  }
  return out + "</tbody></table></div>";
}

std::string failures_table(const core::Verdict& v) {
  if (v.evidence.failures.empty()) return {};
  std::string out = "<div class=\"scroll\"><table class=\"failures stack\"><caption>Failure signatures</caption><thead><tr>"
                    "<th scope=\"col\">Signature</th><th scope=\"col\">Exception</th><th scope=\"col\">Message</th>"
                    "<th scope=\"col\">Runs</th><th scope=\"col\">Example run</th></tr></thead><tbody>";
  for (const auto& g : v.evidence.failures) {
    out += "<tr><th scope=\"row\"><code>" + escape(g.signature) + "</code></th><td data-label=\"Exception\"><code>" +
           escape(g.exception_type) + "</code></td><td data-label=\"Message\">" + escape(cut_utf8(g.message, 2000)) +
           "</td><td class=\"num\" data-label=\"Runs\">" + num(g.count) + "</td><td class=\"num\" data-label=\"Example run\">" +
           (g.example_run ? num(g.example_run) : std::string()) + "</td></tr>";
  }
  return out + "</tbody></table></div>";
}

std::string run_section(const std::string& heading, const std::optional<RunDetail>& run, const std::string& id) {
  std::string out = "<section aria-labelledby=\"" + id + "\"><h4 id=\"" + id + "\">" + escape(heading) + "</h4>";
  if (!run) return out + "<p>None observed.</p></section>";
  const RunDetail& r = *run;
  auto row = [](const std::string& name, const std::string& value_html) {
    return "<tr><th scope=\"row\">" + name + "</th><td>" + value_html + "</td></tr>";
  };
  out += "<table><caption class=\"sr\">" + escape(heading) + " " + num(r.id) + "</caption><tbody>";
  out += row("Run", num(r.id));
  if (!r.outcome.empty()) out += row("Outcome", escape(r.outcome));
  if (r.seed) out += row("Seed", num(*r.seed));
  if (r.duration_ms > 0) out += row("Duration", escape(std::to_string(static_cast<long long>(r.duration_ms + 0.5))) + " ms");
  if (!r.exception.empty()) out += row("Exception", "<code>" + escape(r.exception) + "</code>");
  if (!r.message.empty()) out += row("Message", escape(cut_utf8(r.message, 4000)));
  if (!r.signature.empty()) out += row("Signature", "<code>" + escape(r.signature) + "</code>");
  if (!r.order.empty()) {
    std::string list = "<ol class=\"order\">";
    for (std::size_t i = 0; i < r.order.size() && i < max_order_items; ++i) list += "<li><code>" + escape(r.order[i]) + "</code></li>";
    list += "</ol>";
    if (r.order.size() > max_order_items) list += "<p>… and " + num(long(r.order.size() - max_order_items)) + " more (verdicts.json has them all)</p>";
    out += row("Order (" + num(long(r.order.size())) + (r.order.size() == 1 ? " test)" : " tests)"), list);
  }
  out += "</tbody></table>";
  if (!r.stack.empty())
    out += "<details><summary>Stack trace</summary><pre>" + escape(cut_utf8(r.stack, 16000)) + "</pre></details>";
  return out + "</section>";
}

std::string reproducer_html(const core::Verdict& v, const Links& links) {
  const bool failed = v.evidence.failing_run || !v.evidence.reproducer.empty();
  if (!failed || v.verdict == core::VerdictKind::not_flaky) return {};
  std::string out = "<h4>Reproduce</h4><pre class=\"cmd\"><code>flakescan replay " + escape(links.replay_source) +
                    " --test " + escape(shell_quote(v.test)) + "</code></pre>";
  if (!v.evidence.reproducer.empty()) {
    out += "<p>It re-runs the failing order in one process:</p><ol class=\"order\">";
    for (const auto& t : v.evidence.reproducer) out += "<li><code>" + escape(t) + "</code></li>";
    out += "</ol>";
  } else {
    out += "<p>It re-runs the failing run's tests in one process.</p>";
  }
  return out;
}

// What `repair` found for the test (the polluted field and the cleaner statements) or
// `shuffle` (the fix), and the verified patch; the finding's sentence (why there is none)
// when there is no patch.
std::string repair_html(const core::Verdict& v) {
  auto f = repair_finding(v);
  if (!f) return {};
  const auto& d = f->evidence.details;
  auto get = [&](const char* key) {
    auto it = d.find(key);
    return it == d.end() ? std::string() : it->second;
  };
  const std::string field = get("polluted_field"), cleaner = get("cleaner"), patch = get("patch"), run = get("verified_by_run");
  std::string out = "<section class=\"repair\"><h4>Repair</h4>";
  if (!field.empty()) out += "<p>Polluted field: <code>" + escape(field) + "</code></p>";
  if (auto fix = get("fix"); !fix.empty()) out += "<p>Fix: " + escape(fix) + "</p>";
  if (!cleaner.empty()) out += "<p>Statements that make it pass:</p><pre><code>" + escape(cut_utf8(cleaner, 4000)) + "</code></pre>";
  if (!patch.empty()) {
    out += "<p>The patch";
    if (auto file = get("patch_file"); !file.empty()) out += " to <code>" + escape(file) + "</code>";
    out += run.empty() ? std::string(" (verified; in flakescan-repairs.patch):")
                       : " (verified by run " + escape(run) + "; in flakescan-repairs.patch):";
    out += "</p><pre class=\"patch\">" + escape(cut_utf8(patch, 16000)) + "</pre>";
  } else {
    auto sentence = get("repair");
    if (sentence.empty()) sentence = get("fix_refused");
    if (sentence.empty()) sentence = f->evidence.reason;
    out += "<p>No patch: " + escape(sentence.empty() ? std::string("none was verified.") : sentence) + "</p>";
  }
  return out + "</section>";
}

// What `shuffle` found for an implementation-dependent test: the API and the line that reads
// the unspecified order, the seed that reorders it, and how the line was located.
std::string shuffle_html(const core::Verdict& v) {
  for (const auto& f : core::findings_of(v)) {
    if (f.category != core::Category::implementation_dependent || !f.not_deciding.empty()) continue;
    const auto& d = f.evidence.details;
    auto get = [&](const char* key) {
      auto it = d.find(key);
      return it == d.end() ? std::string() : it->second;
    };
    auto row = [](const std::string& name, const std::string& value_html) {
      return "<tr><th scope=\"row\">" + name + "</th><td>" + value_html + "</td></tr>";
    };
    std::string out = "<section class=\"shuffle\"><h4>Unspecified order</h4><table><tbody>";
    if (auto api = get("api"); !api.empty()) out += row("API", "<code>" + escape(api) + "</code>");
    const std::string at = get("user_frame").empty() ? get("site_frame") : get("user_frame");
    if (!at.empty()) out += row("Read at", "<code>" + escape(at) + "</code>");
    if (auto via = get("via"); !via.empty()) out += row("Through the JDK", "<code>" + escape(via) + "</code>");
    out += row("Seed", escape(get("seed")) + " (mode " + escape(get("mode")) + "); failing seeds " + escape(get("failing_seeds")) +
                           " of " + escape(get("seeds")));
    if (auto located = get("located"); !located.empty()) {
      auto runs = get("locate_runs");
      out += row("Located", escape(located) + (runs.empty() || runs == "0" ? "" : ", in " + escape(runs) + " runs"));
    }
    if (auto jdk = get("shuffle_jdk"); !jdk.empty()) out += row("Shuffling JDK", escape(jdk));
    out += "</tbody></table>";
    if (auto frames = get("frames"); !frames.empty())
      out += "<details><summary>Stack at the read</summary><pre>" + escape(cut_utf8(frames, 8000)) + "</pre></details>";
    return out + "</section>";
  }
  return {};
}

struct Group {
  core::VerdictKind kind;
  const char* id;
  const char* heading;
};

constexpr Group groups[] = {
    {core::VerdictKind::flaky, "flaky", "Flaky tests"},
    {core::VerdictKind::failing, "failing", "Failing in every run (broken, not flaky)"},
    {core::VerdictKind::could_not_run, "could-not-run", "Could not run"},
    {core::VerdictKind::skipped, "skipped", "Skipped"},
    {core::VerdictKind::not_flaky, "not-flaky", "Not flaky"},
};

}  // namespace

std::string headline(const Report& report) {
  const auto flaky = count_kind(report, core::VerdictKind::flaky);
  return "flakescan: " + num(long(flaky)) + (flaky == 1 ? " flaky test" : " flaky tests") + " out of " +
         num(long(report.entries.size())) + " scanned";
}

std::string summary_html(const Report& report, const Links& links) {
  const auto& s = report.scan;
  std::string out = "<section aria-labelledby=\"summary\"><h2 id=\"summary\">Summary</h2><p class=\"facts\">Scan <code>" +
                    escape(s.id) + "</code>: " + escape(s.state);
  if (!s.backend.empty()) out += ", " + escape(s.backend) + " backend";
  if (!s.techniques.empty()) {
    out += ", techniques ";
    for (std::size_t i = 0; i < s.techniques.size(); ++i) out += (i ? ", " : "") + escape(s.techniques[i]);
  }
  if (s.seed) out += ", seed " + num(*s.seed);
  if (!s.created_at.empty()) out += "; started " + escape(s.created_at);
  if (!s.finished_at.empty()) out += ", finished " + escape(s.finished_at);
  out += ".</p>";
  if (!s.error.empty()) out += "<p class=\"note\"><strong>The scan did not complete:</strong> " + escape(s.error) + "</p>";
  out += "<table class=\"counts\"><caption>Verdicts</caption><thead><tr>";
  for (const auto& g : groups) out += "<th scope=\"col\">" + std::string(g.kind == core::VerdictKind::failing ? "Failing" : g.heading) + "</th>";
  out += "</tr></thead><tbody><tr>";
  for (const auto& g : groups) {
    auto n = count_kind(report, g.kind);
    out += "<td>" + (n ? "<a href=\"#" + std::string(g.id) + "\">" + num(long(n)) + "</a>" : std::string("0")) + "</td>";
  }
  out += "</tr></tbody></table>";
  if (report.entries.empty()) return out + "<p>No test was scanned.</p></section>";
  out += "<div class=\"scroll\"><table class=\"tests stack\"><caption>Every test scanned</caption><thead><tr><th scope=\"col\">Test</th>"
         "<th scope=\"col\">Verdict</th><th scope=\"col\">Categories</th><th scope=\"col\">Runs</th></tr></thead><tbody>";
  for (const auto& g : groups) {
    for (std::size_t i = 0; i < report.entries.size(); ++i) {
      const auto& le = report.entries[i];
      const auto& v = le.entry.verdict;
      if (v.verdict != g.kind) continue;
      out += "<tr><th scope=\"row\"><a href=\"" + escape(test_href(le, i, links)) + "\"><code>" + escape(v.test) +
             "</code></a></th><td data-label=\"Verdict\">" + verdict_badge(v.verdict) + "</td><td data-label=\"Categories\">" +
             categories_html(v) + "</td><td data-label=\"Runs\">" + escape(runs_text(v.runs)) + "</td></tr>";
    }
  }
  return out + "</tbody></table></div></section>";
}

std::string test_section_html(const LocatedEntry& le, std::size_t index, const Links& links) {
  const auto& v = le.entry.verdict;
  const std::string id = "test-" + num(long(index));
  std::string out = "<article class=\"test verdict-" + std::string(core::verdict_name(v.verdict)) + "\" id=\"" + id +
                    "\" aria-labelledby=\"" + id + "-h\"><header><h3 id=\"" + id + "-h\"><code>" + escape(v.test) + "</code></h3>" +
                    verdict_badge(v.verdict) + (core::categories_of(v).empty() ? "" : " " + categories_html(v)) + "</header>";
  std::string facts;
  if (auto where = location_text(le); !where.empty()) facts += "<code>" + escape(where) + "</code> · ";
  facts += escape(runs_text(v.runs));
  if (!v.technique.empty()) facts += " · decided by " + escape(v.technique);
  out += "<p class=\"facts\">" + facts + "</p>";
  if (!v.evidence.reason.empty()) out += "<p class=\"reason\">" + escape(v.evidence.reason) + "</p>";
  if (auto it = v.evidence.details.find("rules_out"); it != v.evidence.details.end() && v.verdict == core::VerdictKind::not_flaky)
    out += "<p class=\"facts\">Rules out " + escape(it->second) + "</p>";
  if (!links.test_page_prefix.empty())
    out += "<p><a href=\"" + escape(test_href(le, index, links)) + "\">This test on its own page</a></p>";
  const bool quiet = v.verdict == core::VerdictKind::not_flaky;
  if (!quiet || core::findings_of(v).size() > 1) out += findings_table(v);
  out += failures_table(v);
  if (!quiet || le.entry.passing_run) {
    out += "<div class=\"runs\">" + run_section("Passing run", le.entry.passing_run, id + "-pass");
    if (!quiet) out += run_section("Failing run", le.entry.failing_run, id + "-fail");
    out += "</div>";
  }
  out += shuffle_html(v);
  out += reproducer_html(v, links);
  out += repair_html(v);
  out += evidence_pictures(le.entry, id + "-fig");
  return out + "</article>\n";
}

std::string tests_html(const Report& report, const Links& links) {
  std::string out;
  for (const auto& g : groups) {
    std::size_t n = count_kind(report, g.kind);
    if (n == 0) continue;
    out += "<section aria-labelledby=\"" + std::string(g.id) + "\"><h2 id=\"" + g.id + "\">" + g.heading + " (" + num(long(n)) + ")</h2>\n";
    for (std::size_t i = 0; i < report.entries.size(); ++i)
      if (report.entries[i].entry.verdict.verdict == g.kind) out += test_section_html(report.entries[i], i, links);
    out += "</section>\n";
  }
  return out;
}

}  // namespace html

std::string render_html(const Report& report) {
  html::Page page;
  page.title = html::headline(report);
  page.generator = "flakescan " + report.tool_version;
  page.nav = "<ul><li><a href=\"#summary\">Summary</a></li>";
  for (auto [kind, id, label] : {std::tuple{core::VerdictKind::flaky, "flaky", "Flaky"},
                                 std::tuple{core::VerdictKind::failing, "failing", "Failing"},
                                 std::tuple{core::VerdictKind::could_not_run, "could-not-run", "Could not run"},
                                 std::tuple{core::VerdictKind::skipped, "skipped", "Skipped"},
                                 std::tuple{core::VerdictKind::not_flaky, "not-flaky", "Not flaky"}})
    if (count_kind(report, kind)) page.nav += std::string("<li><a href=\"#") + id + "\">" + label + "</a></li>";
  page.nav += "</ul>";
  page.body = "<h1>" + html::escape(page.title) + "</h1>\n" + html::summary_html(report, {}) + "\n" + html::tests_html(report, {});
  return html::render_page(page);
}

}  // namespace flakescan::report
