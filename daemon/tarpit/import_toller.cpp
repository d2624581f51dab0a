// TOLLER/VET trace folders: one `<epoch-ms>.json` per action (the screen the action was
// performed on), docs/tarpits.md describes the fields. Screenshots `<epoch-ms>.jpg` count as captures
// for the timeline (VET's trace cut and padding use them) but carry no hierarchy.
#include <algorithm>
#include <charconv>
#include <map>

#include <nlohmann/json.hpp>

#include "tarpit/load.hpp"

namespace flakescan::tarpit {

namespace {

using nlohmann::json;

// Python's str() of a JSON scalar, as VET builds its labels with str(layout.get("id", "-1")).
std::string python_str(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "None";
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  return v.dump();
}

// Python truthiness of a JSON value.
bool truthy(const json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number()) return v.get<double>() != 0;
  if (v.is_string() || v.is_array() || v.is_object()) return !v.empty();
  return false;
}

std::string text_of(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// Capture time from "<digits>.<ext>"; false for other names.
bool capture_time(std::string_view name, std::int64_t& ts) {
  auto dot = name.find('.');
  if (dot == 0 || dot == std::string_view::npos) return false;
  auto digits = name.substr(0, dot);
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ts);
  return ec == std::errc() && p == digits.data() + digits.size();
}

std::optional<std::string> convert(const json& root, Screen& screen, Trace& trace, const ImportLimits& limits) {
  if (!root.is_object()) return "the screen is not a JSON object";
  if (auto it = root.find("act_id"); it != root.end() && it->is_string()) {
    screen.activity = trace.pool.intern(it->get_ref<const std::string&>());
    screen.has_activity = true;
  }
  if (auto it = root.find("focus"); it != root.end()) screen.focus = truthy(*it);
  if (auto it = root.find("ua_type"); it != root.end() && it->is_number_integer()) {
    screen.action_code = it->get<std::int64_t>();
    screen.action = action_type_from_toller(screen.action_code);
  }
  // Pre-order walk with an explicit stack of (node, depth).
  std::vector<std::pair<const json*, std::uint16_t>> stack{{&root, 0}};
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    if (!node->is_object() || node->empty()) continue;  // invisible views appear as {}
    if (screen.elements.size() >= limits.max_elements_per_screen) return "too many elements";
    if (depth >= 0xfff0) return "hierarchy nested too deep";
    Element e;
    auto id = node->find("id");
    e.id = trace.pool.intern(id == node->end() ? std::string("-1") : python_str(*id));
    e.cls = trace.pool.intern(text_of(*node, "class"));
    e.text = trace.pool.intern(text_of(*node, "text"));
    e.desc = trace.pool.intern(text_of(*node, "cdesc"));
    if (auto b = node->find("bound"); b != node->end() && b->is_string())
      e.has_bounds = parse_bounds(b->get_ref<const std::string&>(), e.bounds);
    if (auto v = node->find("vis"); v != node->end() && depth > 0)
      e.hidden = !(v->is_number() && v->get<double>() == 0);
    e.depth = depth;
    if (screen.source < 0 && node->contains("is_source"))
      screen.source = static_cast<std::int32_t>(screen.elements.size());
    screen.elements.push_back(e);
    if (auto ch = node->find("ch"); ch != node->end() && ch->is_array())
      for (auto it = ch->rbegin(); it != ch->rend(); ++it) stack.emplace_back(&*it, std::uint16_t(depth + 1));
  }
  compute_subtree_ends(screen.elements);
  return std::nullopt;
}

}  // namespace

util::Result<Trace> import_toller(const TraceFiles& files, std::string name, const ImportLimits& limits) {
  Trace trace;
  trace.name = std::move(name);
  trace.format = "toller";
  std::map<std::int64_t, std::string> json_files;
  for (const auto& f : files.names()) {
    if (f.find('/') != std::string::npos) continue;
    std::int64_t ts = 0;
    const bool is_json = f.ends_with(".json"), is_jpg = f.ends_with(".jpg");
    if (!(is_json || is_jpg) || !capture_time(f, ts)) continue;
    trace.timeline.push_back(ts);
    if (is_json) json_files.emplace(ts, f);
  }
  std::sort(trace.timeline.begin(), trace.timeline.end());
  trace.timeline.erase(std::unique(trace.timeline.begin(), trace.timeline.end()), trace.timeline.end());
  if (trace.timeline.empty()) return util::fail(util::Errc::not_found, "no <epoch-ms>.json screens in " + trace.name);
  if (json_files.size() > limits.max_screens)
    return util::fail(util::Errc::too_large, trace.name + ": more than " + std::to_string(limits.max_screens) + " screens");

  for (auto ts : trace.timeline) {
    auto it = json_files.find(ts);
    if (it == json_files.end()) {
      trace.problems.push_back({std::to_string(ts) + ".jpg", "a capture without its screen JSON"});
      continue;
    }
    auto text = files.read(it->second);
    if (!text) {
      trace.problems.push_back({it->second, "unreadable: " + util::describe(text.error())});
      continue;
    }
    if (text->size() > limits.max_file_bytes) {
      trace.problems.push_back({it->second, "larger than " + std::to_string(limits.max_file_bytes) + " bytes"});
      continue;
    }
    auto doc = json::parse(*text, nullptr, false);
    if (doc.is_discarded()) {
      trace.problems.push_back({it->second, "not valid JSON (truncated or corrupt)"});
      continue;
    }
    Screen screen;
    screen.time_ms = ts;
    screen.file = it->second;
    if (auto why = convert(doc, screen, trace, limits)) {
      trace.problems.push_back({it->second, *why});
      continue;
    }
    trace.screens.push_back(std::move(screen));
  }
  return trace;
}

bool parse_bounds(std::string_view s, Bounds& out) {
  // "[l,t][r,b]", spaces and signs allowed around the numbers as Python's int() does.
  std::int32_t v[4];
  std::size_t i = 0;
  auto skip = [&] { while (i < s.size() && s[i] == ' ') ++i; };
  auto expect = [&](char c) { skip(); if (i < s.size() && s[i] == c) { ++i; return true; } return false; };
  auto number = [&](std::int32_t& x) {
    skip();
    if (i < s.size() && s[i] == '+') ++i;
    auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), x);
    if (ec != std::errc()) return false;
    i = static_cast<std::size_t>(p - s.data());
    return true;
  };
  if (!(expect('[') && number(v[0]) && expect(',') && number(v[1]) && expect(']') && expect('[') &&
        number(v[2]) && expect(',') && number(v[3]) && expect(']')))
    return false;
  skip();
  if (i != s.size()) return false;
  out = Bounds{v[0], v[1], v[2], v[3]};
  return true;
}

}  // namespace flakescan::tarpit
