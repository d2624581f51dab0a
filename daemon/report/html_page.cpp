// The page shell of the HTML report and the dashboard: escaping, the document, the style sheet.
#include "report/html.hpp"

namespace flakescan::report::html {

namespace {

// One style sheet for the report and the dashboard. Narrow screens (a phone, 390 px) get the
// same content with wrapping: long test ids break anywhere, the rows of wide tables (class
// "stack") become cards whose cells name their column, other tables scroll inside their box,
// and the panels of a picture stack instead of standing side by side.
constexpr std::string_view style_sheet = R"css(
:root{color-scheme:light;--pass:#1a7f37;--fail:#cf222e;--infra:#6e7781;--moved:#8250df;--race:#bc4c00;
--line:#d0d7de;--muted:#57606a;--soft:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1f2328;background:#fff}
header.top{background:#24292f;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;align-items:baseline}
header.top a{color:#fff}
header.top .brand{font-weight:700;margin:0}
header.top nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem}
main{max-width:74rem;margin:0 auto;padding:1rem}
h1{font-size:1.55rem;margin:.3rem 0 .8rem;overflow-wrap:anywhere}
h2{font-size:1.3rem;border-bottom:1px solid var(--line);padding-bottom:.25rem;margin:2rem 0 .8rem}
h3{font-size:1.1rem;margin:0 0 .4rem;overflow-wrap:anywhere}
h4{font-size:1rem;margin:1rem 0 .4rem}
a{color:#0550ae}
code,pre,kbd{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:.88em}
code{overflow-wrap:anywhere}
pre{background:var(--soft);border:1px solid var(--line);border-radius:.3rem;padding:.5rem .7rem;overflow-x:auto;max-height:22rem;margin:.4rem 0}
pre.cmd{white-space:pre-wrap;overflow-wrap:anywhere;background:#1f2328;color:#fff;border-color:#1f2328}
table{border-collapse:collapse;margin:.4rem 0 1rem}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
p,li,figcaption{overflow-wrap:anywhere}
td{overflow-wrap:break-word}
thead th{background:var(--soft)}
tbody th{font-weight:600;background:#fbfbfc}
caption{text-align:left;font-weight:600;padding:.2rem 0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto;max-width:100%}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.badge,.tag{display:inline-block;border-radius:1rem;padding:0 .55rem;font-size:.82rem;font-weight:600;border:1px solid;white-space:nowrap}
.v-flaky{background:#fff8c5;color:#6a4200;border-color:#d4a72c}
.v-failing{background:#ffebe9;color:#a40e26;border-color:#ff8182}
.v-not_flaky{background:#dafbe1;color:#116329;border-color:#4ac26b}
.v-skipped{background:#fff;color:#424a53;border-color:#afb8c1}
.v-could_not_run{background:#eaeef2;color:#424a53;border-color:#afb8c1}
.tag{background:#ddf4ff;color:#0a3069;border-color:#54aeff;font-weight:500}
.tag.off{background:#fff;color:var(--muted);border-color:var(--line);text-decoration:line-through}
.facts{color:var(--muted);margin:.2rem 0 .6rem}
.reason{margin:.4rem 0}
article.test{border:1px solid var(--line);border-radius:.5rem;padding:.9rem 1rem;margin:1rem 0;scroll-margin-top:1rem}
article.test > header{display:flex;flex-wrap:wrap;gap:.3rem .6rem;align-items:baseline}
.runs{display:flex;flex-wrap:wrap;gap:0 1.2rem}
.runs > section{flex:1 1 22rem;min-width:0}
.runs table{width:100%}
figure{margin:1rem 0;min-width:0}
figcaption{color:var(--muted);font-size:.9rem;margin-top:.3rem}
.pair{display:flex;flex-wrap:wrap;gap:.8rem 1.5rem;align-items:flex-start}
svg.picture{max-width:100%;height:auto;display:block}
svg.picture text{font-family:system-ui,"DejaVu Sans",sans-serif}
.counts{width:auto}
.counts td{font-size:1.3rem;text-align:right;min-width:6rem}
.note{border-left:4px solid var(--race);background:#fff1e5;padding:.4rem .7rem;margin:.6rem 0}
.live{border-left:4px solid var(--moved);background:#fbefff;padding:.4rem .7rem}
.live h2{margin-top:.2rem}
table.full{width:100%}
progress{width:16rem;max-width:100%;height:1rem}
details{margin:.4rem 0}
summary{cursor:pointer}
ol.order{margin:.2rem 0;padding-left:1.6rem;overflow-wrap:anywhere}
@media (max-width:40rem){main{padding:.6rem}th,td{padding:.25rem .35rem}h1{font-size:1.3rem}article.test{padding:.6rem}
.counts td{min-width:0;font-size:1.1rem}
table.stack,table.stack tbody,table.stack tr,table.stack th,table.stack td{display:block;width:auto}
table.stack caption{display:block}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack tr{border:1px solid var(--line);border-radius:.3rem;margin:.4rem 0;padding:.2rem 0}
table.stack th,table.stack td{border:0;overflow-wrap:anywhere;text-align:left}
table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}}
)css";

}  // namespace

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        if (c == 0x7f) break;
        out += c;
    }
  }
  return out;
}

std::string url_component(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    bool plain = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '-' || u == '.' ||
                 u == '_' || u == '~';
    if (plain) {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

std::string render_page(const Page& page) {
  // No fetch at all: default-src 'none' covers scripts, styles, images, fonts, frames and
  // connections; inline styles and data: images are what the pages use. The live page adds
  // its inline script and the event stream of the daemon it came from.
  std::string csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
  if (!page.script.empty()) csp += "; script-src 'unsafe-inline'; connect-src 'self'";
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + escape(csp) + "\">\n";
  out += "<meta name=\"referrer\" content=\"no-referrer\">\n";
  if (!page.generator.empty()) out += "<meta name=\"generator\" content=\"" + escape(page.generator) + "\">\n";
  out += "<title>" + escape(page.title) + "</title>\n<style>" + std::string(style_sheet) + "</style>\n</head>\n<body>\n";
  out += "<header class=\"top\"><p class=\"brand\">flakescan</p>";
  if (!page.nav.empty()) out += "<nav aria-label=\"flakescan\">" + page.nav + "</nav>";
  out += "</header>\n<main>\n" + page.body + "</main>\n";
  if (!page.script.empty()) out += "<script>\n" + page.script + "\n</script>\n";
  out += "</body>\n</html>\n";
  return out;
}

std::string verdict_badge(core::VerdictKind kind) {
  std::string name(core::verdict_name(kind));
  std::string label = kind == core::VerdictKind::flaky       ? "flaky"
                      : kind == core::VerdictKind::not_flaky ? "not flaky"
                      : kind == core::VerdictKind::failing   ? "failing every run"
                      : kind == core::VerdictKind::skipped   ? "skipped"
                                                             : "could not run";
  return "<span class=\"badge v-" + name + "\">" + label + "</span>";
}

std::string category_tag(core::Category category) {
  std::string name(core::category_name(category));
  std::string label = category == core::Category::order_dependent ? "order-dependent"
                      : category == core::Category::nio           ? "NIO (not idempotent)"
                      : category == core::Category::implementation_dependent ? "implementation-dependent"
                                                                   : name;
  return "<span class=\"tag\">" + escape(label) + "</span>";
}

}  // namespace flakescan::report::html
