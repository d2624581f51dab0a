#include "fuzz_one.hpp"

#include <nlohmann/json.hpp>

#include "scan/scan_request.hpp"
#include "ui_crawl/crawl_request.hpp"

namespace flakescan::api::fuzz {

using nlohmann::json;

const std::vector<std::string>& technique_names() {
  static const std::vector<std::string> names{"rerun", "suite", "order", "nio", "nio-isolated-class", "nio-isolated-method", "shuffle", "explore", "threads", "repair", "noise"};
  return names;
}

namespace {

bool refused_properly(const util::Error& e) { return e.code == util::Errc::invalid_argument; }

bool scan_body(const json& body) {
  auto request = scan::parse_scan_request(body, technique_names());
  if (!request) return refused_properly(request.error());
  json normal = request->to_json();
  auto again = scan::parse_scan_request(normal, technique_names());
  return again && again->to_json() == normal;
}

bool exploration_body(const json& body) {
  static const std::vector<backend::adb::wire::ServerAddress> servers{*backend::adb::wire::ServerAddress::parse("127.0.0.1:5037")};
  auto request = ui_crawl::parse_crawl_request(body, servers);
  if (!request) return refused_properly(request.error());
  json normal = request->to_json();
  // The normal form is what is stored (null for what was not given, restart_at and guided_by
  // both present); as a body it is that without the nulls and the empty restart_at.
  json body_again = json::object();
  for (const auto& [key, value] : normal.items())
    if (!value.is_null() && !(key == "restart_at" && value.empty())) body_again[key] = value;
  auto again = ui_crawl::parse_crawl_request(body_again, servers);
  return again && again->to_json() == normal;
}

bool replay_body(const json& body) {
  auto request = scan::parse_replay_request(body);
  if (!request) return refused_properly(request.error());
  auto again = scan::parse_replay_request(request->to_json());
  return again && again->to_json() == request->to_json() && again->runs >= 1 && again->runs <= 100;
}

}  // namespace

bool fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return true;
  const int route = data[0] % 3;  // 0 POST /v1/scans, 1 POST /v1/explorations, 2 POST /v1/scans/{id}/replays
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  json body = json::parse(text, nullptr, false);  // as the routes parse: never throws
  if (body.is_discarded()) return true;           // 400 "not valid JSON"
  if (route == 0) return scan_body(body);
  return route == 1 ? exploration_body(body) : replay_body(body);
}

}  // namespace flakescan::api::fuzz
