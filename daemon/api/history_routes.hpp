#pragma once
// The CI history resources as extra routes for the Router:
//   POST /v1/results?source=S[&commit=C][&branch=B]   JUnit XML body -> 201 with the import's counts
//   GET  /v1/suspects[?window=N]                     tests that look flaky from CI history
//   GET  /v1/quarantine[?format=json|notTestFile|gradle]
// Query parameters are percent-decoded; unknown or repeated ones are a 400, like unknown
// fields in JSON bodies. Errors go through the Router's one Errc -> status mapping.
#include <map>
#include <string>
#include <vector>

#include "api/router.hpp"
#include "store/store.hpp"

namespace flakescan::api {

std::vector<ExtraRoute> history_routes(store::Store& store);

// "a=1&b=x%20y" -> {a: "1", b: "x y"}, checked against `allowed` (invalid_argument otherwise).
util::Result<std::map<std::string, std::string>> parse_query(const std::string& target,
                                                             const std::vector<std::string>& allowed);

}  // namespace flakescan::api
