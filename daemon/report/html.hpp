#pragma once
// The HTML report (index.html) and the pieces the daemon's dashboard builds its pages from.
// Pure functions of a Report: no file system, no network, no clock.
//
// Policy: every page is self-contained. CSS is inline, pictures are inline SVG, nothing (no
// script, font, image or style sheet) is fetched from anywhere, and the static report carries
// a Content-Security-Policy that forbids every fetch and every script, so it works the same
// from file://, as a CI artifact and behind a proxy. Every text that comes from a verdict
// file, the store or a request goes through escape() before it is written, in text and in
// attribute values alike; ids and anchors are made from indexes, never from test names.
#include <cstddef>
#include <string>
#include <string_view>

#include "report/report.hpp"

namespace flakescan::report::html {

// & < > " ' as character references; control characters other than tab, CR and LF dropped.
std::string escape(std::string_view text);
// A URL query or path component: every byte but A-Z a-z 0-9 - . _ ~ percent-encoded.
std::string url_component(std::string_view text);

// How a page names and links what it shows.
struct Links {
  // Empty: a test links to its section in the same page (#test-N). Else the dashboard's test
  // page: prefix + url_component(test id).
  std::string test_page_prefix;
  // What the reproducer command names: "--verdicts verdicts.json" or "--scan ID".
  std::string replay_source = "--verdicts verdicts.json";
};

struct Page {
  std::string title;      // text
  std::string nav;        // HTML (links above the content); empty: none
  std::string body;       // HTML
  std::string script;     // inline script text (the live dashboard page); empty: the page has none
  std::string generator;  // "flakescan 0.1.0"
};

// The whole document: doctype, meta (charset, viewport, the Content-Security-Policy: no
// fetch of any kind; scripts only when page.script is set, and then only inline ones and
// connections back to where the page came from), the style sheet, the body.
std::string render_page(const Page& page);

// A verdict as a labelled badge, and a category as a tag.
std::string verdict_badge(core::VerdictKind kind);
std::string category_tag(core::Category category);

// The summary: counts, the scan's facts, a table of every test with its verdict and categories.
std::string summary_html(const Report& report, const Links& links);
// One test: verdict, categories, every finding, failure signatures, the passing and the
// failing run, the reproducer command, what `repair` found (and its verified patch), and the
// pictures of its evidence. `index` makes its ids.
std::string test_section_html(const LocatedEntry& entry, std::size_t index, const Links& links);
// Every test's section, grouped: flaky, failing, could not run, not flaky.
std::string tests_html(const Report& report, const Links& links);

// The page title and first heading: "flakescan: 2 flaky tests out of 9 scanned".
std::string headline(const Report& report);

}  // namespace flakescan::report::html
