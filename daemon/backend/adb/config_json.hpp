#pragma once
// The JSON side of the adb backend, for the API and scan layers: the `adb` object of a
// scan request (POST /v1/scans, backend "adb") and the body of GET /v1/devices.
//
// Scan request `adb` object (unknown fields are refused, like the rest of the request):
//   {"servers": ["127.0.0.1:5037", "farm.example:5037"],   // default ["127.0.0.1:5037"]
//    "app_apk": "/path/app-debug.apk",                      // optional (library tests)
//    "test_apk": "/path/app-debug-androidTest.apk",         // required
//    "app_package": "com.example.app",                      // default: from app_apk
//    "test_package": "com.example.app.test",                // default: from test_apk
//    "runner": "androidx.test.runner.AndroidJUnitRunner",   // default
//    "instrumentation_args": {"clearPackageData": "true"},  // extra -e key value
//    "clear_state": false, "skip_install": false, "max_attempts": 3,
//    "device_wait_seconds": 120}
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/adb/device_registry.hpp"
#include "backend/adb/adb_executor.hpp"

namespace flakescan::backend::adb {

util::Result<AdbBackendConfig> adb_config_from_json(const nlohmann::json& adb);

// GET /v1/devices: {"devices": [{"server", "serial", "state", "model", "product", "busy", "runs"}]}
nlohmann::json devices_json(const std::vector<DeviceInfo>& devices);

// One registry per distinct list of adb servers, shared by every scan and GET /v1/devices in
// the process, started on first use and kept while anyone holds it.
std::shared_ptr<DeviceRegistry> shared_registry(const std::vector<wire::ServerAddress>& servers);

// Executor for a scan: adb_config_from_json + the shared registry + logs under work_dir.
util::Result<std::unique_ptr<core::TestExecutor>> make_adb_executor_from_json(const nlohmann::json& adb,
                                                                             const std::string& work_dir);

}  // namespace flakescan::backend::adb
