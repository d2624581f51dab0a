// `flakescan crawl-ui` (before issue 30: `explore-ui`, still accepted): starts a Monkey
// exploration run on a device through the daemon
// (POST /v1/explorations), waits for it, and prints the tarpits found in its trace and the
// guidance for the next run (the screens at which a guided run restarts the app).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "app/job_client.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

struct CrawlOptions {
  std::string package, apk, serial, guided_by, out;
  std::vector<std::string> adb_servers;
  bool vet = false;
  std::optional<int> budget, max_steps, throttle_ms, events_per_step;
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> t_min_ms, partition_window_ms;
  std::optional<double> max_groups_per_minute;
};

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
      std::printf("  (flakescan crawl-ui --package %s --guided-by %s)\n", status.value("package", "").c_str(), status.value("id", "").c_str());
    }
  }
}

json request_body(const CrawlOptions& o) {
  json body{{"package", o.package}};
  if (!o.apk.empty()) body["apk"] = o.apk;
  if (!o.serial.empty()) body["serial"] = o.serial;
  if (!o.adb_servers.empty()) body["servers"] = o.adb_servers;
  if (!o.guided_by.empty()) body["guided_by"] = o.guided_by;
  if (o.vet) body["mode"] = "vet-compatible";
  if (o.budget) body["budget_seconds"] = *o.budget;
  if (o.max_steps) body["max_steps"] = *o.max_steps;
  if (o.seed) body["seed"] = *o.seed;
  if (o.throttle_ms) body["throttle_ms"] = *o.throttle_ms;
  if (o.events_per_step) body["events_per_step"] = *o.events_per_step;
  json analysis = json::object();
  if (o.t_min_ms) analysis["t_min_ms"] = *o.t_min_ms;
  if (o.partition_window_ms) analysis["partition_window_ms"] = *o.partition_window_ms;
  if (o.max_groups_per_minute) analysis["max_groups_per_minute"] = *o.max_groups_per_minute;
  if (!analysis.empty()) body["analysis"] = analysis;
  return body;
}

int run_crawl(const CrawlOptions& o, const CommonOptions& common) {
  const json body = request_body(o);
  const bool quiet = common.quiet;
  auto conn = open_daemon("crawl-ui", common);
  if (!conn) return 1;
  auto& client = conn->client();
  auto submitted = submit_job(client, "crawl-ui", "/v1/explorations", body.dump(), "exploration");
  if (!submitted) return 1;
  const std::string id = *submitted;
  if (!quiet) std::fprintf(stderr, "flakescan: exploration %s submitted to %s\n", id.c_str(), client.url().str().c_str());

  int last_steps = -1;
  JobFollow follow{.command = "crawl-ui", .status_path = "/v1/explorations/" + id};  // no event stream
  follow.running = [](const json& status) { return status.value("state", "") == "running"; };
  follow.on_poll = [&](const json& status) {
    int steps = status.value("steps", 0);
    if (!quiet && steps != last_steps && status.contains("device") && status["device"].is_object())
      std::fprintf(stderr, "flakescan: %s: %d steps, %d restarts, %d crashes\n", status["device"].value("serial", "").c_str(), steps,
                   status.value("restarts", 0), status.value("crashes", 0));
    last_steps = steps;
  };
  auto followed = follow_job(client, follow);
  if (!followed) return 1;
  const json& status = *followed;
  if (!o.out.empty()) {
    std::ofstream f(o.out);
    f << status.dump(2) << "\n";
    if (!f) std::fprintf(stderr, "flakescan crawl-ui: cannot write %s\n", o.out.c_str());
  }
  if (common.json) std::printf("%s\n", status.dump(2).c_str());
  else print_result(status);
  return status.value("state", "") == "done" ? 0 : 1;
}

}  // namespace

CommandDef crawl_ui_command() {
  return {
      .name = "crawl-ui",
      .summary = "run Monkey on a device through the daemon; print its tarpits and the guidance",
      .reach = Reach::daemon,
      .json_help = "print the exploration's final status (GET /v1/explorations/{id}) as JSON instead of the text",
      .quiet_help = "no progress output on stderr",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<CrawlOptions>();
            cmd.description("Runs Monkey on a device through the daemon, records the UI trace, and prints the exploration\n"
                            "tarpits found in it and the guidance for the next run.\n"
                            "  flakescan crawl-ui --package PKG [options]");
            cmd.add_option("--package", o->package, "the app to explore (required)")->type_name("PKG")->required();
            cmd.add_option("--apk", o->apk, "install this APK first (a path on the daemon's machine)")->type_name("APK");
            cmd.add_option("--serial", o->serial, "the device (default: any free device in state `device`)")->type_name("SERIAL");
            cmd.add_option("--adb-server", o->adb_servers, "adb server to use (repeatable; default: the daemon's)")
                ->type_name("HOST:PORT")
                ->allow_extra_args(false);
            cmd.add_option("--budget", o->budget, "time budget of the run in seconds (default 3600)")->type_name("SECONDS");
            cmd.add_option("--max-steps", o->max_steps, "most steps, one screen recorded each (default: until the budget)")
                ->type_name("N");
            cmd.add_option("--seed", o->seed, "step k runs Monkey with seed N + k (default 1)")->type_name("N");
            cmd.add_option("--throttle-ms", o->throttle_ms, "Monkey --throttle (default 200)")->type_name("MS");
            cmd.add_option("--events-per-step", o->events_per_step, "Monkey events per step (default 50)")->type_name("N");
            cmd.add_option("--guided-by", o->guided_by, "restart the app at the tarpit screens an earlier exploration found")
                ->type_name("ID");
            cmd.add_option("--out", o->out, "also write the final status JSON to FILE")->type_name("FILE");
            const std::string analysis = "Analysis";
            cmd.add_flag("--vet-compatible", o->vet, "analyse in VET's mode (default: standard)")->group(analysis);
            cmd.add_option("--t-min-ms", o->t_min_ms, "shortest local tarpit (600000)")->type_name("MS")->group(analysis);
            cmd.add_option("--max-groups-per-minute", o->max_groups_per_minute,
                           "standard mode: report a local region only at or below X (0.5)")
                ->type_name("X")
                ->group(analysis);
            cmd.add_option("--partition-window-ms", o->partition_window_ms, "partition detector window (600000)")
                ->type_name("MS")
                ->group(analysis);
            cmd.footer("Exit status: 0 when the exploration ran to its end, 1 when it failed or could not start, "
                       "2 on usage errors.");
            return Command{.run = [o](const CommonOptions& common) { return run_crawl(*o, common); }};
          },
  };
}

// The command's name before issue 30 (docs/design.md, "Names changed"): the same command,
// which first says on stderr that it was renamed.
CommandDef explore_ui_alias_command() {
  CommandDef def = crawl_ui_command();
  def.name = "explore-ui";
  def.summary = "the old name of crawl-ui, still accepted";
  def.define = [define = def.define](CLI::App& cmd) {
    Command command = define(cmd);
    command.run = [run = command.run](const CommonOptions& common) {
      std::fprintf(stderr, "flakescan: explore-ui was renamed crawl-ui; running crawl-ui\n");
      return run(common);
    };
    return command;
  };
  return def;
}

}  // namespace flakescan::app
