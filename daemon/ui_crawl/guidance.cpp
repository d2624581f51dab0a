#include "ui_crawl/guidance.hpp"

#include <algorithm>
#include <cstdint>

#include "tarpit/load.hpp"
#include "tarpit/tarpit_report.hpp"

namespace flakescan::ui_crawl {

namespace {

constexpr std::size_t max_ids = 64;

// The screen as a TarpitScreen: its activity and its distinct resource ids in pre-order.
backend::adb::TarpitScreen describe(const tarpit::Trace& trace, const tarpit::Screen& screen, std::size_t limit) {
  backend::adb::TarpitScreen t;
  if (screen.has_activity) t.activity = trace.pool.at(screen.activity);
  for (const auto& e : screen.elements) {
    const std::string& id = trace.pool.at(e.id);
    if (id.empty() || id == "-1") continue;
    if (std::find(t.resource_ids.begin(), t.resource_ids.end(), id) != t.resource_ids.end()) continue;
    if (t.resource_ids.size() == limit) break;
    t.resource_ids.push_back(id);
  }
  return t;
}

// Would a guided run restart on `screen`? (backend::adb::screen_matches on the abstraction.)
bool matches(const backend::adb::TarpitScreen& screen, const backend::adb::TarpitScreen& tarpit) {
  if (!tarpit.activity.empty() && tarpit.activity != screen.activity) return false;
  return std::all_of(tarpit.resource_ids.begin(), tarpit.resource_ids.end(), [&](const std::string& id) {
    return std::find(screen.resource_ids.begin(), screen.resource_ids.end(), id) != screen.resource_ids.end();
  });
}

}  // namespace

std::vector<backend::adb::TarpitScreen> restart_screens(const tarpit::Trace& trace, const tarpit::TraceAnalysis& analysis) {
  std::vector<backend::adb::TarpitScreen> out;
  if (trace.screens.empty()) return out;
  // The first screen is the one the app shows after a launch. A restart screen that matches it
  // would restart the app at every step, so such guidance is left out.
  auto launch_screen = describe(trace, trace.screens.front(), SIZE_MAX);
  for (const auto& g : analysis.guidance) {
    if (!g.restart) continue;
    const tarpit::Screen* screen = trace.screen_at(g.restart_ts);
    if (!screen) continue;  // a padded entry: no recorded screen to describe
    auto t = describe(trace, *screen, max_ids);
    if (t.activity.empty() && t.resource_ids.empty()) continue;  // would match nothing
    if (matches(launch_screen, t)) continue;
    bool seen = std::any_of(out.begin(), out.end(), [&](const auto& o) {
      return o.activity == t.activity && o.resource_ids == t.resource_ids;
    });
    if (!seen) out.push_back(std::move(t));
  }
  return out;
}

util::Result<TraceVerdict> analyze_exploration_trace(const std::filesystem::path& dir, const std::string& name,
                                                    const tarpit::Options& options) {
  tarpit::DiskTraceFiles files(dir);
  auto trace = tarpit::import_recorded(files, name);
  if (!trace) return std::unexpected(trace.error());
  auto analysis = tarpit::analyze(*trace, options);
  TraceVerdict v;
  v.restart_at = restart_screens(*trace, analysis);
  v.report = nlohmann::json::parse(tarpit::report_json({tarpit::TraceReport{&*trace, std::move(analysis)}}, options));
  return v;
}

}  // namespace flakescan::ui_crawl
