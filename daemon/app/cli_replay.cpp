// `flakescan replay`: re-runs a verdict's reproducer through the daemon and says whether the
// failure came back.
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "app/cli_options.hpp"
#include "app/daemon_connection.hpp"

namespace flakescan::app {

namespace {

const char* replay_usage =
    "usage: flakescan replay (--scan ID | --verdicts FILE) --test pkg.Class#method [--runs N] [--daemon URL]\n\n"
    "Runs the verdict's reproducer (the failing order, or the failing run's tests) N times (default 3).\n"
    "Exit status: 0 the failure came back, 3 it did not, 1 could not replay, 2 usage error.\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "flakescan replay: %s\n\n%s", message.c_str(), replay_usage);
  return 2;
}

}  // namespace

int cli_replay(const Args& args) {
  using nlohmann::json;
  auto parsed = parse_options(args, {"scan", "verdicts", "test", "runs", "daemon"}, {"help", "keep-daemon"});
  if (!parsed) return usage_error(parsed.error().message);
  const auto& o = *parsed;
  if (o.has("help")) {
    std::fputs(replay_usage, stdout);
    return 0;
  }
  std::string scan = o.get("scan");
  if (scan.empty() && o.has("verdicts")) {
    std::ifstream in(o.get("verdicts"));
    json file = json::parse(in, nullptr, false);
    if (file.is_discarded() || !file.contains("scan")) return usage_error("cannot read a verdict file from " + o.get("verdicts"));
    scan = file["scan"]["id"];
  }
  if (scan.empty()) return usage_error("--scan or --verdicts is required");
  if (!o.has("test")) return usage_error("--test is required");
  json body{{"test", o.get("test")}};
  if (o.has("runs")) {
    try {
      body["runs"] = std::stoi(o.get("runs"));
    } catch (const std::exception&) {
      return usage_error("--runs takes a whole number");
    }
  }
  auto conn = DaemonConnection::open(o.get("daemon"), o.has("keep-daemon"), false);
  if (!conn) {
    std::fprintf(stderr, "flakescan replay: could not run: %s\n", conn.error().message.c_str());
    return 1;
  }
  auto r = (*conn)->client().request("POST", "/v1/scans/" + scan + "/replays", body.dump(), std::chrono::seconds(3600));
  if (!r) {
    std::fprintf(stderr, "flakescan replay: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  if (r->status != 201) {
    std::fprintf(stderr, "flakescan replay: the daemon refused (HTTP %d): %s\n", r->status, problem_detail(*r).c_str());
    return 1;
  }
  json result = json::parse(r->body);
  std::string order;
  for (const auto& t : result["reproducer"]) order += (order.empty() ? "" : ", ") + t.get<std::string>();
  std::printf("reproducer: %s\n", order.c_str());
  for (const auto& run : result["runs"])
    std::printf("  run #%lld: %s\n", (long long)run["id"].get<std::int64_t>(), run["outcome"].get<std::string>().c_str());
  bool reproduced = result["reproduced"];
  std::printf("%s: the failure %s in %d of %d runs\n", reproduced ? "reproduced" : "not reproduced",
              reproduced ? "came back" : "came back", result["failed"].get<int>(), result["total"].get<int>());
  return reproduced ? 0 : 3;
}

}  // namespace flakescan::app
