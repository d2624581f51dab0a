#pragma once
// POST /v1/explorations bodies (schema/exploration-request.schema.json), validated strictly:
// unknown fields, wrong types and out-of-range numbers are refused with invalid_argument,
// because a silently ignored field would change what runs on the device.
//
//   {"package": "com.example.app",            // required: the app to explore
//    "apk": "/path/app-debug.apk",            // optional: installed first; its package must match
//    "servers": ["127.0.0.1:5037"],           // default: the daemon's --adb-server list
//    "serial": "emulator-5554",               // default: any free device in state `device`
//    "seed": 1, "throttle_ms": 200, "events_per_step": 50,
//    "budget_seconds": 3600, "max_steps": 0, "device_wait_seconds": 120,
//    "mode": "standard",                      // tarpit analysis mode, as POST /v1/ui-traces
//    "analysis": {"t_min_ms": 600000, ...},   // tuning of the analysis (docs/tarpits.md)
//    "restart_at": [{"activity": "...", "resource_ids": ["..."]}],  // guidance, or
//    "guided_by": "e0123456789ab"}            // the guidance of an earlier exploration
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/adb/device_registry.hpp"
#include "backend/adb/monkey.hpp"
#include "tarpit/analysis.hpp"
#include "util/error.hpp"

namespace flakescan::ui_crawl {

struct CrawlRequest {
  std::vector<backend::adb::wire::ServerAddress> servers;
  std::string serial;  // empty: any free device
  std::string package;
  std::string apk;     // empty: nothing to install
  std::uint64_t seed = 1;
  int throttle_ms = 200;
  int events_per_step = 50;
  int budget_seconds = 3600;
  int max_steps = 0;   // 0: until the budget is spent
  int device_wait_seconds = 120;
  std::string mode = "standard";
  nlohmann::json analysis = nlohmann::json::object();  // validated tuning, as given
  std::vector<backend::adb::TarpitScreen> restart_at;
  std::string guided_by;  // id of an earlier exploration; resolved by the manager

  // The normalised request (defaults filled in), as stored with the exploration.
  nlohmann::json to_json() const;
};

// Validates a parsed body. `default_servers` is the daemon's --adb-server list.
util::Result<CrawlRequest> parse_crawl_request(const nlohmann::json& body,
                                                           const std::vector<backend::adb::wire::ServerAddress>& default_servers);

// The tarpit options for a mode name and an `analysis` tuning object (keys: t_min_ms,
// max_groups_per_minute, gap_cap_ms, partition_window_ms, d_max, top, keep_ms, pad_to_ms).
util::Result<tarpit::Options> analysis_options(const std::string& mode, const nlohmann::json& analysis);

// `restart_at` entries: [{"activity": "a.b.C", "resource_ids": ["pkg:id/x"]}]; each needs an
// activity or at least one id. Also reads what GET /v1/explorations/{id} gives as guidance.
util::Result<std::vector<backend::adb::TarpitScreen>> parse_restart_at(const nlohmann::json& value,
                                                                       const std::string& field = "restart_at");
nlohmann::json restart_at_json(const std::vector<backend::adb::TarpitScreen>& screens);

// Exploration ids: "e" + 12 lowercase hex digits. Anything else names no exploration.
bool valid_crawl_id(std::string_view id);

}  // namespace flakescan::ui_crawl
