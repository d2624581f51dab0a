#pragma once
// Deterministic generator of UI exploration traces with planted tarpits, for tests and the
// benchmark. The "app" has activities with screen templates (each with a template-specific
// container id, so templates are never similar to each other) and template variants that
// add one to three nodes (a snackbar, extra list rows) and so are similar to their template.
// A trace is a sequence of phases:
//   explore   - a random walk over every template of the app;
//   local     - a loop over a handful of templates (excessive local exploration);
//   partition - from here to the end, only templates of a sub-area never seen before
//               (exploration space partition).
// The action on the last screen before a local or partition phase is a click on an element
// whose id names the tarpit ("com.example:id/enter_<kind>_<n>"): the destructive action.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tarpit/ui_trace.hpp"

namespace flakescan::tarpit::testing {

// Trace times are milliseconds.
inline constexpr std::int64_t minute = 60'000;

struct Phase {
  enum Kind { explore, local, partition } kind = explore;
  std::int64_t duration_ms = 0;
  int screens = 3;  // local/partition: how many templates the tarpit cycles through
};

struct Gap {
  std::int64_t at_ms = 0;   // offset from the start
  std::int64_t length_ms = 0;
};

struct GeneratorConfig {
  std::uint64_t seed = 1;
  std::int64_t start_ms = 1'700'000'000'000;
  std::int64_t mean_interval_ms = 1200;  // mean time between actions
  int activities = 12;
  int templates_per_activity = 20;
  int min_nodes = 8, max_nodes = 40;
  double variant_probability = 0.3;      // a screen shows a variant of its template
  std::vector<Phase> phases;
  std::vector<Gap> gaps;                 // recorder outages: no screens inside
};

struct PlantedTarpit {
  Phase::Kind kind = Phase::local;
  std::int64_t begin_ms = 0, end_ms = 0;  // first and last screen of the phase
  std::int64_t action_ms = 0;             // the screen whose action leads in
  std::string element_id;                 // the element clicked there
};

struct GeneratedTrace {
  Trace trace;
  std::vector<PlantedTarpit> planted;
};

GeneratedTrace generate_trace(const GeneratorConfig& config, std::string name = "generated");

// A one-hour trace with about `screens` screens and no tarpit, for the benchmark.
GeneratorConfig one_hour_config(std::size_t screens, std::uint64_t seed);

// Files of the trace in TOLLER's format (<epoch-ms>.json) or flakescan's (actions.jsonl +
// screens/<n>.xml), as (relative path, content) pairs.
std::vector<std::pair<std::string, std::string>> toller_files(const Trace& trace);
std::vector<std::pair<std::string, std::string>> recorded_files(const Trace& trace);

void write_files(const std::filesystem::path& dir, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace flakescan::tarpit::testing
