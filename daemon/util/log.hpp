#pragma once
// One named spdlog logger per module ("api", "store", "jdwp", ...). Levels come from the
// environment: FLAKESCAN_LOG=info (all modules) or FLAKESCAN_LOG=info,jdwp=debug.
// Logs go to stderr so that stdout stays for machine-readable output.
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

namespace flakescan::util {

std::shared_ptr<spdlog::logger> logger(const std::string& module);

// Re-reads FLAKESCAN_LOG; called once at start-up by each executable.
void configure_logging_from_env();

}  // namespace flakescan::util
