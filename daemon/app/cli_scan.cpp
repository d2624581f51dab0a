// `flakescan scan`: submits a scan to the daemon, shows progress while it runs, prints a
// summary table and writes verdicts.json.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "app/daemon_connection.hpp"
#include "app/job_client.hpp"
#include "core/class_prefix.hpp"
#include "core/deciding.hpp"
#include "core/technique.hpp"

namespace flakescan::app {

namespace {

using nlohmann::json;

// A failure message as one line of the table: its first line, at most 200 characters (the
// verdict file and the report keep it whole).
std::string first_line(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  if (line.size() > 200) {
    std::size_t n = 197;
    while (n > 0 && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80) --n;  // not inside a UTF-8 character
    line = line.substr(0, n) + "...";
  }
  if (line.size() < message.size()) line += " (more in the verdict file)";
  return line;
}

struct ScanOptions {
  std::string classpath, tests_file, backend = "local", apk, test_apk, runner, techniques, isolation, strategy, out = "verdicts.json";
  std::string working_dir;  // local: the test JVMs' working directory; empty: this command's current directory
  std::string shuffle_mode;
  std::string shard, group;  // a CI matrix job's share of a sharded scan: "I/N" and the group's name
  std::string new_since;     // only tests the CI history of this branch never saw
  std::optional<int> shuffle_seeds, shuffle_rounds;
  std::string thread_strategy, virtual_time;       // threads: pct|pos|random; on|off
  std::optional<int> thread_schedules, bug_depth;  // threads: schedules per test, PCT's bug depth
  std::optional<int> thread_max_steps;             // threads: the agent's step limit
  std::vector<std::string> thread_include;         // threads: class-name prefixes to rewrite
  std::vector<std::string> tests, adb_servers, jvm_args;
  bool clear_state = false;
  bool from_history = false;  // add the CI history's suspects (GET /v1/suspects) to the tests
  std::optional<int> runs, timeout_seconds, parallel, max_runs, max_seconds, max_orders, max_runs_per_test,
      max_seconds_per_test;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> all_tests;  // --tests and the lines of --tests-file, after check()
};

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
  // FAILED counts every run of every technique that reached the test; WHY is the deciding
  // technique's own sentence, named, so the two never seem to disagree.
  std::printf("%-13s  %-15s  %-9s  %-*s  %s\n", "VERDICT", "CATEGORY", "FAILED", int(width), "TEST", "WHY");
  int flaky = 0, stable = 0, failing = 0, not_run = 0, skipped = 0;
  for (const auto& v : verdicts) {
    std::string verdict = v["verdict"], category = v["category"].is_string() ? v["category"].get<std::string>() : "-";
    if (auto all = v.find("categories"); all != v.end() && all->is_array() && all->size() > 1) {
      category.clear();
      for (const auto& c : *all) category += (category.empty() ? "" : "+") + c.get<std::string>();
    }
    const auto& runs = v["runs"];
    int observed = runs["passed"].get<int>() + runs["failed"].get<int>();
    std::string failed = std::to_string(runs["failed"].get<int>()) + "/" + std::to_string(observed);
    std::string why = v["evidence"].value("reason", "");
    if (auto t = v.find("technique"); t != v.end() && t->is_string() && !t->get<std::string>().empty() && !why.empty())
      why = t->get<std::string>() + ": " + why;
    std::printf("%-13s  %-15s  %-9s  %-*s  %s\n", verdict.c_str(), category.c_str(), failed.c_str(), int(width),
                v["test"].get<std::string>().c_str(), why.c_str());
    if (verdict == "flaky") {
      ++flaky;
      const auto& e = v["evidence"];
      if (e.contains("passing_run") && e.contains("failing_run"))
        std::printf("%-13s  passed in run #%lld, failed in run #%lld: %s\n", "", (long long)e["passing_run"]["id"].get<std::int64_t>(),
                    (long long)e["failing_run"]["id"].get<std::int64_t>(), first_line(e["failing_run"].value("message", "")).c_str());
      if (e.contains("reproducer")) {
        std::string order;
        for (const auto& t : e["reproducer"]) order += (order.empty() ? "" : ", ") + t.get<std::string>();
        std::printf("%-13s  reproducer (one JVM): %s\n", "", order.c_str());
      }
    } else if (verdict == "not_flaky") {
      ++stable;
    } else if (verdict == "failing") {
      ++failing;
    } else if (verdict == "skipped") {
      ++skipped;
    } else {
      ++not_run;
    }
  }
  std::printf("\n%zu tests: %d flaky, %d not flaky, %d failing, %d could not run, %d skipped\n", verdicts.size(), flaky, stable, failing,
              not_run, skipped);
  // What `not_flaky` rules out, for the test with the fewest passing executions (the weakest).
  // A test that ran only in runs changing the schedule, the JDK or the program on purpose has
  // no such count, and the line says so rather than "each".
  int fewest = 0, with_count = 0;
  for (const auto& v : verdicts) {
    if (v["verdict"] != "not_flaky") continue;
    const auto& details = v["evidence"].value("details", json::object());
    if (auto n = details.find("passed_executions"); n != details.end() && n->is_string()) {
      const int passed = std::atoi(n->get<std::string>().c_str());
      if (passed < 1) continue;
      ++with_count;
      if (fewest == 0 || passed < fewest) fewest = passed;
    }
  }
  if (auto line = core::rules_out_summary(fewest, with_count, stable); !line.empty()) std::printf("%s\n", line.c_str());
  std::printf("FAILED: failed runs / runs with an outcome, all techniques together; WHY: the deciding technique's own runs\n");
}

std::string check(ScanOptions& o) {
  o.all_tests = o.tests;
  if (!o.tests_file.empty()) {
    auto lines = read_lines(o.tests_file);
    if (!lines) return lines.error().message;
    o.all_tests.insert(o.all_tests.end(), lines->begin(), lines->end());
  }
  if (o.all_tests.empty() && !o.from_history) return "--tests is required (or --from-history)";
  if (o.backend == "local" && o.classpath.empty()) return "--classpath is required";
  if (o.backend == "adb" && o.test_apk.empty()) return "--test-apk is required with --backend adb";
  return {};
}

json request_body(const ScanOptions& o) {
  json body{{"backend", o.backend}};
  if (o.backend == "local") {
    // Relative entries ("build/classes/java/test") are this command's, not the daemon's, whose
    // directory is unrelated when it was started elsewhere: send them absolute.
    std::string classpath;
    for (size_t start = 0; start <= o.classpath.size();) {
      size_t end = o.classpath.find(':', start);
      if (end == std::string::npos) end = o.classpath.size();
      std::string entry = o.classpath.substr(start, end - start);
      std::error_code ec;
      if (!entry.empty() && entry.front() != '/') {
        auto abs = std::filesystem::absolute(entry, ec);
        if (!ec) entry = abs.string();
      }
      if (!entry.empty()) classpath += (classpath.empty() ? "" : ":") + entry;
      start = end + 1;
    }
    body["classpath"] = classpath;
    // Maven and Gradle run tests in the module's directory and tests open files relative to
    // it; the daemon's own directory is unrelated, so say where the tests are meant to run.
    std::error_code ec;
    auto dir = o.working_dir.empty() ? std::filesystem::current_path(ec) : std::filesystem::absolute(o.working_dir, ec);
    if (!ec) body["working_dir"] = dir.lexically_normal().string();
  } else {
    json adb{{"test_apk", o.test_apk}};
    if (!o.apk.empty()) adb["app_apk"] = o.apk;
    if (!o.adb_servers.empty()) adb["servers"] = o.adb_servers;
    if (!o.runner.empty()) adb["runner"] = o.runner;
    if (o.clear_state) adb["clear_state"] = true;
    body["adb"] = adb;
  }
  std::string joined;
  for (const auto& t : o.all_tests) joined += (joined.empty() ? "" : ",") + t;
  body["tests"] = joined;
  if (!o.techniques.empty()) body["techniques"] = o.techniques;
  if (o.runs) body["runs"] = *o.runs;
  if (o.seed) body["seed"] = *o.seed;
  if (o.timeout_seconds) body["timeout_seconds"] = *o.timeout_seconds;
  if (o.parallel) body["parallelism"] = *o.parallel;
  if (!o.jvm_args.empty()) body["jvm_args"] = o.jvm_args;
  json budget = json::object();
  if (o.max_runs) budget["max_runs"] = *o.max_runs;
  if (o.max_seconds) budget["max_seconds"] = *o.max_seconds;
  if (o.max_orders) budget["max_orders"] = *o.max_orders;
  if (o.max_runs_per_test) budget["max_runs_per_test"] = *o.max_runs_per_test;
  if (o.max_seconds_per_test) budget["max_seconds_per_test"] = *o.max_seconds_per_test;
  if (!o.strategy.empty()) body["strategy"] = o.strategy;
  if (!budget.empty()) body["budget"] = budget;
  if (!o.isolation.empty()) body["isolation"] = o.isolation;
  json shuffle = json::object();
  if (o.shuffle_seeds) shuffle["seeds"] = *o.shuffle_seeds;
  if (!o.shuffle_mode.empty()) shuffle["mode"] = o.shuffle_mode;
  if (o.shuffle_rounds) shuffle["rounds"] = *o.shuffle_rounds;
  if (!shuffle.empty()) body["shuffle"] = shuffle;
  json threads = json::object();
  if (!o.thread_strategy.empty()) threads["strategy"] = o.thread_strategy;
  if (o.thread_schedules) threads["schedules"] = *o.thread_schedules;
  if (o.bug_depth) threads["depth"] = *o.bug_depth;
  if (!o.virtual_time.empty()) threads["virtual_time"] = o.virtual_time == "on";
  if (o.thread_max_steps) threads["max_steps"] = *o.thread_max_steps;
  if (!o.thread_include.empty()) threads["include"] = o.thread_include;
  if (!threads.empty()) body["threads"] = threads;
  if (!o.shard.empty()) body["shard"] = o.shard;
  if (!o.group.empty()) body["group"] = o.group;
  if (!o.new_since.empty()) body["new_since"] = o.new_since;
  return body;
}

// --from-history: the tests the daemon's CI history points at (failed and passed on one commit,
// passed on a rerun, or both outcomes recently), each said with its reasons. nullopt: could not ask.
std::optional<std::vector<std::string>> history_suspects(HttpClient& client, bool quiet) {
  auto r = client.request("GET", "/v1/suspects");
  if (!r || r->status != 200) {
    std::fprintf(stderr, "flakescan scan: could not read the CI history: %s\n",
                 r ? problem_detail(*r).c_str() : r.error().message.c_str());
    return std::nullopt;
  }
  json body = json::parse(r->body, nullptr, false);
  std::vector<std::string> tests;
  for (const auto& s : body.value("suspects", json::array())) {
    tests.push_back(s.value("test", ""));
    if (quiet) continue;
    std::string reasons;
    for (const auto& why : s.value("reasons", json::array())) reasons += (reasons.empty() ? "" : ", ") + why.get<std::string>();
    std::fprintf(stderr, "flakescan: from the CI history: %s (%s)\n", tests.back().c_str(), reasons.c_str());
  }
  return tests;
}

int run_scan(const ScanOptions& o, const CommonOptions& common) {
  json body = request_body(o);
  const bool quiet = common.quiet;
  auto conn = open_daemon("scan", common);
  if (!conn) return 1;
  auto& client = conn->client();
  if (o.from_history) {
    auto suspects = history_suspects(client, quiet);
    if (!suspects) return 1;
    std::string joined = body.value("tests", "");
    for (const auto& t : *suspects)
      if (std::find(o.all_tests.begin(), o.all_tests.end(), t) == o.all_tests.end()) joined += (joined.empty() ? "" : ",") + t;
    if (joined.empty()) {
      if (!quiet) std::fprintf(stderr, "flakescan: the CI history has no suspect: nothing to scan\n");
      return 0;
    }
    body["tests"] = joined;
  }
  auto submitted = submit_job(client, "scan", "/v1/scans", body.dump(), "scan");
  if (!submitted) return 1;
  const std::string id = *submitted;
  if (!quiet) std::fprintf(stderr, "flakescan: scan %s submitted to %s\n", id.c_str(), client.url().str().c_str());

  bool tty = isatty(2);
  auto last_print = std::chrono::steady_clock::now() - std::chrono::seconds(10);
  JobFollow follow{.command = "scan", .status_path = "/v1/scans/" + id, .events_path = "/v1/scans/" + id + "/events"};
  follow.quiet = quiet;
  follow.running = [](const json& status) {
    const std::string state = status.value("state", "");
    return state == "queued" || state == "running";
  };
  follow.on_event = [&](const std::string& type, const json& e) {
    if (quiet || !e.is_object()) return;
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
    } else if (type == "warning") {
      std::fprintf(stderr, "%sflakescan: warning: %s\n", tty ? "\n" : "", e.value("message", "").c_str());
    } else if (type == "state") {
      std::string state = e.value("state", "");
      std::fprintf(stderr, "%sflakescan: scan %s%s%s\n", tty ? "\n" : "", state.c_str(), e.contains("error") ? ": " : "",
                   e.contains("error") && e["error"].is_string() ? e["error"].get<std::string>().c_str() : "");
    }
  };
  auto followed = follow_job(client, follow);
  if (!followed) return 1;
  const json& status = *followed;
  const std::string state = status.value("state", "");
  auto verdicts = client.request("GET", "/v1/scans/" + id + "/verdicts");
  if (verdicts && verdicts->status == 200) {
    json file = json::parse(verdicts->body);
    std::ofstream f(o.out);
    f << file.dump(2) << "\n";
    f.close();
    if (!f) std::fprintf(stderr, "flakescan scan: cannot write %s\n", o.out.c_str());
    if (common.json) std::printf("%s\n", file.dump(2).c_str());
    else print_summary(file);
    if (!quiet) std::fprintf(stderr, "flakescan: verdicts written to %s\n", o.out.c_str());
  }
  if (state != "completed") {
    const bool has_error = status.contains("error") && status["error"].is_string();
    std::fprintf(stderr, "flakescan scan: the scan %s: %s\n", state.c_str(),
                 has_error ? status["error"].get<std::string>().c_str() : "no reason given");
    return 1;
  }
  return 0;
}

