#include "api/history_routes.hpp"

#include <algorithm>

#include "history/groups.hpp"
#include "history/history.hpp"
#include "report/junit_import.hpp"

namespace flakescan::api {

namespace {

using util::Errc;

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

util::Result<std::string> percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%') {
      int hi = i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
      int lo = i + 2 < text.size() ? hex_value(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return util::fail(Errc::invalid_argument, "bad percent-encoding in the query");
      out += char(hi * 16 + lo);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

bool is_xml(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && type.back() == ' ') type.pop_back();
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return type.empty() || type == "application/xml" || type == "text/xml" || type.ends_with("+xml");
}

Response json_response(int status, const nlohmann::json& body) {
  Response r;
  r.status = status;
  r.body = body.dump();
  return r;
}

}  // namespace

util::Result<std::map<std::string, std::string>> parse_query(const std::string& target,
                                                             const std::vector<std::string>& allowed) {
  std::map<std::string, std::string> out;
  auto q = target.find('?');
  if (q == std::string::npos) return out;
  std::string_view query(target);
  query.remove_prefix(q + 1);
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query.remove_prefix(amp == std::string_view::npos ? query.size() : amp + 1);
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    auto name = percent_decode(pair.substr(0, eq));
    if (!name) return std::unexpected(name.error());
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
    if (!value) return std::unexpected(value.error());
    if (std::find(allowed.begin(), allowed.end(), *name) == allowed.end()) {
      std::string known;
      for (const auto& a : allowed) known += (known.empty() ? "" : ", ") + a;
      return util::fail(Errc::invalid_argument,
                        "unknown query parameter '" + *name + "' (known: " + (known.empty() ? "none" : known) + ")");
    }
    if (!out.emplace(*name, *value).second)
      return util::fail(Errc::invalid_argument, "query parameter '" + *name + "' is given twice");
  }
  return out;
}

std::vector<ExtraRoute> history_routes(store::Store& store) {
  std::vector<ExtraRoute> routes;
  routes.push_back({.method = "POST", .path = "/v1/results", .body_limit = report::max_junit_report_bytes,
                    .respond = [&store](const Request& request) -> util::Result<Response> {
    auto query = parse_query(request.target, {"source", "commit", "branch"});
    if (!query) return std::unexpected(query.error());
    if (!is_xml(request.content_type))
      return util::fail(Errc::invalid_argument,
                        "the body must be a JUnit XML report (application/xml or text/xml), not " + request.content_type);
    history::ImportParams params{(*query)["source"], (*query)["commit"], (*query)["branch"]};
    auto imported = history::import_results(store, request.body, params);
    if (!imported) return std::unexpected(imported.error());
    return json_response(201, *imported);
  }});
  routes.push_back({.method = "GET", .path = "/v1/suspects", .body_limit = 1 << 10,
                    .respond = [&store](const Request& request) -> util::Result<Response> {
    auto query = parse_query(request.target, {"window"});
    if (!query) return std::unexpected(query.error());
    int window = history::default_suspect_window;
    if (auto it = query->find("window"); it != query->end()) {
      const std::string& text = it->second;
      bool digits = !text.empty() && text.size() <= 6 &&
                    std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!digits) return util::fail(Errc::invalid_argument, "'window' must be a whole number of imports, not '" + text + "'");
      window = std::stoi(text);
    }
    auto found = history::suspects(store, window);
    if (!found) return std::unexpected(found.error());
    return json_response(200, *found);
  }});
  routes.push_back({.method = "GET", .path = "/v1/quarantine", .body_limit = 1 << 10,
                    .respond = [&store](const Request& request) -> util::Result<Response> {
    auto query = parse_query(request.target, {"format"});
    if (!query) return std::unexpected(query.error());
    auto format = history::parse_quarantine_format((*query)["format"]);
    if (!format) return std::unexpected(format.error());
    auto rendered = history::quarantine(store, *format);
    if (!rendered) return std::unexpected(rendered.error());
    Response r;
    r.content_type = rendered->content_type;
    r.body = std::move(rendered->body);
    return r;
  }});
  // GET /v1/groups/{group}/verdicts: the merged verdict file of a sharded scan.
  routes.push_back({.method = "GET", .path = "/v1/groups", .body_limit = 1 << 10,
                    .respond = [&store](const Request& request) -> util::Result<Response> {
    std::string path = request.target.substr(0, request.target.find('?'));
    std::string rest = path.substr(std::string("/v1/groups/").size());
    auto slash = rest.find('/');
    if (slash == std::string::npos || rest.substr(slash) != "/verdicts")
      return util::fail(Errc::not_found, "no such resource: " + path + " (GET /v1/groups/{group}/verdicts)");
    auto merged = history::group_verdicts(store, rest.substr(0, slash));
    if (!merged) return std::unexpected(merged.error());
    return json_response(200, *merged);
  }, .prefix = true});
  return routes;
}

}  // namespace flakescan::api
