#include "api/crawl_routes.hpp"

#include <nlohmann/json.hpp>

namespace flakescan::api {

namespace {

using nlohmann::json;
using util::Errc;

constexpr const char* base = "/v1/explorations";

Response json_response(int status, const json& body) {
  Response r;
  r.status = status;
  r.body = body.dump();
  return r;
}

// "/v1/explorations/{id}" -> id; a deeper path names nothing.
util::Result<std::string> id_of(const Request& request) {
  std::string path = request.target.substr(0, request.target.find('?'));
  std::string id = path.substr(std::string(base).size() + 1);
  if (id.find('/') != std::string::npos) return util::fail(Errc::not_found, "no resource at " + request.target);
  return id;
}

}  // namespace

std::vector<ExtraRoute> crawl_routes(ui_crawl::CrawlManager& explorations) {
  std::vector<ExtraRoute> routes;
  routes.push_back({.method = "POST", .path = base, .body_limit = 1 << 20, .respond = [&explorations](const Request& request) -> util::Result<Response> {
    if (!request.content_type.empty() && request.content_type.find("json") == std::string::npos)
      return util::fail(Errc::invalid_argument, "the body must be application/json, not " + request.content_type);
    json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded()) return util::fail(Errc::invalid_argument, "the body is not valid JSON");
    auto status = explorations.submit(body);
    if (!status) return std::unexpected(status.error());
    Response r = json_response(202, *status);
    r.headers["Location"] = (*status)["links"]["self"].get<std::string>();
    return r;
  }});
  routes.push_back({.method = "GET", .path = base, .body_limit = 1 << 10, .respond = [&explorations](const Request&) -> util::Result<Response> {
    return json_response(200, explorations.list());
  }});
  routes.push_back({.method = "GET", .path = base, .body_limit = 1 << 10, .respond = [&explorations](const Request& request) -> util::Result<Response> {
    auto id = id_of(request);
    if (!id) return std::unexpected(id.error());
    auto status = explorations.get(*id);
    if (!status) return std::unexpected(status.error());
    return json_response(200, *status);
  }, .prefix = true});
  routes.push_back({.method = "DELETE", .path = base, .body_limit = 1 << 10, .respond = [&explorations](const Request& request) -> util::Result<Response> {
    auto id = id_of(request);
    if (!id) return std::unexpected(id.error());
    auto status = explorations.cancel(*id);
    if (!status) return std::unexpected(status.error());
    return json_response(202, *status);
  }, .prefix = true});
  return routes;
}

}  // namespace flakescan::api
