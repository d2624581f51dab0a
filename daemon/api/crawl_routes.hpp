#pragma once
// The HTTP side of exploration runs, as extra routes for the Router:
//   POST   /v1/explorations        body schema/exploration-request.schema.json -> 202 + Location
//   GET    /v1/explorations        the 100 most recent
//   GET    /v1/explorations/{id}   state, counts, tarpits and guidance
//   DELETE /v1/explorations/{id}   cancel -> 202
// Errors go through the Router's one Errc -> status mapping (problem+json).
#include <vector>

#include "api/router.hpp"
#include "ui_crawl/crawl_manager.hpp"

namespace flakescan::api {

std::vector<ExtraRoute> crawl_routes(ui_crawl::CrawlManager& explorations);

}  // namespace flakescan::api
