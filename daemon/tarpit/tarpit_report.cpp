#include "tarpit/tarpit_report.hpp"

#include <cinttypes>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace flakescan::tarpit {

namespace {

using nlohmann::ordered_json;

std::string bounds_text(const Bounds& b) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%d,%d][%d,%d]", b.left, b.top, b.right, b.bottom);
  return buf;
}

// "12:03.1" relative to the trace start.
std::string clock(std::int64_t ms) {
  char buf[48];
  const char* sign = ms < 0 ? "-" : "";
  if (ms < 0) ms = -ms;
  std::snprintf(buf, sizeof buf, "%s%" PRId64 ":%02" PRId64 ".%" PRId64, sign, ms / 60000, (ms / 1000) % 60,
                (ms / 100) % 10);
  return buf;
}

std::string span_text(std::int64_t ms) {
  char buf[48];
  if (ms >= 60'000)
    std::snprintf(buf, sizeof buf, "%" PRId64 "m%02" PRId64 "s", ms / 60000, (ms / 1000) % 60);
  else
    std::snprintf(buf, sizeof buf, "%.1fs", double(ms) / 1000.0);
  return buf;
}

ordered_json action_json(const ActionDescription& d) {
  ordered_json j;
  j["ts"] = d.ts;
  j["padded"] = d.padded;
  j["file"] = d.padded ? ordered_json(nullptr) : ordered_json(d.file);
  j["activity"] = d.activity;
  j["type"] = std::string(action_type_name(d.type));
  j["code"] = d.code;
  if (d.has_element) {
    j["element"] = {{"id", d.element_id},
                    {"class", d.element_class},
                    {"text", d.element_text},
                    {"description", d.element_desc},
                    {"bounds", bounds_text(d.element_bounds)}};
  } else {
    j["element"] = nullptr;
  }
  j["summary"] = action_sentence(d);
  return j;
}

std::string file_ref(const Trace& t, std::int64_t ts) {
  const auto* s = t.screen_at(ts);
  return t.name + "/" + (s ? s->file : std::to_string(ts) + ".json");
}

}  // namespace

ActionDescription describe_action(const Trace& trace, std::int64_t ts) {
  ActionDescription d;
  d.ts = ts;
  const Screen* s = trace.screen_at(ts);
  if (!s) {
    d.padded = true;
    return d;
  }
  d.file = s->file;
  d.activity = s->has_activity ? trace.pool.at(s->activity) : std::string();
  d.type = s->action;
  d.code = s->action_code;
  if (s->source >= 0 && std::size_t(s->source) < s->elements.size()) {
    const auto& e = s->elements[std::size_t(s->source)];
    d.has_element = true;
    d.element_id = trace.pool.at(e.id) == "-1" ? std::string() : trace.pool.at(e.id);
    d.element_class = trace.pool.at(e.cls);
    d.element_text = trace.pool.at(e.text);
    d.element_desc = trace.pool.at(e.desc);
    d.element_bounds = e.bounds;
  }
  return d;
}

std::string action_sentence(const ActionDescription& d) {
  if (d.padded) return "no recorded action (padding after the trace ended)";
  std::string s(action_type_name(d.type));
  if (d.type == ActionType::other && d.code >= 0) s += " (code " + std::to_string(d.code) + ")";
  if (d.has_element) {
    s += " on " + (d.element_class.empty() ? std::string("element") : d.element_class);
    if (!d.element_id.empty()) s += " id=" + d.element_id;
    if (!d.element_text.empty()) s += " text=\"" + d.element_text + "\"";
    else if (!d.element_desc.empty()) s += " desc=\"" + d.element_desc + "\"";
    s += " " + bounds_text(d.element_bounds);
  } else if (d.type != ActionType::back && d.type != ActionType::menu) {
    s += " (no source element recorded)";
  }
  s += " in " + (d.activity.empty() ? std::string("an unknown activity") : d.activity);
  return s;
}

