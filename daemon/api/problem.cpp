#include "api/problem.hpp"

#include <nlohmann/json.hpp>

namespace flakescan::api {

int http_status(util::Errc code) {
  using util::Errc;
  switch (code) {
    case Errc::invalid_argument: return 400;
    case Errc::malformed: return 400;
    case Errc::not_found: return 404;
    case Errc::conflict: return 409;
    case Errc::cancelled: return 409;
    case Errc::too_large: return 413;
    case Errc::unsupported: return 501;
    case Errc::timeout: return 504;
    case Errc::disconnected: return 502;
    case Errc::need_more: return 500;
    case Errc::io: return 500;
    case Errc::process: return 500;
    case Errc::storage: return 500;
    case Errc::internal: return 500;
  }
  return 500;
}

namespace {

const char* title(util::Errc code) {
  using util::Errc;
  switch (code) {
    case Errc::invalid_argument: return "Invalid request";
    case Errc::malformed: return "Malformed request";
    case Errc::not_found: return "Not found";
    case Errc::conflict: return "Conflict with the resource's state";
    case Errc::cancelled: return "Cancelled";
    case Errc::too_large: return "Request too large";
    case Errc::unsupported: return "Not supported";
    case Errc::timeout: return "Timed out";
    case Errc::disconnected: return "Peer disconnected";
    default: return "Internal error";
  }
}

}  // namespace

std::string problem_json(const util::Error& error, const std::string& instance, int status) {
  std::string code(util::errc_name(error.code));
  std::replace(code.begin(), code.end(), '_', '-');
  return nlohmann::json{{"type", "https://flakescan.io/problems/" + code},
                        {"title", title(error.code)},
                        {"status", status ? status : http_status(error.code)},
                        {"detail", error.message},
                        {"instance", instance}}
      .dump();
}

}  // namespace flakescan::api
