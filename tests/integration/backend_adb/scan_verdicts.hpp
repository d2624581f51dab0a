#pragma once
// Test support for whole scans on (fake) devices: waits for a submitted scan to end and reads
// its verdict file.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "scan/scan_manager.hpp"

namespace flakescan::test {

struct ScanVerdicts {
  std::map<std::string, nlohmann::json> by_test;
  std::string file;  // the verdict file, for INFO
};

// Polls every 50 ms for up to `limit`; REQUIREs that the scan completed and has a verdict file.
inline ScanVerdicts completed_scan_verdicts(scan::ScanManager& manager, const std::string& id, std::chrono::seconds limit) {
  std::string state;
  for (auto until = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < until;) {
    auto rec = manager.get(id);
    REQUIRE(rec);
    state = rec->state;
    if (state != "queued" && state != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  REQUIRE(state == "completed");
  auto file = manager.verdict_file(id);
  REQUIRE(file);
  ScanVerdicts out;
  for (const auto& v : (*file)["verdicts"]) out.by_test[v["test"].get<std::string>()] = v;
  out.file = file->dump(2);
  return out;
}

}  // namespace flakescan::test