namespace {

ordered_json parameters_json(const Options& o) {
  return {
      {"keep_ms", o.keep_ms},
      {"pad_to_ms", o.pad_to_ms},
      {"pad_slack_ms", o.pad_slack_ms},
      {"merge_equal_keys", o.merge_equal_keys},
      {"d_max", o.similarity.d_max},
      {"max_size_gap", o.similarity.max_size_gap},
      {"vet_small_screen_quirk", o.similarity.vet_small_screen_quirk},
      {"t_min_ms", o.t_min_ms},
      {"score", o.time_score ? "groups_per_minute" : "groups_per_action"},
      {"max_groups_per_minute", o.time_score ? ordered_json(o.max_groups_per_minute) : ordered_json(nullptr)},
      {"gap_cap_ms", o.gap_cap_ms},
      {"partition_window_ms", o.partition_window_ms},
      {"top_k", o.top_k},
  };
}

ordered_json region_json(const Trace& t, const Region& reg) {
  ordered_json rj;
  rj["kind"] = std::string(region_kind_name(reg.kind));
  rj["rank"] = reg.rank ? ordered_json(reg.rank) : ordered_json(nullptr);
  rj["ts_action"] = reg.ts_action;
  rj["ts_begin"] = reg.ts_begin;
  rj["ts_end"] = reg.ts_end;
  rj["duration_ms"] = reg.duration_ms();
  rj["entries"] = reg.entries;
  rj["distinct_screens"] = reg.distinct_screens;
  rj["distinct_groups"] = reg.distinct_groups;
  rj["score"] = reg.score;
  rj["action"] = action_json(describe_action(t, reg.ts_action));
  return rj;
}

ordered_json guidance_json(const Trace& t, const Guidance& g) {
  ordered_json gj;
  gj["rank"] = g.rank;
  gj["region"] = g.region;
  gj["disable"] = action_json(describe_action(t, g.disable_ts));
  if (g.restart) {
    auto d = describe_action(t, g.restart_ts);
    gj["restart_at"] = {{"ts", g.restart_ts}, {"file", d.padded ? ordered_json(nullptr) : ordered_json(d.file)},
                        {"activity", d.activity}};
  } else {
    gj["restart_at"] = nullptr;
  }
  return gj;
}

// VET's prevent_actions entry: the screen whose action to disable, "!" + restart screen.
ordered_json vet_action(const Trace& t, const Guidance& g) {
  ordered_json entry = ordered_json::array({file_ref(t, g.disable_ts)});
  if (g.restart) entry.push_back(std::string(1, '!').append(file_ref(t, g.restart_ts)));
  return entry;
}

ordered_json trace_json(const TraceReport& r) {
  const auto& t = *r.trace;
  const auto& a = r.analysis;
  ordered_json tj;
  tj["name"] = t.name;
  tj["format"] = t.format;
  tj["usable"] = a.usable;
  tj["unusable_reason"] = a.usable ? ordered_json(nullptr) : ordered_json(a.unusable_reason);
  tj["screens"] = {{"read", a.screens_read},   {"dropped", a.screens_dropped}, {"padded", a.padded},
                   {"unique", a.unique_screens}, {"groups", a.groups}};
  tj["first_ms"] = a.first_ms;
  tj["last_ms"] = a.last_ms;
  tj["duration_ms"] = a.last_ms - a.first_ms;
  tj["time_in_regions_ms"] = a.time_in_regions_ms;
  // ordered_json keeps keys in a vector: build arrays apart, insert them last.
  auto problems = ordered_json::array();
  for (const auto& p : t.problems) problems.push_back({{"file", p.file}, {"message", p.message}});
  tj["problems"] = std::move(problems);
  auto regions = ordered_json::array();
  for (const auto& reg : a.regions) regions.push_back(region_json(t, reg));
  tj["regions"] = std::move(regions);
  auto guidance = ordered_json::array();
  for (const auto& g : a.guidance) guidance.push_back(guidance_json(t, g));
  tj["guidance"] = std::move(guidance);
  return tj;
}

}  // namespace

std::string report_json(const std::vector<TraceReport>& reports, const Options& o) {
  ordered_json root;
  root["schema_version"] = 1;
  root["mode"] = std::string(mode_name(o.mode));
  root["parameters"] = parameters_json(o);
  auto traces = ordered_json::array();
  auto vet_actions = ordered_json::array();  // every trace's guidance, in order
  for (const auto& r : reports) {
    traces.push_back(trace_json(r));
    for (const auto& g : r.analysis.guidance) vet_actions.push_back(vet_action(*r.trace, g));
  }
  root["traces"] = std::move(traces);
  root["vet_actions"] = std::move(vet_actions);
  return root.dump(2) + "\n";
}

