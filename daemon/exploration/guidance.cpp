#include "exploration/guidance.hpp"

#include <algorithm>

#include "tarpit/load.hpp"
#include "tarpit/report.hpp"

namespace flakescan::exploration {

namespace {
constexpr std::size_t max_ids = 64;
}

std::vector<backend::adb::TarpitScreen> restart_screens(const tarpit::Trace& trace, const tarpit::TraceAnalysis& analysis) {
  std::vector<backend::adb::TarpitScreen> out;
  for (const auto& g : analysis.guidance) {
    if (!g.restart) continue;
    const tarpit::Screen* screen = trace.screen_at(g.restart_ts);
    if (!screen) continue;  // a padded entry: no recorded screen to describe
    backend::adb::TarpitScreen t;
    if (screen->has_activity) t.activity = trace.pool.at(screen->activity);
    for (const auto& e : screen->elements) {
      const std::string& id = trace.pool.at(e.id);
      if (id.empty() || id == "-1") continue;
      if (std::find(t.resource_ids.begin(), t.resource_ids.end(), id) != t.resource_ids.end()) continue;
      if (t.resource_ids.size() == max_ids) break;
      t.resource_ids.push_back(id);
    }
    if (t.activity.empty() && t.resource_ids.empty()) continue;  // would match nothing
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
  v.screens = trace->screens.size();
  v.restart_at = restart_screens(*trace, analysis);
  v.report = nlohmann::json::parse(tarpit::report_json({tarpit::TraceReport{&*trace, std::move(analysis)}}, options));
  return v;
}

}  // namespace flakescan::exploration
