#include "ui_crawl/crawl_request.hpp"

#include <filesystem>
#include <set>

#include "backend/adb/apk.hpp"
#include "backend/adb/shell_command.hpp"
#include "core/test_id.hpp"

namespace flakescan::ui_crawl {

namespace {

using nlohmann::json;
using util::Errc;

constexpr std::size_t max_restart_screens = 64;
constexpr std::size_t max_ids_per_screen = 64;
constexpr std::int64_t one_day_ms = 86'400'000;

std::unexpected<util::Error> bad(const std::string& field, const std::string& what) {
  return util::fail(Errc::invalid_argument, "'" + field + "' " + what);
}

util::Result<std::int64_t> integer(const json& body, const std::string& field, std::int64_t min, std::int64_t max) {
  const json& v = body.at(field);
  if (!v.is_number_integer()) return bad(field, "must be an integer");
  auto n = v.get<std::int64_t>();
  if (n < min || n > max) return bad(field, "must be between " + std::to_string(min) + " and " + std::to_string(max));
  return n;
}

bool all_of_chars(std::string_view s, std::string_view extra) {
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || extra.find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

// UI Automator resource ids: "com.example:id/name", "android:id/content".
bool valid_resource_id(std::string_view s) { return !s.empty() && s.size() <= 256 && all_of_chars(s, "_.:/$-"); }

// adb serials: "emulator-5554", "192.168.1.5:5555", "adb-R58M._adb-tls-connect._tcp".
bool valid_serial(std::string_view s) { return !s.empty() && s.size() <= 128 && all_of_chars(s, "_.:@+-"); }

}  // namespace

bool valid_crawl_id(std::string_view id) {
  if (id.size() != 13 || id[0] != 'e') return false;
  for (char c : id.substr(1))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

util::Result<std::vector<backend::adb::TarpitScreen>> parse_restart_at(const json& value, const std::string& field) {
  if (!value.is_array()) return bad(field, "must be an array of tarpit screens");
  if (value.size() > max_restart_screens) return bad(field, "holds more than " + std::to_string(max_restart_screens) + " screens");
  std::vector<backend::adb::TarpitScreen> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const json& s = value[i];
    std::string where = field + "[" + std::to_string(i) + "]";
    if (!s.is_object()) return bad(where, "must be an object with 'activity' and/or 'resource_ids'");
    for (const auto& [key, v] : s.items())
      if (key != "activity" && key != "resource_ids") return util::fail(Errc::invalid_argument, "unknown field '" + where + "." + key + "'");
    backend::adb::TarpitScreen screen;
    if (s.contains("activity")) {
      if (!s["activity"].is_string()) return bad(where + ".activity", "must be a string");
      screen.activity = s["activity"].get<std::string>();
      if (!screen.activity.empty() && !core::valid_binary_name(screen.activity))
        return bad(where + ".activity", "must be a Java class name (com.example.MainActivity)");
    }
    if (s.contains("resource_ids")) {
      const json& ids = s["resource_ids"];
      if (!ids.is_array()) return bad(where + ".resource_ids", "must be an array of strings");
      if (ids.size() > max_ids_per_screen) return bad(where + ".resource_ids", "holds more than " + std::to_string(max_ids_per_screen) + " ids");
      for (const auto& id : ids) {
        if (!id.is_string() || !valid_resource_id(id.get<std::string>()))
          return bad(where + ".resource_ids", "must hold resource ids like com.example:id/name");
        screen.resource_ids.push_back(id.get<std::string>());
      }
    }
    if (screen.activity.empty() && screen.resource_ids.empty())
      return bad(where, "needs an activity or at least one resource id (it would match nothing)");
    out.push_back(std::move(screen));
  }
  return out;
}

json restart_at_json(const std::vector<backend::adb::TarpitScreen>& screens) {
  json out = json::array();
  for (const auto& s : screens) {
    json j = json::object();
    if (!s.activity.empty()) j["activity"] = s.activity;
    j["resource_ids"] = s.resource_ids;
    out.push_back(std::move(j));
  }
  return out;
}

util::Result<tarpit::Options> analysis_options(const std::string& mode, const json& analysis) {
  tarpit::Options o;
  if (mode == "standard") o = tarpit::Options::standard();
  else if (mode == "vet-compatible") o = tarpit::Options::vet_compatible();
  else return bad("mode", "must be \"standard\" or \"vet-compatible\"");
  if (!analysis.is_object()) return bad("analysis", "must be an object");
  for (const auto& [key, v] : analysis.items()) {
    std::string field = "analysis." + key;
    if (key == "max_groups_per_minute") {
      if (!v.is_number() || v.get<double>() <= 0 || v.get<double>() > 1e12) return bad(field, "must be a number above 0");
      o.max_groups_per_minute = v.get<double>();
      continue;
    }
    std::int64_t min = 0, max = one_day_ms;
    if (key == "d_max") max = 100;
    else if (key == "top") min = 1, max = 100;
    else if (key == "partition_window_ms") min = 1;
    else if (key != "t_min_ms" && key != "gap_cap_ms" && key != "keep_ms" && key != "pad_to_ms")
      return util::fail(Errc::invalid_argument, "unknown field '" + field + "'");
    auto n = integer(analysis, key, min, max);
    if (!n) return bad(field, n.error().message.substr(n.error().message.find(' ') + 1));
    if (key == "t_min_ms") o.t_min_ms = *n;
    else if (key == "gap_cap_ms") o.gap_cap_ms = *n;
    else if (key == "partition_window_ms") o.partition_window_ms = *n;
    else if (key == "d_max") o.similarity.d_max = int(*n);
    else if (key == "top") o.top_k = int(*n);
    else if (key == "keep_ms") o.keep_ms = *n;
    else if (key == "pad_to_ms") o.pad_to_ms = *n;
  }
  return o;
}

namespace {

// "servers": adb server addresses (default: the daemon's).
util::Result<void> parse_servers(const json& body, const std::vector<backend::adb::wire::ServerAddress>& default_servers,
                                 CrawlRequest& r) {
  if (body.contains("servers")) {
    const json& v = body["servers"];
    if (!v.is_array() || v.empty()) return bad("servers", "must be a non-empty array of adb server addresses");
    if (v.size() > 64) return bad("servers", "names more than 64 adb servers");
    for (const auto& s : v) {
      if (!s.is_string()) return bad("servers", "must contain only strings");
      auto address = backend::adb::wire::ServerAddress::parse(s.get<std::string>());
      if (!address) return bad("servers", address.error().message);
      r.servers.push_back(*address);
    }
  } else {
    r.servers = default_servers;
  }
  if (r.servers.empty()) return bad("servers", "must name at least one adb server");
  return {};
}

// "apk": a file on the daemon's machine that holds the request's package.
util::Result<void> parse_apk(const json& apk, CrawlRequest& r) {
  if (!apk.is_string() || apk.get<std::string>().empty()) return bad("apk", "must be a path");
  r.apk = apk.get<std::string>();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(r.apk, ec)) return bad("apk", "names no file on the daemon's machine: " + r.apk);
  auto package = backend::adb::apk_package_from_file(r.apk);
  if (!package) return bad("apk", "is not a readable APK: " + package.error().message);
  if (*package != r.package) return bad("apk", "holds package " + *package + ", not " + r.package);
  return {};
}

}  // namespace

util::Result<CrawlRequest> parse_crawl_request(const json& body,
                                                           const std::vector<backend::adb::wire::ServerAddress>& default_servers) {
  if (!body.is_object()) return util::fail(Errc::invalid_argument, "the request body must be a JSON object");
  static const std::set<std::string> fields{"servers", "serial", "package", "apk", "seed", "throttle_ms", "events_per_step",
                                            "budget_seconds", "max_steps", "device_wait_seconds", "mode", "analysis",
                                            "restart_at", "guided_by"};
  for (const auto& [key, value] : body.items())
    if (!fields.contains(key)) return util::fail(Errc::invalid_argument, "unknown field '" + key + "'");

  CrawlRequest r;
  if (!body.contains("package")) return util::fail(Errc::invalid_argument, "'package' is required");
  if (!body["package"].is_string()) return bad("package", "must be a string");
  r.package = body["package"].get<std::string>();
  if (auto ok = backend::adb::check_package(r.package); !ok) return bad("package", ok.error().message);

  if (auto ok = parse_servers(body, default_servers, r); !ok) return std::unexpected(ok.error());

  if (body.contains("serial")) {
    if (!body["serial"].is_string() || !valid_serial(body["serial"].get<std::string>()))
      return bad("serial", "must be an adb serial (letters, digits and _.:@+-)");
    r.serial = body["serial"].get<std::string>();
  }
  if (body.contains("apk"))
    if (auto ok = parse_apk(body["apk"], r); !ok) return std::unexpected(ok.error());
  if (body.contains("seed")) {
    const json& seed = body["seed"];
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0))
      return bad("seed", "must be a non-negative integer");
    r.seed = seed.get<std::uint64_t>();
  }
  struct IntField {
    const char* name;
    int* target;
    std::int64_t min, max;
  };
  for (const IntField& f : {IntField{"throttle_ms", &r.throttle_ms, 0, 10'000}, IntField{"events_per_step", &r.events_per_step, 1, 100'000},
                            IntField{"budget_seconds", &r.budget_seconds, 1, 86'400}, IntField{"max_steps", &r.max_steps, 0, 1'000'000},
                            IntField{"device_wait_seconds", &r.device_wait_seconds, 0, 3600}}) {
    if (!body.contains(f.name)) continue;
    auto n = integer(body, f.name, f.min, f.max);
    if (!n) return std::unexpected(n.error());
    *f.target = int(*n);
  }
  if (body.contains("mode")) {
    if (!body["mode"].is_string()) return bad("mode", "must be a string");
    r.mode = body["mode"].get<std::string>();
  }
  if (body.contains("analysis")) r.analysis = body["analysis"];
  if (auto o = analysis_options(r.mode, r.analysis); !o) return std::unexpected(o.error());

  if (body.contains("restart_at") && body.contains("guided_by"))
    return util::fail(Errc::invalid_argument, "give either 'restart_at' or 'guided_by', not both");
  if (body.contains("restart_at")) {
    auto screens = parse_restart_at(body["restart_at"]);
    if (!screens) return std::unexpected(screens.error());
    r.restart_at = std::move(*screens);
  }
  if (body.contains("guided_by")) {
    if (!body["guided_by"].is_string() || !valid_crawl_id(body["guided_by"].get<std::string>()))
      return bad("guided_by", "must be an exploration id (e + 12 hex digits)");
    r.guided_by = body["guided_by"].get<std::string>();
  }
  return r;
}

json CrawlRequest::to_json() const {
  json servers_json = json::array();
  for (const auto& s : servers) servers_json.push_back(s.str());
  json j{{"servers", servers_json},
         {"serial", serial.empty() ? json(nullptr) : json(serial)},
         {"package", package},
         {"apk", apk.empty() ? json(nullptr) : json(apk)},
         {"seed", seed},
         {"throttle_ms", throttle_ms},
         {"events_per_step", events_per_step},
         {"budget_seconds", budget_seconds},
         {"max_steps", max_steps},
         {"device_wait_seconds", device_wait_seconds},
         {"mode", mode},
         {"analysis", analysis},
         {"restart_at", restart_at_json(restart_at)},
         {"guided_by", guided_by.empty() ? json(nullptr) : json(guided_by)}};
  return j;
}

}  // namespace flakescan::ui_crawl