// What to scan and where: the classpath (or APKs), the tests, the backend, the techniques.
void add_selection_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  cmd.add_option("--classpath", o->classpath,
                 "the test runtime classpath (test classes, main classes, libraries), ':'-separated")
      ->type_name("CP");
  cmd.add_option("--tests", o->tests, "pkg.Class#method or pkg.Class (all its tests), comma-separated; may repeat")
      ->type_name("IDS")
      ->allow_extra_args(false);
  cmd.add_option("--tests-file", o->tests_file, "more ids, one per line")->type_name("FILE");
  cmd.add_option("--backend", o->backend, "local (default: JVMs on this machine) or adb (devices and emulators)")
      ->type_name("NAME")
      ->check(CLI::IsMember({"local", "adb"}));
  cmd.add_option("--techniques", o->techniques,
                 "comma-separated, from: rerun (default), suite, order, nio, nio-isolated-class, "
                 "nio-isolated-method, shuffle, explore, threads, repair, noise")
      ->type_name("LIST");
}

// How runs are made and how many: reruns, isolation, seed, deadlines and the budget.
void add_run_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  cmd.add_option("--runs", o->runs, "runs per test for rerun (default 10)")->type_name("N");
  cmd.add_option("--isolation", o->isolation, "fresh_jvm (default: one JVM per run) or shared_jvm")->type_name("MODE");
  cmd.add_option("--seed", o->seed, "seed for every randomised choice (default 1)")->type_name("N");
  cmd.add_option("--timeout-seconds", o->timeout_seconds, "deadline of one run (default 60 s + 10 s per test in it)")
      ->type_name("N");
  cmd.add_option("--max-runs", o->max_runs, "budget: total runs (default " + std::to_string(core::Budget{}.max_runs) + ")")
      ->type_name("N");
  cmd.add_option("--max-seconds", o->max_seconds,
                 "budget: wall time in seconds (default " + std::to_string(core::Budget{}.max_seconds) + ")")
      ->type_name("N");
  cmd.add_option("--max-orders", o->max_orders, "budget of the order technique: orders tried (default 10, or twice the Tuscan rows of the largest "
                 "class when more, up to 100)")
      ->type_name("N");
}

