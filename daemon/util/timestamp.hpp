#pragma once
// The current time as the store and the API write it: UTC, ISO 8601 with milliseconds,
// "2026-11-22T07:50:05.123Z".
#include <string>

namespace flakescan::util {

std::string utc_timestamp();

}  // namespace flakescan::util
