#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "api/problem.hpp"

using namespace flakescan;

TEST_CASE("error codes map to HTTP statuses in one place", "[api][problem]") {
  CHECK(api::http_status(util::Errc::invalid_argument) == 400);
  CHECK(api::http_status(util::Errc::not_found) == 404);
  CHECK(api::http_status(util::Errc::conflict) == 409);
  CHECK(api::http_status(util::Errc::too_large) == 413);
  CHECK(api::http_status(util::Errc::storage) == 500);
  CHECK(api::http_status(util::Errc::unsupported) == 501);
}

TEST_CASE("problem bodies follow RFC 9457 with a stable type", "[api][problem]") {
  auto body = nlohmann::json::parse(api::problem_json({util::Errc::too_large, "over 1 MiB"}, "/v1/scans"));
  CHECK(body["type"] == "https://flakescan.io/problems/too-large");
  CHECK(body["status"] == 413);
  CHECK(body["detail"] == "over 1 MiB");
  CHECK(body["instance"] == "/v1/scans");
  CHECK(body["title"] == "Request too large");
}
