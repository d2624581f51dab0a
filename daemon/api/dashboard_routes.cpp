#include "api/dashboard_routes.hpp"

#include "api/dashboard_pages.hpp"
#include "api/history_routes.hpp"
#include "history/history.hpp"
#include "report/verdict_file.hpp"

#ifndef FLAKESCAN_VERSION
#define FLAKESCAN_VERSION "0.0.0"
#endif

namespace flakescan::api {

namespace {

using util::Errc;

Response html_response(int status, std::string body, bool live = false) {
  Response r;
  r.status = status;
  r.content_type = "text/html; charset=utf-8";
  r.body = std::move(body);
  std::string csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
                    "frame-ancestors 'none'";
  if (live) csp += "; script-src 'unsafe-inline'; connect-src 'self'";
  r.headers["Content-Security-Policy"] = csp;
  r.headers["X-Content-Type-Options"] = "nosniff";
  r.headers["Referrer-Policy"] = "no-referrer";
  r.headers["Cache-Control"] = "no-store";
  return r;
}

// An error as a page: the status the API would give, and what was wrong in words.
Response error_page(const util::Error& e) {
  const int status = e.code == Errc::not_found ? 404 : e.code == Errc::conflict ? 409 : e.code == Errc::invalid_argument ? 400 : 500;
  const char* title = status == 404 ? "Not found" : status == 409 ? "Not yet" : status == 400 ? "Bad request" : "Error";
  return html_response(status, dashboard::message_page(title, e.message));
}

bool finished(const std::string& state) { return state != "queued" && state != "running"; }

util::Result<report::Report> report_of(scan::ScanManager& scans, const std::string& id) {
  auto file = scans.verdict_file_text(id);
  if (!file) return std::unexpected(file.error());
  auto parsed = report::parse_verdict_file(*file);
  if (!parsed) return std::unexpected(parsed.error());
  report::SourceLocator no_sources({});
  return report::locate_all(*parsed, no_sources, {}, FLAKESCAN_VERSION);
}

util::Result<Response> scan_pages(scan::ScanManager& scans, const Request& request) {
  std::string path = request.target.substr(0, request.target.find('?'));
  std::string rest = path.substr(std::string("/scans/").size());
  const auto slash = rest.find('/');
  const std::string id = rest.substr(0, slash);
  const std::string sub = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (sub != "" && sub != "test") return util::fail(Errc::not_found, "no page at " + path);
  auto query = parse_query(request.target, sub == "test" ? std::vector<std::string>{"name"} : std::vector<std::string>{});
  if (!query) return std::unexpected(query.error());
  auto record = scans.get(id);
  if (!record) return std::unexpected(record.error());
  if (!finished(record->state)) {
    if (sub == "test")
      return util::fail(Errc::conflict, "scan '" + id + "' is still " + record->state + "; its tests' pages come when it ends");
    return html_response(200, dashboard::scan_live_page(*record), true);
  }
  auto report = report_of(scans, id);
  if (!report) return std::unexpected(report.error());
  if (sub.empty()) return html_response(200, dashboard::scan_report_page(*record, *report));
  const std::string name = (*query)["name"];
  for (std::size_t i = 0; i < report->entries.size(); ++i)
    if (report->entries[i].entry.verdict.test == name) return html_response(200, dashboard::test_page(*record, *report, i));
  return util::fail(Errc::not_found, "scan '" + id + "' has no verdict for " + (name.empty() ? "(no name given)" : name));
}

// Wraps a page handler: its errors become pages too.
ExtraRoute page_route(std::string path, bool prefix, std::function<util::Result<Response>(const Request&)> make) {
  return {.method = "GET", .path = std::move(path), .body_limit = 1 << 10,
          .respond = [make = std::move(make)](const Request& request) -> util::Result<Response> {
            auto r = make(request);
            return r ? std::move(*r) : error_page(r.error());
          },
          .prefix = prefix};
}

}  // namespace

std::vector<ExtraRoute> dashboard_routes(scan::ScanManager& scans, store::Store& store) {
  std::vector<ExtraRoute> routes;
  auto list = [&scans](const Request& request) -> util::Result<Response> {
    auto query = parse_query(request.target, {});
    if (!query) return std::unexpected(query.error());
    auto all = scans.list(100);
    if (!all) return std::unexpected(all.error());
    return html_response(200, dashboard::scans_page(*all));
  };
  routes.push_back(page_route("/", false, list));
  routes.push_back(page_route("/scans", false, list));
  routes.push_back(page_route("/scans", true, [&scans](const Request& r) { return scan_pages(scans, r); }));
  routes.push_back(page_route("/suspects", false, [&store](const Request& request) -> util::Result<Response> {
    auto query = parse_query(request.target, {"window"});
    if (!query) return std::unexpected(query.error());
    int window = history::default_suspect_window;
    if (auto it = query->find("window"); it != query->end()) {
      const std::string& text = it->second;
      bool digits = !text.empty() && text.size() <= 6 && text.find_first_not_of("0123456789") == std::string::npos;
      if (!digits) return util::fail(Errc::invalid_argument, "'window' must be a whole number of imports, not '" + text + "'");
      window = std::stoi(text);
    }
    auto found = history::suspects(store, window);
    if (!found) return std::unexpected(found.error());
    return html_response(200, dashboard::suspects_page(*found));
  }));
  routes.push_back(page_route("/quarantine", false, [&store](const Request& request) -> util::Result<Response> {
    auto query = parse_query(request.target, {});
    if (!query) return std::unexpected(query.error());
    auto rendered = history::quarantine(store, history::QuarantineFormat::json);
    if (!rendered) return std::unexpected(rendered.error());
    return html_response(200, dashboard::quarantine_page(nlohmann::json::parse(rendered->body)));
  }));
  return routes;
}

}  // namespace flakescan::api
