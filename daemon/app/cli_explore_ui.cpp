// `flakescan explore-ui`: starts a Monkey exploration run on a device through the daemon
// (POST /v1/explorations), waits for it, and prints the tarpits found in its trace and the
// guidance for the next run (the screens at which a guided run restarts the app).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "app/cli_options.hpp"
#include "app/daemon_connection.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

const char* explore_usage =
    "usage: flakescan explore-ui --package PKG [options]\n\n"
    "Runs Monkey on a device through the daemon, records the UI trace, and prints the exploration\n"
    "tarpits found in it and the guidance for the next run.\n\n"
    "  --package PKG             the app to explore (required)\n"
    "  --apk APK                 install this APK first (a path on the daemon's machine)\n"
    "  --serial SERIAL           the device (default: any free device in state `device`)\n"
    "  --adb-server H:P          adb server to use (repeatable; default: the daemon's)\n"
    "  --budget SECONDS          time budget of the run (default 3600)\n"
    "  --max-steps N             most steps, one screen recorded each (default: until the budget)\n"
    "  --seed N                  step k runs Monkey with seed N + k (default 1)\n"
    "  --throttle-ms MS          Monkey --throttle (default 200)\n"
    "  --events-per-step N       Monkey events per step (default 50)\n"
    "  --guided-by ID            restart the app at the tarpit screens an earlier exploration found\n"
    "  --vet-compatible          analyse in VET's mode (default: standard)\n"
    "  --t-min-ms MS             shortest local tarpit (600000)\n"
    "  --max-groups-per-minute X standard mode: report a local region only at or below X (0.5)\n"
    "  --partition-window-ms MS  partition detector window (600000)\n"
    "  --json                    print the exploration's final status (GET /v1/explorations/{id}) as JSON\n"
    "  --out FILE                also write that JSON to FILE\n"
    "  --daemon URL              use this daemon (default $FLAKESCAN_DAEMON or http://127.0.0.1:7711,\n"
    "                            started here if none answers)\n"
    "  --keep-daemon             leave a daemon started here running\n"
    "  --quiet                   no progress output\n\n"
    "Exit status: 0 when the exploration ran to its end, 1 when it failed or could not start, 2 on usage errors.\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "flakescan explore-ui: %s\n\n%s", message.c_str(), explore_usage);
  return 2;
}

// Milliseconds after the trace's first screen as m:ss.t.
std::string at(std::int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRId64 ":%02" PRId64 ".%" PRId64, ms / 60000, (ms / 1000) % 60, (ms / 100) % 10);
  return buf;
}

std::string screen_text(const json& screen) {
  std::string s = screen.value("activity", "");
  std::string ids;
  for (const auto& id : screen.value("resource_ids", json::array())) ids += (ids.empty() ? "" : ", ") + id.get<std::string>();
  if (!ids.empty()) s += (s.empty() ? "showing " : " showing ") + ids;
  return s;
}

void print_result(const json& status) {
  const json& device = status["device"];
  std::printf("exploration %s %s", status.value("id", "").c_str(), status.value("state", "").c_str());
  if (device.is_object()) std::printf(" on %s (%s)", device.value("serial", "").c_str(), device.value("server", "").c_str());
  std::printf(": %d steps, %d screens, %d restarts, %d crashes, %lld events\n", status.value("steps", 0), status.value("screens", 0),
              status.value("restarts", 0), status.value("crashes", 0), status.value("events", 0LL));
  if (status["error"].is_string()) std::printf("  error: %s\n", status["error"].get<std::string>().c_str());
  for (const auto& p : status.value("problems", json::array())) std::printf("  problem: %s\n", p.get<std::string>().c_str());
  std::printf("  trace: %s\n", status.value("trace_dir", "").c_str());
  const json& report = status["tarpits"];
  if (report.is_object()) {
    for (const auto& trace : report["traces"]) {
      std::int64_t first = trace.value("first_ms", std::int64_t(0));
      std::printf("tarpits (mode %s): ", report.value("mode", "").c_str());
      if (!trace.value("usable", false)) {
        std::printf("trace not usable: %s\n", trace.value("unusable_reason", "").c_str());
        continue;
      }
      int ranked = 0;
      for (const auto& r : trace["regions"]) ranked += r["rank"].is_number();
      std::printf("%d found in %s of trace\n", ranked, at(trace.value("duration_ms", std::int64_t(0))).c_str());
      for (const auto& r : trace["regions"]) {
        if (!r["rank"].is_number()) continue;
        std::printf("  #%d %-9s %s - %s: %s spent, %lld screens, %lld distinct groups\n", r["rank"].get<int>(),
                    r.value("kind", "").c_str(), at(r.value("ts_begin", first) - first).c_str(), at(r.value("ts_end", first) - first).c_str(),
                    at(r.value("duration_ms", std::int64_t(0))).c_str(), r.value("entries", 0LL), r.value("distinct_groups", 0LL));
        if (r["action"].is_object()) std::printf("       destructive action: %s\n", r["action"].value("summary", "").c_str());
      }
    }
  } else {
    std::printf("tarpits: no analysis (no trace was recorded)\n");
  }
  const json& guidance = status["guidance"];
  if (guidance.is_object()) {
    const json& screens = guidance["restart_at"];
    if (screens.empty()) {
      std::printf("guidance: none (no tarpit screen to restart at)\n");
    } else {
      std::printf("guidance for the next run: restart the app when one of these screens shows\n");
      for (const auto& s : screens) std::printf("  %s\n", screen_text(s).c_str());
      std::printf("  (flakescan explore-ui --package %s --guided-by %s)\n", status.value("package", "").c_str(), status.value("id", "").c_str());
    }
  }
}

}  // namespace

