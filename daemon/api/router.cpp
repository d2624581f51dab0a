#include "api/router.hpp"

#include <algorithm>
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

Response Router::route(const Request& req) const {
  auto parts = split_path(req.target);
  auto fail = [&](util::Error e) { return error_response(e, req.target); };
  auto method_not_allowed = [&] {
    Response r = fail({Errc::invalid_argument, req.method + " is not allowed on " + req.target});
    r.status = 405;
    r.body = problem_json({Errc::invalid_argument, req.method + " is not allowed on " + req.target}, req.target, 405);
    return r;
  };
  // Extra routes first: they include pages outside /v1 (the dashboard at /).
  std::string path(req.target.substr(0, req.target.find('?')));
  bool path_served = false;
  for (const auto& e : extra_) {
    if (!e.serves(path)) continue;
    path_served = true;
    if (e.method != req.method) continue;
    if (e.respond) {
      auto response = e.respond(req);
      return response ? std::move(*response) : fail(response.error());
    }
    auto body = e.handler(req);
    if (!body) return fail(body.error());
    Response r;
    r.body = std::move(*body);
    return r;
  }
  if (path_served) return method_not_allowed();
  if (parts.empty() || parts[0] != "v1") return fail({Errc::not_found, "no resource at " + req.target + " (the API lives under /v1)"});

  if (parts.size() == 2 && parts[1] == "health") {
    if (req.method != "GET") return method_not_allowed();
    return json_response(200, {{"status", "ok"}, {"version", FLAKESCAN_VERSION}, {"techniques", scan::technique_names()}});
  }
  if (parts.size() < 2 || parts[1] != "scans") return fail({Errc::not_found, "no resource at " + req.target});

  if (parts.size() == 2) {
    if (req.method == "GET") {
      auto list = scans_.list(100);
      if (!list) return fail(list.error());
      json out = json::array();
      for (const auto& r : *list) out.push_back(scan::scan_status_json(r));
      return json_response(200, {{"scans", out}});
    }
    if (req.method != "POST") return method_not_allowed();
    auto body = parse_body(req);
    if (!body) return fail(body.error());
    auto request = scan::parse_scan_request(*body, scan::technique_names());
    if (!request) return fail(request.error());
    auto record = scans_.submit(*request);
    if (!record) return fail(record.error());
    Response r = json_response(202, scan::scan_status_json(*record));
    r.headers["Location"] = "/v1/scans/" + record->id;
    return r;
  }

  const std::string& id = parts[2];
  if (parts.size() == 3) {
    if (req.method == "GET") {
      auto record = scans_.get(id);
      return record ? json_response(200, scan::scan_status_json(*record)) : fail(record.error());
    }
    if (req.method == "DELETE") {
      auto record = scans_.cancel(id);
      return record ? json_response(202, scan::scan_status_json(*record)) : fail(record.error());
    }
    return method_not_allowed();
  }
  if (parts.size() == 4 && parts[3] == "verdicts") {
    if (req.method != "GET") return method_not_allowed();
    auto file = scans_.verdict_file(id);
    return file ? json_response(200, *file) : fail(file.error());
  }
  if (parts.size() == 4 && parts[3] == "events") {
    if (req.method != "GET") return method_not_allowed();
    auto log = scans_.events(id);
    if (!log) return fail(log.error());
    Response r;
    r.content_type = "text/event-stream";
    r.stream = *log;
    r.stream_key = id;
    r.stream_after = 0;
    if (!req.last_event_id.empty()) {
      try {
        r.stream_after = std::stoull(req.last_event_id);
      } catch (...) {
        return fail({Errc::invalid_argument, "Last-Event-ID must be a number"});
      }
    }
    return r;
  }
  if (parts.size() == 4 && parts[3] == "replays") {
    if (req.method != "POST") return method_not_allowed();
    auto body = parse_body(req);
    if (!body) return fail(body.error());
    auto result = scans_.replay(id, *body);
    return result ? json_response(201, *result) : fail(result.error());
  }
  return fail({Errc::not_found, "no resource at " + req.target});
}

}  // namespace flakescan::api
