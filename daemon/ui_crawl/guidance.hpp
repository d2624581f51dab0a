#pragma once
// From an exploration's trace to what the next run should do: the tarpit analysis of the
// recorded trace (VET, daemon/tarpit) and, from its guidance, the screens at which a guided
// Monkey run restarts the app, in the shape `restart_at` takes (backend::adb::TarpitScreen).
//
// A guided run can only restart (Monkey cannot disable one element), so only the "restart the
// app when the screen first seen at T shows" part of the guidance becomes a TarpitScreen: the
// activity recorded with that screen and the resource ids in its dump (pre-order, distinct,
// at most 64). A later screen matches when it is in that activity and shows all those ids,
// which is the same abstract screen or a larger variant of it. Guidance whose screen would
// match the trace's first screen (what the app shows right after a launch) is left out: a
// guided run would restart there at every step.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/adb/monkey.hpp"
#include "tarpit/analysis.hpp"
#include "tarpit/ui_trace.hpp"
#include "util/error.hpp"

namespace flakescan::ui_crawl {

std::vector<backend::adb::TarpitScreen> restart_screens(const tarpit::Trace& trace, const tarpit::TraceAnalysis& analysis);

struct TraceVerdict {
  nlohmann::json report;                            // schema/tarpits.schema.json, one trace
  std::vector<backend::adb::TarpitScreen> restart_at;  // guidance for the next run
};

// Imports the recorded trace in `dir` (flakescan's format) under `name` and analyses it.
util::Result<TraceVerdict> analyze_exploration_trace(const std::filesystem::path& dir, const std::string& name,
                                                    const tarpit::Options& options);

}  // namespace flakescan::ui_crawl
