#pragma once
// Exploration runs for tarpit analysis (VET): Monkey drives the app on a device for a time
// budget, in steps; before each step the screen is recorded (UI Automator dump + the
// foreground activity) into flakescan's recorded trace format, which tarpit::import_recorded
// reads (a folder with actions.jsonl and screens/N.xml; schema/ui-trace-recorded).
//
// Policy: step k runs `monkey -p PKG -s SEED+k --throttle T -v N`, so a run is replayable
// from its seed (each line of actions.jsonl stores the step's seed). Guided runs (VET's
// guidance) restart the app (force-stop + launcher intent) instead of the Monkey burst when
// the recorded screen matches one of the tarpit screens given. Everything sent to the device
// is built from validated values (package grammar, integers).
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "adb_protocol/server_client.hpp"
#include "core/test_executor.hpp"
#include "util/error.hpp"

namespace flakescan::backend::adb {

// A tarpit screen from the analysis: matched by foreground activity and resource ids that
// must all be present in the dump (either may be empty; both empty matches nothing).
struct TarpitScreen {
  std::string activity;
  std::vector<std::string> resource_ids;
};

struct CrawlResult {
  int steps = 0;
  int screens = 0;       // dumps recorded
  int restarts = 0;      // guided restarts
  int crashes = 0;       // "// CRASH:" reports from Monkey
  long long events = 0;  // Monkey events injected
  std::string trace_dir;
  std::vector<std::string> problems;  // steps whose dump or activity could not be read
};

struct MonkeyOptions {
  std::string package;                 // the app under exploration
  std::uint64_t seed = 1;
  int throttle_ms = 200;
  int events_per_step = 50;
  std::chrono::milliseconds budget{std::chrono::minutes(60)};
  int max_steps = 0;                   // 0: until the budget is spent
  std::vector<TarpitScreen> restart_at;  // guided run when not empty
  std::string out_dir;                 // trace folder to write
  // Called after every step with the counts so far (progress for the API); may be empty.
  std::function<void(const CrawlResult&)> on_step;
};

util::Result<CrawlResult> run_monkey_crawl(const flakescan::adb_protocol::Client& client, const std::string& serial,
                                                       const MonkeyOptions& options, const core::CancelFlag& cancel);

// Pure helpers (tested on recorded command outputs).
util::Result<std::string> monkey_command(const std::string& package, std::uint64_t seed, int throttle_ms, int events);
// "com.example/.MainActivity" in `dumpsys activity activities` -> "com.example.MainActivity"; "" if none.
std::string resumed_activity(std::string_view dumpsys);
struct MonkeyReport {
  long long events = 0;
  int crashes = 0;
  bool aborted = false;
};
MonkeyReport parse_monkey_output(std::string_view text);
bool screen_matches(std::string_view dump_xml, const std::string& activity, const TarpitScreen& tarpit);

}  // namespace flakescan::backend::adb
