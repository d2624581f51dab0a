#include "util/timestamp.hpp"

#include <cstdio>
#include <ctime>

namespace flakescan::util {

std::string utc_timestamp(std::chrono::system_clock::time_point at) {
  auto secs = std::chrono::system_clock::to_time_t(at);
  int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

std::string utc_timestamp() { return utc_timestamp(std::chrono::system_clock::now()); }

std::string utc_timestamp_before(int seconds) {
  return utc_timestamp(std::chrono::system_clock::now() - std::chrono::seconds(seconds));
}

}  // namespace flakescan::util
