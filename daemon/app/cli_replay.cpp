// `flakescan replay`: re-runs a verdict's reproducer through the daemon and says whether the
// failure came back.
#include <cstdio>
#include <fstream>
#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

struct ReplayOptions {
  std::string scan, verdicts, test;
  std::optional<int> runs;
};

std::string check(ReplayOptions& o) {
  if (o.scan.empty() && !o.verdicts.empty()) {
    std::ifstream in(o.verdicts);
    json file = json::parse(in, nullptr, false);
    if (file.is_discarded() || !file.contains("scan")) return "cannot read a verdict file from " + o.verdicts;
    o.scan = file["scan"]["id"];
  }
  if (o.scan.empty()) return "--scan or --verdicts is required";
  return {};
}

int run_replay(const ReplayOptions& o, const CommonOptions& common) {
  json body{{"test", o.test}};
  if (o.runs) body["runs"] = *o.runs;
  auto conn = open_daemon("replay", common);
  if (!conn) return 1;
  auto r = conn->client().request("POST", "/v1/scans/" + o.scan + "/replays", body.dump(), std::chrono::seconds(3600));
  if (!r) {
    std::fprintf(stderr, "flakescan replay: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  if (r->status != 201) {
    std::fprintf(stderr, "flakescan replay: the daemon refused (HTTP %d): %s\n", r->status, problem_detail(*r).c_str());
    return 1;
  }
  json result = json::parse(r->body);
  bool reproduced = result["reproduced"];
  if (common.json) {
    std::printf("%s\n", result.dump(2).c_str());
    return reproduced ? 0 : 3;
  }
  std::string order;
  for (const auto& t : result["reproducer"]) order += (order.empty() ? "" : ", ") + t.get<std::string>();
  std::printf("reproducer: %s\n", order.c_str());
  for (const auto& run : result["runs"]) {
    std::string said = run["outcome"].get<std::string>();
    if (auto same = run.find("same_failure"); same != run.end() && same->is_boolean())
      said += same->get<bool>() ? " (the same failure)" : " (another failure)";
    // A replayed schedule (technique threads): was it followed decision for decision?
    if (auto s = run.find("schedule"); s != run.end() && s->is_object()) {
      if (s->contains("record_error")) said += "; its schedule record could not be read";
      else if ((*s)["diverged_at"].is_number())
        said += "; the schedule diverged at step " + std::to_string((*s)["diverged_at"].get<long>());
      else if ((*s)["followed"].is_number())
        said += "; the schedule was followed exactly (" + std::to_string((*s)["followed"].get<long>()) + " points)";
    }
    std::printf("  run #%lld: %s\n", (long long)run["id"].get<std::int64_t>(), said.c_str());
  }
  std::printf("%s: the failure %s in %d of %d runs\n", reproduced ? "reproduced" : "not reproduced",
              reproduced ? "came back" : "came back", result["failed"].get<int>(), result["total"].get<int>());
  if (auto followed = result.find("schedule_followed"); followed != result.end() && followed->is_boolean())
    std::printf("%s\n", followed->get<bool>() ? "the failing schedule was replayed exactly"
                                              : "the failing schedule was not replayed exactly (see each run)");
  return reproduced ? 0 : 3;
}

}  // namespace

CommandDef replay_command() {
  return {
      .name = "replay",
      .summary = "re-run a verdict's reproducer and say whether the failure came back",
      .reach = Reach::daemon,
      .json_help = "print the daemon's answer (reproducer, runs, counts) on stdout instead of the text",
      .quiet_help = "no status lines on stderr (a daemon started here)",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<ReplayOptions>();
            cmd.description("Runs the verdict's reproducer (the failing order, or the failing run's tests) N times; a\n"
                            "verdict of explore, shuffle or threads runs its failing schedule or seed again (threads:\n"
                            "decision for decision, and says whether the schedule was followed exactly).\n"
                            "  flakescan replay (--scan ID | --verdicts FILE) --test pkg.Class#method [--runs N]");
            cmd.add_option("--scan", o->scan, "the scan whose verdict to replay")->type_name("ID");
            cmd.add_option("--verdicts", o->verdicts, "or a verdict file of that scan (its scan id is used)")->type_name("FILE");
            cmd.add_option("--test", o->test, "the test whose failure to bring back (required)")->type_name("ID")->required();
            cmd.add_option("--runs", o->runs, "how many times (default 3)")->type_name("N");
            cmd.footer("Exit status: 0 the failure came back, 3 it did not, 1 could not replay, 2 usage error.");
            return Command{.check = [o](const CommonOptions&) { return check(*o); },
                           .run = [o](const CommonOptions& common) { return run_replay(*o, common); }};
          },
  };
}

}  // namespace flakescan::app
