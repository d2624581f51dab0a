// flakescan's recorded traces: `actions.jsonl` (one JSON object per line: the capture time,
// the UI Automator dump of the screen acted on, its activity and the action) and the dumps.
// The layout and the line schema are in schema/ui-trace-recorded.schema.json.
#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

#include "tarpit/load.hpp"
#include "tarpit/xml.hpp"

namespace flakescan::tarpit {

namespace {

using nlohmann::json;

std::string attr(const XmlElement& e, std::string_view key) {
  const auto* v = e.attribute(key);
  return v ? *v : std::string();
}

// The dump's <node> elements in pre-order under one synthetic root ("hierarchy") whose bounds
// enclose the top-level windows; UI Automator dumps may hold several windows.
std::optional<std::string> convert_dump(const XmlDocument& doc, Screen& screen, Trace& trace,
                                        const ImportLimits& limits) {
  if (doc.elements.empty() || doc.elements[0].name != "hierarchy") return "not a UI Automator dump (no <hierarchy>)";
  Element root;
  root.id = trace.pool.intern("-1");
  root.cls = trace.pool.intern("hierarchy");
  root.depth = 0;
  screen.elements.push_back(root);
  bool any_bounds = false;
  Bounds all{INT_MAX, INT_MAX, INT_MIN, INT_MIN};
  std::vector<std::pair<std::uint32_t, std::uint16_t>> stack;
  const auto& top = doc.elements[0].children;
  for (auto it = top.rbegin(); it != top.rend(); ++it) stack.emplace_back(*it, 1);
  while (!stack.empty()) {
    auto [index, depth] = stack.back();
    stack.pop_back();
    const auto& x = doc.elements[index];
    if (x.name != "node") continue;
    if (screen.elements.size() >= limits.max_elements_per_screen) return "too many elements";
    Element e;
    auto rid = attr(x, "resource-id");
    e.id = trace.pool.intern(rid.empty() ? std::string("-1") : rid);
    e.cls = trace.pool.intern(attr(x, "class"));
    e.text = trace.pool.intern(attr(x, "text"));
    e.desc = trace.pool.intern(attr(x, "content-desc"));
    e.has_bounds = parse_bounds(attr(x, "bounds"), e.bounds);
    e.hidden = attr(x, "visible-to-user") == "false";
    e.depth = depth;
    if (depth == 1 && e.has_bounds) {
      any_bounds = true;
      all.left = std::min(all.left, e.bounds.left);
      all.top = std::min(all.top, e.bounds.top);
      all.right = std::max(all.right, e.bounds.right);
      all.bottom = std::max(all.bottom, e.bounds.bottom);
    }
    screen.elements.push_back(e);
    for (auto it = x.children.rbegin(); it != x.children.rend(); ++it)
      stack.emplace_back(*it, std::uint16_t(depth + 1));
  }
  if (any_bounds) {
    screen.elements[0].bounds = all;
    screen.elements[0].has_bounds = true;
  }
  compute_subtree_ends(screen.elements);
  return std::nullopt;
}

// Element index for a child-index path from the synthetic root, or -1.
std::int32_t resolve_path(const Screen& screen, const json& path) {
  std::uint32_t at = 0;
  for (const auto& step : path) {
    if (!step.is_number_unsigned() && !step.is_number_integer()) return -1;
    auto want = step.get<std::int64_t>();
    if (want < 0) return -1;
    std::uint32_t child = at + 1;
    std::int64_t k = 0;
    const auto end = screen.elements[at].end;
    while (child < end && k < want) {
      child = screen.elements[child].end;
      ++k;
    }
    if (child >= end) return -1;
    at = child;
  }
  return at == 0 ? -1 : static_cast<std::int32_t>(at);
}

// A tap coordinate: an integer, or a finite number within a screen's reach (recorders write
// 540.5); a number no int64 holds (6e113) is not a place on a screen. Nothing else.
std::optional<std::int64_t> coordinate(const nlohmann::json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (!it->is_number_float()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v) || std::fabs(v) > 1e9) return std::nullopt;
  return static_cast<std::int64_t>(std::floor(v));
}

// The deepest visible element containing (x, y), or -1.
std::int32_t resolve_point(const Screen& screen, std::int64_t x, std::int64_t y) {
  std::int32_t found = -1;
  for (std::uint32_t k = 1; k < screen.elements.size();) {
    const auto& e = screen.elements[k];
    const bool inside = e.has_bounds && !e.hidden && x >= e.bounds.left && x < e.bounds.right &&
                        y >= e.bounds.top && y < e.bounds.bottom;
    if (inside) {
      found = static_cast<std::int32_t>(k);
      ++k;  // look for a deeper match inside
    } else {
      k = e.end > k ? e.end : k + 1;
    }
  }
  return found;
}

// The non-blank lines of actions.jsonl, each with its 1-based number.
std::vector<std::pair<std::size_t, std::string_view>> non_blank_lines(std::string_view text) {
  std::vector<std::pair<std::size_t, std::string_view>> out;
  std::size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) out.emplace_back(line_no, line);
  }
  return out;
}

