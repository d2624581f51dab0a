#include "store/shuffle_columns.hpp"

#include <nlohmann/json.hpp>

namespace flakescan::store {

namespace {

using nlohmann::json;

json parse_or_null(const std::string& text) {
  if (text.empty()) return nullptr;
  return json::parse(text, nullptr, false);
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  if (auto it = j.find(key); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace

std::string shuffle_spec_text(const std::optional<core::ShuffleSpec>& spec) {
  if (!spec) return {};
  // The seed as text: JSON numbers lose 64-bit integers in many readers.
  json j{{"seed", std::to_string(spec->seed)}, {"mode", spec->mode}};
  if (!spec->sites.empty()) j["sites"] = spec->sites;
  return j.dump();
}

std::optional<core::ShuffleSpec> parse_shuffle_spec(const std::string& text) {
  json j = parse_or_null(text);
  if (!j.is_object() || !j.contains("seed") || !j["seed"].is_string()) return std::nullopt;
  core::ShuffleSpec spec;
  try {
    spec.seed = std::stoull(j["seed"].get<std::string>());
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (auto m = j.find("mode"); m != j.end() && m->is_string()) spec.mode = m->get<std::string>();
  spec.sites = strings(j, "sites");
  return spec;
}

std::string shuffled_sites_text(const std::vector<core::ShuffledSite>& sites) {
  if (sites.empty()) return {};
  json out = json::array();
  for (const auto& s : sites)
    out.push_back({{"key", s.key}, {"api", s.api}, {"via", s.via}, {"frames", s.frames},
                   {"seen", s.seen}, {"shuffled", s.shuffled}, {"size", s.size}});
  return out.dump();
}

std::vector<core::ShuffledSite> parse_shuffled_sites(const std::string& text) {
  std::vector<core::ShuffledSite> out;
  json j = parse_or_null(text);
  if (!j.is_array()) return out;
  for (const auto& s : j) {
    if (!s.is_object() || !s.contains("key") || !s["key"].is_string()) continue;
    auto num = [&](const char* k) { return s.contains(k) && s[k].is_number_integer() ? s[k].get<int>() : 0; };
    auto str = [&](const char* k) { return s.contains(k) && s[k].is_string() ? s[k].get<std::string>() : std::string(); };
    out.push_back({.key = str("key"), .api = str("api"), .via = strings(s, "via"), .frames = strings(s, "frames"),
                   .seen = num("seen"), .shuffled = num("shuffled"), .size = num("size")});
  }
  return out;
}

}  // namespace flakescan::store
