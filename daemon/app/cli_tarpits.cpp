// `flakescan tarpits DIR...`: finds UI exploration tarpits in recorded UI traces (TOLLER/VET
// folders or flakescan's actions.jsonl + UI Automator dumps), locally, without a daemon.
// Prints a human summary; --out writes the JSON report (schema/tarpits.schema.json).
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>

#include "app/cli_commands.hpp"
#include "tarpit/analysis.hpp"
#include "tarpit/load.hpp"
#include "tarpit/report.hpp"
#include "util/error.hpp"

namespace flakescan::app {

namespace {

constexpr const char* tarpits_usage =
    "usage: flakescan tarpits DIR... [--vet-compatible] [--out FILE] [--json] [tuning options]\n"
    "\n"
    "Finds exploration tarpits in UI traces and says which action led into each and what to do\n"
    "in the next run (disable that element; restart the app at a screen). DIR is a trace folder\n"
    "(TOLLER <epoch-ms>.json files, or actions.jsonl with UI Automator dumps) or a folder of them.\n"
    "  --vet-compatible            reproduce VET's regions, quirks included (default: standard mode,\n"
    "                              time-based score with a threshold; see docs/tarpits.md)\n"
    "  --out FILE                  also write the JSON report to FILE\n"
    "  --json                      print the JSON report instead of the summary\n"
    "  --t-min-ms MS               shortest local tarpit (600000)\n"
    "  --max-groups-per-minute X   standard mode: report a local region only at or below X (0.5)\n"
    "  --gap-cap-ms MS             standard mode: longer silences count as MS (60000; 0 = off)\n"
    "  --partition-window-ms MS    partition detector window (600000)\n"
    "  --d-max N                   similarity: most inserted nodes (3)\n"
    "  --top K                     regions ranked and guided per trace (3)\n"
    "  --keep-ms MS, --pad-to-ms MS  trace cut and padding (VET: 3550000, 3540000; standard: 0)\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "flakescan tarpits: %s\n\n%s", message.c_str(), tarpits_usage);
  return 2;
}

bool to_int(const std::string& s, std::int64_t& out) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || v < 0) return false;
  out = v;
  return true;
}

}  // namespace

int cli_tarpits(const Args& args) {
  std::vector<std::string> dirs;
  std::string out_file;
  bool vet = false, json = false;
  struct Tuning {
    std::string name, value;
  };
  std::vector<Tuning> tuning;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::string inline_value;
    bool has_inline = false;
    if (a.starts_with("--") && a.find('=') != std::string::npos) {
      inline_value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      has_inline = true;
    }
    auto value = [&](std::string& out) {
      if (has_inline) { out = inline_value; return !out.empty(); }
      if (i + 1 >= args.size() || args[i + 1].empty()) return false;
      out = args[++i];
      return true;
    };
    if (a == "--help" || a == "-h") {
      std::fputs(tarpits_usage, stdout);
      return 0;
    } else if (a == "--vet-compatible") {
      vet = true;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--out") {
      if (!value(out_file)) return usage_error("--out needs a file");
    } else if (a == "--t-min-ms" || a == "--max-groups-per-minute" || a == "--gap-cap-ms" ||
               a == "--partition-window-ms" || a == "--d-max" || a == "--top" || a == "--keep-ms" ||
               a == "--pad-to-ms") {
      std::string v;
      if (!value(v)) return usage_error(a + " needs a value");
      tuning.push_back({a, v});
    } else if (a.starts_with("-")) {
      return usage_error("unknown option " + a);
    } else {
      dirs.push_back(a);
    }
  }
  if (dirs.empty()) return usage_error("name at least one trace folder");

  auto options = tarpit::Options::for_mode(vet ? tarpit::Mode::vet_compatible : tarpit::Mode::standard);
  for (const auto& [name, v] : tuning) {
    std::int64_t n = 0;
    if (name == "--max-groups-per-minute") {
      char* end = nullptr;
      double x = std::strtod(v.c_str(), &end);
      if (*end || x < 0) return usage_error(name + " needs a number >= 0");
      options.max_groups_per_minute = x;
      continue;
    }
    if (!to_int(v, n)) return usage_error(name + " needs a whole number >= 0");
    if (name == "--t-min-ms") options.t_min_ms = n;
    else if (name == "--gap-cap-ms") options.gap_cap_ms = n;
    else if (name == "--partition-window-ms") options.partition_window_ms = n;
    else if (name == "--d-max") options.similarity.d_max = int(n);
    else if (name == "--top") options.top_k = int(n);
    else if (name == "--keep-ms") options.keep_ms = n;
    else if (name == "--pad-to-ms") options.pad_to_ms = n;
  }

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

}  // namespace flakescan::app
