// `flakescan tarpits DIR...`: finds UI exploration tarpits in recorded UI traces (TOLLER/VET
// folders or flakescan's actions.jsonl + UI Automator dumps), locally, without a daemon.
// Prints a human summary; --out writes the JSON report (schema/tarpits.schema.json).
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli_commands.hpp"
#include "tarpit/analysis.hpp"
#include "tarpit/load.hpp"
#include "tarpit/tarpit_report.hpp"
#include "util/error.hpp"

namespace flakescan::app {

namespace {

struct TarpitsOptions {
  std::vector<std::string> dirs;
  std::string out_file;
  bool vet = false;
  std::optional<std::int64_t> t_min_ms, gap_cap_ms, partition_window_ms, d_max, top, keep_ms, pad_to_ms;
  std::optional<double> max_groups_per_minute;
};

tarpit::Options analysis_options(const TarpitsOptions& o) {
  auto options = tarpit::Options::for_mode(o.vet ? tarpit::Mode::vet_compatible : tarpit::Mode::standard);
  if (o.t_min_ms) options.t_min_ms = *o.t_min_ms;
  if (o.max_groups_per_minute) options.max_groups_per_minute = *o.max_groups_per_minute;
  if (o.gap_cap_ms) options.gap_cap_ms = *o.gap_cap_ms;
  if (o.partition_window_ms) options.partition_window_ms = *o.partition_window_ms;
  if (o.d_max) options.similarity.d_max = int(*o.d_max);
  if (o.top) options.top_k = int(*o.top);
  if (o.keep_ms) options.keep_ms = *o.keep_ms;
  if (o.pad_to_ms) options.pad_to_ms = *o.pad_to_ms;
  return options;
}

int run_tarpits(const TarpitsOptions& o, const CommonOptions& common) {
  const auto options = analysis_options(o);
  const auto& dirs = o.dirs;
  const auto& out_file = o.out_file;
  const bool json = common.json;
  std::vector<tarpit::Trace> traces;
  int failures = 0;
  for (const auto& d : dirs) {
    auto loaded = tarpit::load_trace_dir(d);
    if (!loaded) {
      std::fprintf(stderr, "flakescan tarpits: %s: %s\n", d.c_str(), util::describe(loaded.error()).c_str());
      ++failures;
      continue;
    }
    for (auto& t : *loaded) traces.push_back(std::move(t));
  }
  if (traces.empty()) return 1;

  std::vector<tarpit::TraceReport> reports;
  for (const auto& t : traces) reports.push_back(tarpit::TraceReport{&t, tarpit::analyze(t, options)});
  const auto report = tarpit::report_json(reports, options);
  if (!out_file.empty()) {
    std::ofstream out(out_file, std::ios::binary);
    out << report;
    if (!out) {
      std::fprintf(stderr, "flakescan tarpits: cannot write %s\n", out_file.c_str());
      return 1;
    }
  }
  std::fputs(json ? report.c_str() : tarpit::report_text(reports, options).c_str(), stdout);
  return failures ? 1 : 0;
}

}  // namespace

CommandDef tarpits_command() {
  return {
      .name = "tarpits",
      .summary = "find UI exploration tarpits in UI traces and the guidance for the next runs",
      .reach = Reach::local,
      .json_help = "print the JSON report (schema/tarpits.schema.json) instead of the summary",
      .quiet_help = "accepted; tarpits prints no progress (unreadable folders are errors and still print)",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<TarpitsOptions>();
            cmd.description(
                "Finds exploration tarpits in UI traces and says which action led into each and what to do\n"
                "in the next run (disable that element; restart the app at a screen). DIR is a trace folder\n"
                "(TOLLER <epoch-ms>.json files, or actions.jsonl with UI Automator dumps) or a folder of them.\n"
                "Runs here, without a daemon.\n"
                "  flakescan tarpits DIR... [--vet-compatible] [--out FILE] [--json] [tuning options]");
            cmd.add_option("DIR", o->dirs, "trace folders, or folders of them")->type_name("");
            cmd.add_flag("--vet-compatible", o->vet,
                         "reproduce VET's regions, quirks included (default: standard mode, time-based score with a "
                         "threshold; see docs/tarpits.md)");
            cmd.add_option("--out", o->out_file, "also write the JSON report to FILE")->type_name("FILE");
            const std::string tuning = "Tuning";
            auto whole = [&](const char* name, std::optional<std::int64_t>& into, const char* help) {
              cmd.add_option(name, into, help)->type_name("N")->check(CLI::NonNegativeNumber)->group(tuning);
            };
            whole("--t-min-ms", o->t_min_ms, "shortest local tarpit in ms (600000)");
            cmd.add_option("--max-groups-per-minute", o->max_groups_per_minute,
                           "standard mode: report a local region only at or below X (0.5)")
                ->type_name("X")
                ->check(CLI::NonNegativeNumber)
                ->group(tuning);
            whole("--gap-cap-ms", o->gap_cap_ms, "standard mode: longer silences count as N ms (60000; 0 = off)");
            whole("--partition-window-ms", o->partition_window_ms, "partition detector window in ms (600000)");
            whole("--d-max", o->d_max, "similarity: most inserted nodes (3)");
            whole("--top", o->top, "regions ranked and guided per trace (3)");
            whole("--keep-ms", o->keep_ms, "trace cut in ms (VET: 3550000; standard: 0)");
            whole("--pad-to-ms", o->pad_to_ms, "trace padding in ms (VET: 3540000; standard: 0)");
            cmd.footer("Exit status: 0 analysed, 1 when a folder could not be read, 2 on usage errors.");
            return Command{.check = [o](const CommonOptions&) -> std::string {
                             return o->dirs.empty() ? "name at least one trace folder" : "";
                           },
                           .run = [o](const CommonOptions& common) { return run_tarpits(*o, common); }};
          },
  };
}

}  // namespace flakescan::app