// The screen an action line names (its "ts" and "screen" already checked): capture time, dump
// file, activity, focus and action. Its elements come from the dump (read_dump).
Screen action_screen(const json& doc, Trace& trace) {
  Screen screen;
  screen.time_ms = doc["ts"].get<std::int64_t>();
  screen.file = doc["screen"].get<std::string>();
  if (auto a = doc.find("activity"); a != doc.end() && a->is_string()) {
    screen.activity = trace.pool.intern(a->get_ref<const std::string&>());
    screen.has_activity = true;
  }
  screen.focus = true;
  if (auto f = doc.find("focus"); f != doc.end() && f->is_boolean()) screen.focus = f->get<bool>();
  if (auto a = doc.find("action"); a != doc.end() && a->is_string())
    screen.action = parse_action_type(a->get_ref<const std::string&>());
  if (auto c = doc.find("code"); c != doc.end() && c->is_number_integer()) screen.action_code = c->get<std::int64_t>();
  return screen;
}

// Reads the screen's dump into its elements and finds the element acted on ("target" path or
// x/y). False, with a problem in the trace, when the dump is missing, too large or no dump.
bool read_dump(const TraceFiles& files, const json& doc, const std::string& where, const ImportLimits& limits,
               Screen& screen, Trace& trace) {
  auto xml_text = files.read(screen.file);
  if (!xml_text) {
    trace.problems.push_back({screen.file, "missing or unreadable dump (" + where + ")"});
    return false;
  }
  if (xml_text->size() > limits.max_file_bytes) {
    trace.problems.push_back({screen.file, "larger than " + std::to_string(limits.max_file_bytes) + " bytes"});
    return false;
  }
  auto xml = parse_xml(*xml_text);
  if (!xml) {
    trace.problems.push_back({screen.file, xml.error().code == util::Errc::need_more
                                               ? "truncated XML dump"
                                               : "corrupt XML dump: " + xml.error().message});
    return false;
  }
  if (auto why = convert_dump(*xml, screen, trace, limits)) {
    trace.problems.push_back({screen.file, *why});
    return false;
  }
  if (auto t = doc.find("target"); t != doc.end() && t->is_array()) {
    screen.source = resolve_path(screen, *t);
    if (screen.source < 0) trace.problems.push_back({where, "target path does not name an element; kept without it"});
  } else if (auto x = coordinate(doc, "x"), y = coordinate(doc, "y"); x && y) {
    screen.source = resolve_point(screen, *x, *y);
  }
  return true;
}

// Screens in time order, one per capture time (a later one at the same time is a problem);
// the timeline sorted, each time once.
void order_screens(Trace& trace) {
  std::stable_sort(trace.screens.begin(), trace.screens.end(),
                   [](const Screen& a, const Screen& b) { return a.time_ms < b.time_ms; });
  std::vector<Screen> unique;
  for (auto& s : trace.screens) {
    if (!unique.empty() && unique.back().time_ms == s.time_ms) {
      trace.problems.push_back({s.file, "a second screen at the same time; skipped"});
      continue;
    }
    unique.push_back(std::move(s));
  }
  trace.screens = std::move(unique);
  std::sort(trace.timeline.begin(), trace.timeline.end());
  trace.timeline.erase(std::unique(trace.timeline.begin(), trace.timeline.end()), trace.timeline.end());
}

}  // namespace

util::Result<Trace> import_recorded(const TraceFiles& files, std::string name, const ImportLimits& limits) {
  Trace trace;
  trace.name = std::move(name);
  trace.format = "flakescan";
  auto text = files.read("actions.jsonl");
  if (!text) return std::unexpected(text.error());
  for (const auto& [line_no, line] : non_blank_lines(*text)) {
    const std::string where = "actions.jsonl line " + std::to_string(line_no);
    auto doc = json::parse(line, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      trace.problems.push_back({where, "not a JSON object (truncated or corrupt)"});
      continue;
    }
    auto ts = doc.find("ts");
    auto file = doc.find("screen");
    if (ts == doc.end() || !ts->is_number_integer() || file == doc.end() || !file->is_string()) {
      trace.problems.push_back({where, "needs integer \"ts\" and string \"screen\""});
      continue;
    }
    if (trace.screens.size() >= limits.max_screens)
      return util::fail(util::Errc::too_large, trace.name + ": more than " + std::to_string(limits.max_screens) + " screens");
    trace.timeline.push_back(ts->get<std::int64_t>());
    Screen screen = action_screen(doc, trace);
    if (read_dump(files, doc, where, limits, screen, trace)) trace.screens.push_back(std::move(screen));
  }
  order_screens(trace);
  if (trace.timeline.empty()) return util::fail(util::Errc::not_found, trace.name + ": actions.jsonl names no screens");
  return trace;
}

}  // namespace flakescan::tarpit
