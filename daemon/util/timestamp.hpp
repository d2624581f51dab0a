#pragma once
// The current time as the store and the API write it: UTC, ISO 8601 with milliseconds,
// "2026-11-22T07:50:05.123Z". Text of this one format sorts as time does.
#include <chrono>
#include <string>

namespace flakescan::util {

std::string utc_timestamp();
std::string utc_timestamp(std::chrono::system_clock::time_point at);
// The time `seconds` ago, in the same format.
std::string utc_timestamp_before(int seconds);

}  // namespace flakescan::util
