// `flakescan scan`: submits a scan to the daemon, shows progress while it runs, prints a
// summary table and writes verdicts.json.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "app/cli_options.hpp"
#include "app/daemon_connection.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

const char* scan_usage =
    "usage: flakescan scan --classpath CP --tests ID[,ID...] [options]\n"
    "       flakescan scan --backend adb --test-apk APK [--apk APK] --tests ID[,ID...] [options]\n\n"
    "  --classpath CP        the test runtime classpath (test classes, main classes, libraries), ':'-separated\n"
    "  --tests IDS           pkg.Class#method or pkg.Class (all its tests), comma-separated; may repeat\n"
    "  --tests-file FILE     more ids, one per line\n"
    "  --backend NAME        local (default: JVMs on this machine) or adb (devices and emulators)\n"
    "  --apk, --test-apk     adb: the app and the test APK to install\n"
    "  --adb-server H:P      adb: an adb server to use (repeatable; default 127.0.0.1:5037)\n"
    "  --runner CLASS        adb: the instrumentation runner (default androidx.test.runner.AndroidJUnitRunner)\n"
    "  --clear-state         adb: clear the app's data between runs\n"
    "  --techniques LIST     rerun (default), order, nio, ... comma-separated\n"
    "  --runs N              runs per test for rerun (default 10)\n"
    "  --isolation MODE      fresh_jvm (default: one JVM per run) or shared_jvm\n"
    "  --seed N              seed for every randomised choice (default 1)\n"
    "  --timeout-seconds N   deadline of one run (default 60 s + 10 s per test in it)\n"
    "  --max-runs N          budget: total runs;  --max-seconds N: budget: wall time\n"
    "  --max-orders N        budget of the order technique: orders tried (default 10)\n"
    "  --parallel N          runs at the same time (default: the machine's cores)\n"
    "  --out FILE            where to write the verdict file (default verdicts.json)\n"
    "  --daemon URL          use this daemon (default $FLAKESCAN_DAEMON or http://127.0.0.1:7711,\n"
    "                        started here if none answers)\n"
    "  --keep-daemon         leave a daemon started here running\n"
    "  --quiet               no progress output\n\n"
    "Exit status: 0 when the scan completed (whatever it found), 1 when it could not run, 2 on usage errors.\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "flakescan scan: %s\n\n%s", message.c_str(), scan_usage);
  return 2;
}

util::Result<std::vector<std::string>> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) return util::fail(util::Errc::not_found, "cannot read " + path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty() && line[0] != '#') out.push_back(line);
  }
  return out;
}

void print_summary(const json& file) {
  const auto& verdicts = file["verdicts"];
  size_t width = 20;
  for (const auto& v : verdicts) width = std::max(width, v["test"].get<std::string>().size());
  std::printf("%-13s  %-15s  %-9s  %-*s  %s\n", "VERDICT", "CATEGORY", "FAILED", int(width), "TEST", "WHY");
  int flaky = 0, stable = 0, not_run = 0;
  for (const auto& v : verdicts) {
    std::string verdict = v["verdict"], category = v["category"].is_string() ? v["category"].get<std::string>() : "-";
    const auto& runs = v["runs"];
    int observed = runs["passed"].get<int>() + runs["failed"].get<int>();
    std::string failed = std::to_string(runs["failed"].get<int>()) + "/" + std::to_string(observed);
    std::string why = v["evidence"].value("reason", "");
    std::printf("%-13s  %-15s  %-9s  %-*s  %s\n", verdict.c_str(), category.c_str(), failed.c_str(), int(width),
                v["test"].get<std::string>().c_str(), why.c_str());
    if (verdict == "flaky") {
      ++flaky;
      const auto& e = v["evidence"];
      if (e.contains("passing_run") && e.contains("failing_run"))
        std::printf("%-13s  passed in run #%lld, failed in run #%lld: %s\n", "", (long long)e["passing_run"]["id"].get<std::int64_t>(),
                    (long long)e["failing_run"]["id"].get<std::int64_t>(), e["failing_run"].value("message", "").c_str());
      if (e.contains("reproducer")) {
        std::string order;
        for (const auto& t : e["reproducer"]) order += (order.empty() ? "" : ", ") + t.get<std::string>();
        std::printf("%-13s  reproducer (one JVM): %s\n", "", order.c_str());
      }
    } else if (verdict == "not_flaky") {
      ++stable;
    } else {
      ++not_run;
    }
  }
  std::printf("\n%zu tests: %d flaky, %d not flaky, %d could not run\n", verdicts.size(), flaky, stable, not_run);
}

}  // namespace