std::string report_text(const std::vector<TraceReport>& reports, const Options& o) {
  std::string out;
  char buf[512];
  out += "tarpit analysis, mode " + std::string(mode_name(o.mode)) + " (" +
         (o.time_score ? "distinct screen groups per minute <= " + std::to_string(o.max_groups_per_minute).substr(0, 4)
                       : std::string("distinct screen groups per action, VET")) +
         ", t_min " + span_text(o.t_min_ms) + ")\n";
  for (const auto& r : reports) {
    const auto& t = *r.trace;
    const auto& a = r.analysis;
    out += "\ntrace " + t.name + " (" + t.format + ")";
    if (!a.usable) {
      out += ": not analysed, " + a.unusable_reason + "\n";
    } else {
      std::snprintf(buf, sizeof buf,
                    ": %zu screens (%zu dropped, %zu padded), %zu unique, %zu groups, %s long\n",
                    a.screens_read, a.screens_dropped, a.padded, a.unique_screens, a.groups,
                    span_text(a.last_ms - a.first_ms).c_str());
      out += buf;
    }
    if (!t.problems.empty()) {
      out += "  skipped " + std::to_string(t.problems.size()) + " problem(s):\n";
      for (std::size_t i = 0; i < t.problems.size() && i < 10; ++i)
        out += "    " + t.problems[i].file + ": " + t.problems[i].message + "\n";
      if (t.problems.size() > 10) out += "    ...\n";
    }
    if (!a.usable) continue;
    if (a.regions.empty()) {
      out += "  no tarpit found\n";
      continue;
    }
    for (std::size_t i = 0; i < a.regions.size(); ++i) {
      const auto& reg = a.regions[i];
      char rank_buf[16];
      std::snprintf(rank_buf, sizeof rank_buf, reg.rank ? "#%d" : " -", reg.rank);
      std::string rank = rank_buf;
      std::string score = reg.kind == RegionKind::partition ? "score " + std::to_string(reg.score).substr(0, 5)
                          : o.time_score ? std::to_string(reg.score).substr(0, 5) + " groups/min"
                                         : std::to_string(reg.score).substr(0, 6) + " groups/action";
      std::snprintf(buf, sizeof buf, "  %s %-9s %s - %s: %s spent, %zu screens, %zu distinct groups, %s\n",
                    rank.c_str(), std::string(region_kind_name(reg.kind)).c_str(),
                    clock(reg.ts_begin - a.first_ms).c_str(), clock(reg.ts_end - a.first_ms).c_str(),
                    span_text(reg.duration_ms()).c_str(), reg.entries, reg.distinct_groups, score.c_str());
      out += buf;
      auto d = describe_action(t, reg.ts_action);
      out += "       destructive action: " + action_sentence(d) + " at " + clock(reg.ts_action - a.first_ms) +
             (d.padded ? "" : " (" + d.file + ")") + "\n";
    }
    for (const auto& g : a.guidance) {
      auto d = describe_action(t, g.disable_ts);
      out += "  guidance #" + std::to_string(g.rank) + ": disable " + action_sentence(d);
      if (g.restart) {
        auto rd = describe_action(t, g.restart_ts);
        out += "; restart the app when the screen first seen at " + clock(g.restart_ts - a.first_ms) + " (" +
               rd.activity + ", " + rd.file + ") shows";
      }
      out += "\n";
    }
    std::snprintf(buf, sizeof buf, "  time in tarpits: %s of %s (%.0f%%)\n", span_text(a.time_in_regions_ms).c_str(),
                  span_text(a.last_ms - a.first_ms).c_str(),
                  a.last_ms > a.first_ms ? 100.0 * double(a.time_in_regions_ms) / double(a.last_ms - a.first_ms) : 0.0);
    out += buf;
  }
  return out;
}

}  // namespace flakescan::tarpit