// Choices of single techniques: explore's strategy, the shuffling JDK's seeds and rounds.
void add_technique_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  cmd.add_option("--strategy", o->strategy,
                 "explore: maxdiff (default: maximum differentiation over happens-before intervals), "
                 "flakescanner (one event delayed at a time) or both")
      ->type_name("NAME")
      ->check(CLI::IsMember({"flakescanner", "maxdiff", "both"}));
  cmd.add_option("--shuffle-seeds", o->shuffle_seeds,
                 "shuffle: seeded runs per test on the shuffling JDK (default 3); the seeds follow from --seed")
      ->type_name("N");
  cmd.add_option("--shuffle-rounds", o->shuffle_rounds,
                 "suite: whole-suite rounds on the shuffling JDK besides the order rounds (default 0)")
      ->type_name("N");
}

// Which tests the CI history and a CI matrix add or keep.
void add_ci_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  cmd.add_flag("--from-history", o->from_history,
               "also scan the tests the daemon's CI history suspects (flakescan suspects: failed and passed on "
               "one commit, passed on a rerun, both outcomes recently), to find out why");
  cmd.add_option("--new-since", o->new_since,
                 "scan only the selected tests that the CI history (flakescan import-results --branch) never "
                 "saw on BRANCH: a pull request's new tests, rerun before they merge")
      ->type_name("BRANCH");
  cmd.add_option("--shard", o->shard,
                 "run shard I of N: the tests of the classes that fall to it (for a CI matrix; needs --group; "
                 "`flakescan verdicts --group G` merges the shards)")
      ->type_name("I/N");
  cmd.add_option("--group", o->group,
                 "the name all shards of one sharded scan share (e.g. the CI run id); alone: a group of one shard")
      ->type_name("G");
}

