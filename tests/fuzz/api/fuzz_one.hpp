#pragma once
// One fuzz input through the body parsers of the API's JSON routes: POST /v1/scans and POST
// /v1/scans/{id}/replays (scan/scan_request.hpp) and POST /v1/explorations
// (ui_crawl/crawl_request.hpp),
// exactly as the routes call them (nlohmann's non-throwing parse, then validation). The other
// bodies have targets of their own: POST /v1/results (junit_import), POST /v1/ui-traces
// (ui_trace_import). Shared by the libFuzzer target and the corpus replay test; returns false
// when a property breaks.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flakescan::api::fuzz {

// The technique names a daemon has (scan::technique_names(); the corpus test checks they agree).
const std::vector<std::string>& technique_names();

// Input: byte 0 picks the route (modulo 3: scans, explorations, replays), the rest is the body.
// Properties: no crash; a body that validates normalises (to_json) to a body that validates to
// the same normal form (explorations: less its nulls); a refused body is refused with
// invalid_argument.
bool fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace flakescan::api::fuzz
