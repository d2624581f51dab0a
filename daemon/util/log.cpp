#include "util/log.hpp"

#include <cstdlib>
#include <mutex>
#include <spdlog/cfg/helpers.h>
#include <spdlog/sinks/stdout_color_sinks.h>

namespace flakescan::util {

namespace {
std::mutex mutex;
}

std::shared_ptr<spdlog::logger> logger(const std::string& module) {
  std::lock_guard lock(mutex);
  if (auto existing = spdlog::get(module)) return existing;
  auto made = spdlog::stderr_color_mt(module);
  made->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [%n] %v");
  if (const char* env = std::getenv("FLAKESCAN_LOG")) {
    // Levels set by configure_logging_from_env apply to loggers made later too.
    spdlog::cfg::helpers::load_levels(env);
  }
  return made;
}

void configure_logging_from_env() {
  if (const char* env = std::getenv("FLAKESCAN_LOG")) spdlog::cfg::helpers::load_levels(env);
}

}  // namespace flakescan::util
