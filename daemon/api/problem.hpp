#pragma once
// Errors over HTTP: the one mapping from util::Errc to an HTTP status, and RFC 9457
// problem+json bodies (schema/problem.schema.json) with a stable `type` per code.
#include <string>

#include "util/error.hpp"

namespace flakescan::api {

int http_status(util::Errc code);

// {"type": "https://flakescan.io/problems/<code>", "title": ..., "status": ..., "detail": ...,
//  "instance": <request target>}
// `status` 0: the status of the error's code.
std::string problem_json(const util::Error& error, const std::string& instance, int status = 0);

}  // namespace flakescan::api
