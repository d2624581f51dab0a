#include "backend/adb/config_json.hpp"

#include <map>
#include <mutex>

namespace flakescan::backend::adb {

using nlohmann::json;
using util::Errc;
using util::fail;

util::Result<AdbBackendConfig> adb_config_from_json(const json& adb) {
  AdbBackendConfig c;
  if (adb.is_null()) return fail(Errc::invalid_argument, "backend adb needs an `adb` object with at least test_apk");
  if (!adb.is_object()) return fail(Errc::invalid_argument, "`adb` must be an object");
  auto bad = [](const std::string& key, const char* want) {
    return fail(Errc::invalid_argument, "adb." + key + " must be " + want);
  };
  for (auto it = adb.begin(); it != adb.end(); ++it) {
    const std::string& key = it.key();
    const json& v = it.value();
    if (key == "servers") {
      if (!v.is_array()) return bad(key, "an array of \"host:port\" strings");
      for (const auto& s : v) {
        if (!s.is_string()) return bad(key, "an array of \"host:port\" strings");
        auto addr = wire::ServerAddress::parse(s.get<std::string>());
        if (!addr) return std::unexpected(addr.error());
        c.servers.push_back(*addr);
      }
    } else if (key == "app_apk" || key == "test_apk" || key == "app_package" || key == "test_package" || key == "runner") {
      if (!v.is_string()) return bad(key, "a string");
      std::string s = v.get<std::string>();
      if (key == "app_apk") c.app_apk = s;
      else if (key == "test_apk") c.test_apk = s;
      else if (key == "app_package") c.app_package = s;
      else if (key == "test_package") c.test_package = s;
      else c.runner = s;
    } else if (key == "instrumentation_args") {
      if (!v.is_object()) return bad(key, "an object of string values");
      for (auto a = v.begin(); a != v.end(); ++a) {
        if (!a.value().is_string()) return bad(key, "an object of string values");
        c.instrumentation_args.emplace_back(a.key(), a.value().get<std::string>());
      }
    } else if (key == "clear_state" || key == "skip_install") {
      if (!v.is_boolean()) return bad(key, "true or false");
      (key == "clear_state" ? c.clear_state : c.skip_install) = v.get<bool>();
    } else if (key == "max_attempts" || key == "device_wait_seconds") {
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 86400) return bad(key, "a positive integer");
      if (key == "max_attempts") c.max_attempts = int(v.get<long long>());
      else c.device_wait = std::chrono::seconds(v.get<long long>());
    } else {
      return fail(Errc::invalid_argument, "unknown field adb." + key);
    }
  }
  if (c.servers.empty()) c.servers.push_back({});
  if (c.test_apk.empty() && !(c.skip_install && !c.test_package.empty()))
    return fail(Errc::invalid_argument, "adb.test_apk is required (or skip_install with test_package)");
  return c;
}

json devices_json(const std::vector<DeviceInfo>& devices) {
  json list = json::array();
  for (const auto& d : devices)
    list.push_back({{"server", d.server}, {"serial", d.serial}, {"state", d.state}, {"model", d.model},
                    {"product", d.product}, {"busy", d.busy}, {"runs", d.runs}});
  return {{"devices", list}};
}

std::shared_ptr<DeviceRegistry> shared_registry(const std::vector<wire::ServerAddress>& servers) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<DeviceRegistry>> cache;
  std::vector<wire::ServerAddress> list = servers.empty() ? std::vector<wire::ServerAddress>{{}} : servers;
  std::string key;
  for (const auto& s : list) key += s.str() + ",";
  std::lock_guard lock(mutex);
  if (auto existing = cache[key].lock()) return existing;
  auto registry = std::make_shared<DeviceRegistry>(list);
  registry->start();
  registry->wait_until_tracked(std::chrono::milliseconds(3000));
  cache[key] = registry;
  return registry;
}

util::Result<std::unique_ptr<core::TestExecutor>> make_adb_executor_from_json(const json& adb, const std::string& work_dir) {
  auto config = adb_config_from_json(adb);
  if (!config) return std::unexpected(config.error());
  if (!work_dir.empty()) config->log_dir = work_dir + "/adb-logs";
  auto registry = shared_registry(config->servers);
  auto exec = make_adb_executor(std::move(*config), registry);
  if (!exec) return std::unexpected(exec.error());
  return std::unique_ptr<core::TestExecutor>(std::move(*exec));
}

}  // namespace flakescan::backend::adb
