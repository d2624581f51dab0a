#include "api/router.hpp"

#include <algorithm>
#include <optional>
#include <nlohmann/json.hpp>

#include "api/problem.hpp"
#include "scan/scan_json.hpp"
#include "scan/technique_table.hpp"

namespace flakescan::api {

namespace {

using nlohmann::json;
using util::Errc;

constexpr size_t default_body_limit = 1 << 20;

std::vector<std::string> split_path(std::string_view target) {
  target = target.substr(0, target.find('?'));
  std::vector<std::string> parts;
  while (!target.empty()) {
    if (target.front() == '/') {
      target.remove_prefix(1);
      continue;
    }
    size_t slash = target.find('/');
    parts.emplace_back(target.substr(0, slash));
    target.remove_prefix(slash == std::string_view::npos ? target.size() : slash);
  }
  return parts;
}

Response json_response(int status, const json& body) {
  Response r;
  r.status = status;
  r.body = body.dump();
  return r;
}

util::Result<json> parse_body(const Request& request) {
  if (!request.content_type.empty() && request.content_type.find("json") == std::string::npos)
    return util::fail(Errc::invalid_argument, "the body must be application/json, not " + request.content_type);
  json body = json::parse(request.body, nullptr, false);
  if (body.is_discarded()) return util::fail(Errc::invalid_argument, "the body is not valid JSON");
  return body;
}

}  // namespace

Response error_response(const util::Error& error, const std::string& instance) {
  Response r;
  r.status = http_status(error.code);
  r.content_type = "application/problem+json";
  r.body = problem_json(error, instance);
  return r;
}

bool ExtraRoute::serves(const std::string& request_path) const {
  if (!prefix) return request_path == path;
  return request_path.size() > path.size() + 1 && request_path.starts_with(path) && request_path[path.size()] == '/';
}

Router::Router(scan::ScanManager& scans, std::vector<ExtraRoute> extra) : scans_(scans), extra_(std::move(extra)) {}

size_t Router::body_limit(const std::string& method, const std::string& target) const {
  std::string path(target.substr(0, target.find('?')));
  for (const auto& e : extra_)
    if (e.method == method && e.serves(path)) return e.body_limit;
  return default_body_limit;
}

namespace {

// One request being answered: its errors become problem bodies whose instance is its target.
struct Call {
  const Request& req;

  Response fail(const util::Error& e) const { return error_response(e, req.target); }
  Response not_found(const std::string& why) const { return fail({Errc::not_found, why}); }
  Response method_not_allowed() const {
    Response r = fail({Errc::invalid_argument, req.method + " is not allowed on " + req.target});
    r.status = 405;
    r.body = problem_json({Errc::invalid_argument, req.method + " is not allowed on " + req.target}, req.target, 405);
    return r;
  }
};

// The extra routes, tried first: they include pages outside /v1 (the dashboard at /).
// Nothing when none serves the path.
std::optional<Response> route_extra(const std::vector<ExtraRoute>& extra, const Call& call) {
  const auto& req = call.req;
  std::string path(req.target.substr(0, req.target.find('?')));
  bool path_served = false;
  for (const auto& e : extra) {
    if (!e.serves(path)) continue;
    path_served = true;
    if (e.method != req.method) continue;
    if (e.respond) {
      auto response = e.respond(req);
      return response ? std::move(*response) : call.fail(response.error());
    }
    auto body = e.handler(req);
    if (!body) return call.fail(body.error());
    Response r;
    r.body = std::move(*body);
    return r;
  }
  if (path_served) return call.method_not_allowed();
  return std::nullopt;
}

// /v1/scans: GET lists the latest scans, POST submits one.
Response route_scans(scan::ScanManager& scans, const Call& call) {
  const auto& req = call.req;
  if (req.method == "GET") {
    auto list = scans.list(100);
    if (!list) return call.fail(list.error());
    json out = json::array();
    for (const auto& r : *list) out.push_back(scan::scan_status_json(r));
    return json_response(200, {{"scans", out}});
  }
  if (req.method != "POST") return call.method_not_allowed();
  auto body = parse_body(req);
  if (!body) return call.fail(body.error());
  auto request = scan::parse_scan_request(*body, scan::technique_names());
  if (!request) return call.fail(request.error());
  auto record = scans.submit(*request);
  if (!record) return call.fail(record.error());
  Response r = json_response(202, scan::scan_status_json(*record));
  r.headers["Location"] = "/v1/scans/" + record->id;
  return r;
}

// /v1/scans/{id}/events: the scan's event log as server-sent events, after Last-Event-ID.
Response event_stream(scan::ScanManager& scans, const Call& call, const std::string& id) {
  auto log = scans.events(id);
  if (!log) return call.fail(log.error());
  Response r;
  r.content_type = "text/event-stream";
  r.stream = *log;
  r.stream_key = id;
  r.stream_after = 0;
  if (!call.req.last_event_id.empty()) {
    try {
      r.stream_after = std::stoull(call.req.last_event_id);
    } catch (...) {
      return call.fail({Errc::invalid_argument, "Last-Event-ID must be a number"});
    }
  }
  return r;
}

// /v1/scans/{id} and what lies below it: verdicts, events, replays.
Response route_scan(scan::ScanManager& scans, const Call& call, const std::vector<std::string>& parts) {
  const auto& req = call.req;
  const std::string& id = parts[2];
  if (parts.size() == 3) {
    if (req.method == "GET") {
      auto record = scans.get(id);
      return record ? json_response(200, scan::scan_status_json(*record)) : call.fail(record.error());
    }
    if (req.method == "DELETE") {
      auto record = scans.cancel(id);
      return record ? json_response(202, scan::scan_status_json(*record)) : call.fail(record.error());
    }
    return call.method_not_allowed();
  }
  const std::string& below = parts.size() == 4 ? parts[3] : std::string();
  if (below == "verdicts") {
    if (req.method != "GET") return call.method_not_allowed();
    auto file = scans.verdict_file_text(id);
    return file ? Response{.status = 200, .body = std::move(*file)} : call.fail(file.error());
  }
  if (below == "events") {
    if (req.method != "GET") return call.method_not_allowed();
    return event_stream(scans, call, id);
  }
  if (below == "replays") {
    if (req.method != "POST") return call.method_not_allowed();
    auto body = parse_body(req);
    if (!body) return call.fail(body.error());
    auto result = scans.replay(id, *body);
    return result ? json_response(201, *result) : call.fail(result.error());
  }
  return call.not_found("no resource at " + req.target);
}

}  // namespace

Response Router::route(const Request& req) const {
  const Call call{req};
  if (auto extra = route_extra(extra_, call)) return std::move(*extra);
  auto parts = split_path(req.target);
  if (parts.empty() || parts[0] != "v1") return call.not_found("no resource at " + req.target + " (the API lives under /v1)");
  if (parts.size() == 2 && parts[1] == "health") {
    if (req.method != "GET") return call.method_not_allowed();
    return json_response(200, {{"status", "ok"}, {"version", FLAKESCAN_VERSION}, {"techniques", scan::technique_names()}});
  }
  if (parts.size() < 2 || parts[1] != "scans") return call.not_found("no resource at " + req.target);
  if (parts.size() == 2) return route_scans(scans_, call);
  return route_scan(scans_, call, parts);
}

}  // namespace flakescan::api