int cli_scan(const Args& args) {
  auto parsed = parse_options(args,
                              {"classpath", "tests", "tests-file", "techniques", "runs", "isolation", "seed",
                               "timeout-seconds", "max-runs", "max-seconds", "max-orders", "parallel", "out", "daemon", "backend",
                               "apk", "test-apk", "adb-server", "runner"},
                              {"keep-daemon", "quiet", "help", "clear-state"});
  if (!parsed) return usage_error(parsed.error().message);
  const auto& o = *parsed;
  if (o.has("help")) {
    std::fputs(scan_usage, stdout);
    return 0;
  }
  if (!o.positional.empty()) return usage_error("unexpected argument '" + o.positional[0] + "'");
  std::vector<std::string> tests;
  if (auto it = o.values.find("tests"); it != o.values.end()) tests = it->second;
  if (o.has("tests-file")) {
    auto lines = read_lines(o.get("tests-file"));
    if (!lines) return usage_error(lines.error().message);
    tests.insert(tests.end(), lines->begin(), lines->end());
  }
  if (tests.empty()) return usage_error("--tests is required");
  std::string backend = o.get("backend", "local");
  json body{{"backend", backend}};
  if (backend == "local") {
    if (!o.has("classpath")) return usage_error("--classpath is required");
    body["classpath"] = o.get("classpath");
  } else if (backend == "adb") {
    if (!o.has("test-apk")) return usage_error("--test-apk is required with --backend adb");
    json adb{{"test_apk", o.get("test-apk")}};
    if (o.has("apk")) adb["app_apk"] = o.get("apk");
    if (auto it = o.values.find("adb-server"); it != o.values.end()) adb["servers"] = it->second;
    if (o.has("runner")) adb["runner"] = o.get("runner");
    if (o.has("clear-state")) adb["clear_state"] = true;
    body["adb"] = adb;
  } else {
    return usage_error("--backend must be local or adb");
  }
  std::string joined;
  for (const auto& t : tests) joined += (joined.empty() ? "" : ",") + t;
  body["tests"] = joined;
  if (o.has("techniques")) body["techniques"] = o.get("techniques");
  json budget = json::object();
  try {
    if (o.has("runs")) body["runs"] = std::stoi(o.get("runs"));
    if (o.has("seed")) body["seed"] = std::stoull(o.get("seed"));
    if (o.has("timeout-seconds")) body["timeout_seconds"] = std::stoi(o.get("timeout-seconds"));
    if (o.has("parallel")) body["parallelism"] = std::stoi(o.get("parallel"));
    if (o.has("max-runs")) budget["max_runs"] = std::stoi(o.get("max-runs"));
    if (o.has("max-seconds")) budget["max_seconds"] = std::stoi(o.get("max-seconds"));
    if (o.has("max-orders")) budget["max_orders"] = std::stoi(o.get("max-orders"));
  } catch (const std::exception&) {
    return usage_error("--runs, --seed, --timeout-seconds, --parallel and the --max-* budgets take whole numbers");
  }
  if (!budget.empty()) body["budget"] = budget;
  if (o.has("isolation")) body["isolation"] = o.get("isolation");
  bool quiet = o.has("quiet");

  auto conn = DaemonConnection::open(o.get("daemon"), o.has("keep-daemon"), quiet);
  if (!conn) {
    std::fprintf(stderr, "flakescan scan: could not run: %s\n", conn.error().message.c_str());
    return 1;
  }
  auto& client = (*conn)->client();
  auto submitted = client.request("POST", "/v1/scans", body.dump());
  if (!submitted) {
    std::fprintf(stderr, "flakescan scan: could not run: %s\n", submitted.error().message.c_str());
    return 1;
  }
  if (submitted->status != 202) {
    std::fprintf(stderr, "flakescan scan: the daemon refused the scan (HTTP %d): %s\n", submitted->status,
                 problem_detail(*submitted).c_str());
    return 1;
  }
  std::string id = json::parse(submitted->body)["id"];
  if (!quiet) std::fprintf(stderr, "flakescan: scan %s submitted to %s\n", id.c_str(), client.url().str().c_str());

  bool tty = isatty(2);
  auto last_print = std::chrono::steady_clock::now() - std::chrono::seconds(10);
  auto streamed = client.events("/v1/scans/" + id + "/events", [&](const std::string& type, const std::string& data) {
    if (quiet) return true;
    auto e = json::parse(data, nullptr, false);
    if (type == "run_finished") {
      auto now = std::chrono::steady_clock::now();
      int done = e.value("runs_done", 0), planned = e.value("runs_planned", 0);
      if (tty || now - last_print > std::chrono::seconds(5) || done == planned) {
        // Techniques plan ahead only what they know; later stages (minimising, confirming)
        // add runs as they go, so show the plan only while it is ahead.
        if (planned >= done) std::fprintf(stderr, tty ? "\rflakescan: %d/%d runs" : "flakescan: %d/%d runs\n", done, planned);
        else std::fprintf(stderr, tty ? "\rflakescan: %d runs   " : "flakescan: %d runs\n", done);
        last_print = now;
      }
    } else if (type == "state") {
      std::string state = e.value("state", "");
      std::fprintf(stderr, "%sflakescan: scan %s%s%s\n", tty ? "\n" : "", state.c_str(),
                   e.contains("error") ? ": " : "", e.contains("error") ? e["error"].get<std::string>().c_str() : "");
    }
    return true;
  });
  if (!streamed) std::fprintf(stderr, "flakescan: progress stream lost (%s); waiting for the result\n", streamed.error().message.c_str());

  // The stream ends when the scan does; poll in case it was lost.
  json status;
  for (;;) {
    auto r = client.request("GET", "/v1/scans/" + id);
    if (!r || r->status != 200) {
      std::fprintf(stderr, "flakescan scan: lost the daemon: %s\n", r ? problem_detail(*r).c_str() : r.error().message.c_str());
      return 1;
    }
    status = json::parse(r->body);
    std::string state = status["state"];
    if (state != "queued" && state != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  std::string state = status["state"];
  auto verdicts = client.request("GET", "/v1/scans/" + id + "/verdicts");
  if (verdicts && verdicts->status == 200) {
    json file = json::parse(verdicts->body);
    std::string out = o.get("out", "verdicts.json");
    std::ofstream f(out);
    f << file.dump(2) << "\n";
    f.close();
    if (!f) std::fprintf(stderr, "flakescan scan: cannot write %s\n", out.c_str());
    print_summary(file);
    if (!quiet) std::fprintf(stderr, "flakescan: verdicts written to %s\n", out.c_str());
  }
  if (state != "completed") {
    std::fprintf(stderr, "flakescan scan: the scan %s: %s\n", state.c_str(),
                 status["error"].is_string() ? status["error"].get<std::string>().c_str() : "no reason given");
    return 1;
  }
  return 0;
}

}  // namespace flakescan::app