// More of single techniques: shuffle's mode, threads' search and explore's budget per test (in --help they
// follow the CI options).
void add_technique_limit_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  cmd.add_option("--shuffle-mode", o->shuffle_mode,
                 "shuffle: full (default: a new order for every call) or one (one order per call site)")
      ->type_name("MODE")
      ->check(CLI::IsMember({"full", "one"}));
  cmd.add_option("--thread-strategy", o->thread_strategy,
                 "threads: how each scheduling point picks the next thread: pct (default: PCT, priorities "
                 "with --bug-depth change points), pos (partial order sampling) or random")
      ->type_name("NAME")
      ->check(CLI::IsMember({"pct", "pos", "random"}));
  cmd.add_option("--thread-schedules", o->thread_schedules,
                 "threads: controlled schedules per test, at most (default 100); the seeds follow from --seed")
      ->type_name("N")
      ->check(CLI::Range(1, 10000));
  cmd.add_option("--bug-depth", o->bug_depth, "threads: PCT's bug depth d, the orderings a bug needs (default 3)")
      ->type_name("D")
      ->check(CLI::Range(1, 20));
  cmd.add_option("--virtual-time", o->virtual_time,
                 "threads: on (default: sleeps and timeouts return at once on the scheduler's clock) or off")
      ->type_name("MODE")
      ->check(CLI::IsMember({"on", "off"}));
  cmd.add_option("--thread-max-steps", o->thread_max_steps,
                 "threads: scheduling points chosen while the test's threads run together, after which it runs "
                 "on uncontrolled and its schedule is not exact (default 100000)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000000));
  cmd.add_option("--thread-include", o->thread_include,
                 "threads: rewrite only classes whose names start with these prefixes, comma-separated or "
                 "repeated (e.g. org.example.); default every class of the project")
      ->type_name("PREFIX,...")
      ->delimiter(',')
      ->check(CLI::Validator(
          [](const std::string& p) {
            return core::is_class_prefix(p) ? std::string()
                                            : "'" + p + "' is not a class-name prefix (dotted Java names, e.g. org.example.)";
          },
          "PREFIX"));
  cmd.add_option("--max-runs-per-test", o->max_runs_per_test, "budget of explore: debugged runs per test (default 40)")
      ->type_name("N");
  cmd.add_option("--max-seconds-per-test", o->max_seconds_per_test,
                 "budget of explore: wall time per test (default 120)")
      ->type_name("N");
}

