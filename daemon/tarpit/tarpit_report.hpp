#pragma once
// The tarpit report: JSON (schema/tarpits.schema.json) for the API and --out, and a human
// summary for the CLI. Both describe each region's destructive action in words: the activity,
// the element acted on (id, class, text), the action type, and the time the region took.
#include <optional>
#include <string>
#include <vector>

#include "tarpit/analysis.hpp"
#include "tarpit/ui_trace.hpp"

namespace flakescan::tarpit {

struct TraceReport {
  const Trace* trace = nullptr;
  TraceAnalysis analysis;
};

struct ActionDescription {
  std::int64_t ts = 0;
  bool padded = false;          // the time is a padded copy, no recorded screen exists
  std::string file, activity;
  ActionType type = ActionType::none;
  std::int64_t code = -1;
  bool has_element = false;
  std::string element_id, element_class, element_text, element_desc;
  Bounds element_bounds;
};

ActionDescription describe_action(const Trace& trace, std::int64_t ts);
// "click on android.widget.Button id=... text=\"...\" in com.x.Main".
std::string action_sentence(const ActionDescription& d);

std::string report_json(const std::vector<TraceReport>& reports, const Options& options);
std::string report_text(const std::vector<TraceReport>& reports, const Options& options);

}  // namespace flakescan::tarpit