int cli_explore_ui(const Args& args) {
  auto parsed = parse_options(args,
                              {"package", "apk", "serial", "adb-server", "budget", "max-steps", "seed", "throttle-ms", "events-per-step",
                               "guided-by", "t-min-ms", "max-groups-per-minute", "partition-window-ms", "out", "daemon"},
                              {"vet-compatible", "json", "keep-daemon", "quiet", "help"});
  if (!parsed) return usage_error(parsed.error().message);
  const auto& o = *parsed;
  if (o.has("help")) {
    std::fputs(explore_usage, stdout);
    return 0;
  }
  if (!o.positional.empty()) return usage_error("unexpected argument '" + o.positional[0] + "'");
  if (!o.has("package")) return usage_error("--package is required");
  json body{{"package", o.get("package")}};
  if (o.has("apk")) body["apk"] = o.get("apk");
  if (o.has("serial")) body["serial"] = o.get("serial");
  if (auto it = o.values.find("adb-server"); it != o.values.end()) body["servers"] = it->second;
  if (o.has("guided-by")) body["guided_by"] = o.get("guided-by");
  if (o.has("vet-compatible")) body["mode"] = "vet-compatible";
  json analysis = json::object();
  try {
    if (o.has("budget")) body["budget_seconds"] = std::stoi(o.get("budget"));
    if (o.has("max-steps")) body["max_steps"] = std::stoi(o.get("max-steps"));
    if (o.has("seed")) body["seed"] = std::stoull(o.get("seed"));
    if (o.has("throttle-ms")) body["throttle_ms"] = std::stoi(o.get("throttle-ms"));
    if (o.has("events-per-step")) body["events_per_step"] = std::stoi(o.get("events-per-step"));
    if (o.has("t-min-ms")) analysis["t_min_ms"] = std::stoll(o.get("t-min-ms"));
    if (o.has("partition-window-ms")) analysis["partition_window_ms"] = std::stoll(o.get("partition-window-ms"));
    if (o.has("max-groups-per-minute")) analysis["max_groups_per_minute"] = std::stod(o.get("max-groups-per-minute"));
  } catch (const std::exception&) {
    return usage_error("--budget, --max-steps, --seed, --throttle-ms, --events-per-step and the analysis options take numbers");
  }
  if (!analysis.empty()) body["analysis"] = analysis;
  bool quiet = o.has("quiet");

  auto conn = DaemonConnection::open(o.get("daemon"), o.has("keep-daemon"), quiet);
  if (!conn) {
    std::fprintf(stderr, "flakescan explore-ui: could not run: %s\n", conn.error().message.c_str());
    return 1;
  }
  auto& client = (*conn)->client();
  auto submitted = client.request("POST", "/v1/explorations", body.dump());
  if (!submitted) {
    std::fprintf(stderr, "flakescan explore-ui: could not run: %s\n", submitted.error().message.c_str());
    return 1;
  }
  if (submitted->status != 202) {
    std::fprintf(stderr, "flakescan explore-ui: the daemon refused the exploration (HTTP %d): %s\n", submitted->status,
                 problem_detail(*submitted).c_str());
    return 1;
  }
  std::string id = json::parse(submitted->body)["id"];
  if (!quiet) std::fprintf(stderr, "flakescan: exploration %s submitted to %s\n", id.c_str(), client.url().str().c_str());

  json status;
  int last_steps = -1;
  for (;;) {
    auto r = client.request("GET", "/v1/explorations/" + id);
    if (!r || r->status != 200) {
      std::fprintf(stderr, "flakescan explore-ui: lost the daemon: %s\n", r ? problem_detail(*r).c_str() : r.error().message.c_str());
      return 1;
    }
    status = json::parse(r->body);
    if (status.value("state", "") != "running") break;
    int steps = status.value("steps", 0);
    if (!quiet && steps != last_steps && status["device"].is_object())
      std::fprintf(stderr, "flakescan: %s: %d steps, %d restarts, %d crashes\n", status["device"].value("serial", "").c_str(), steps,
                   status.value("restarts", 0), status.value("crashes", 0));
    last_steps = steps;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  if (o.has("out")) {
    std::ofstream f(o.get("out"));
    f << status.dump(2) << "\n";
    if (!f) std::fprintf(stderr, "flakescan explore-ui: cannot write %s\n", o.get("out").c_str());
  }
  if (o.has("json")) std::printf("%s\n", status.dump(2).c_str());
  else print_result(status);
  return status.value("state", "") == "done" ? 0 : 1;
}

}  // namespace flakescan::app