// The test JVMs (how many at once, their options, their working directory) and the verdict file.
void add_jvm_and_output_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  cmd.add_option("--parallel", o->parallel, "runs at the same time (default: the machine's cores)")->type_name("N");
  cmd.add_option("--jvm-arg", o->jvm_args,
                 "an option of the test JVMs, e.g. --jvm-arg=--add-opens=java.base/java.util=ALL-UNNAMED (repeatable)")
      ->type_name("ARG")
      ->allow_extra_args(false);
  cmd.add_option("--out", o->out, "where to write the verdict file (default verdicts.json)")->type_name("FILE");
  cmd.add_option("--working-dir", o->working_dir,
                 "the test JVMs' working directory, as Maven and Gradle use the module's (default: the current "
                 "directory)")
      ->type_name("DIR");
}

// The adb backend's own options, in a group of their own in --help.
void add_adb_options(CLI::App& cmd, const std::shared_ptr<ScanOptions>& o) {
  const std::string adb = "adb backend";
  cmd.add_option("--apk", o->apk, "the app APK to install")->type_name("APK")->group(adb);
  cmd.add_option("--test-apk", o->test_apk, "the test APK to install (required)")->type_name("APK")->group(adb);
  cmd.add_option("--adb-server", o->adb_servers, "an adb server to use (repeatable; default 127.0.0.1:5037)")
      ->type_name("HOST:PORT")
      ->allow_extra_args(false)
      ->group(adb);
  cmd.add_option("--runner", o->runner, "the instrumentation runner (default androidx.test.runner.AndroidJUnitRunner)")
      ->type_name("CLASS")
      ->group(adb);
  cmd.add_flag("--clear-state", o->clear_state, "clear the app's data between runs")->group(adb);
}

}  // namespace

CommandDef scan_command() {
  return {
      .name = "scan",
      .summary = "scan tests for flakiness and write verdicts.json",
      .reach = Reach::daemon,
      .json_help = "print the verdict file on stdout instead of the summary table",
      .quiet_help = "no progress output on stderr",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<ScanOptions>();
            cmd.description("Submits a scan to the daemon, shows progress while it runs, prints a summary table\n"
                            "and writes the verdict file.\n"
                            "  flakescan scan --classpath CP --tests ID[,ID...] [options]\n"
                            "  flakescan scan --backend adb --test-apk APK [--apk APK] --tests ID[,ID...] [options]");
            add_selection_options(cmd, o);
            add_run_options(cmd, o);
            add_technique_options(cmd, o);
            add_ci_options(cmd, o);
            add_technique_limit_options(cmd, o);
            add_jvm_and_output_options(cmd, o);
            add_adb_options(cmd, o);
            cmd.footer("Exit status: 0 when the scan completed (whatever it found), 1 when it could not run, 2 on usage errors.");
            return Command{.check = [o](const CommonOptions&) { return check(*o); },
                           .run = [o](const CommonOptions& common) { return run_scan(*o, common); }};
          },
  };
}

}  // namespace flakescan::app
