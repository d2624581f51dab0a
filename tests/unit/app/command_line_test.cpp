// The one parser of `flakescan`: every subcommand's help, error wording, exit codes and common
// options, read through the same definitions the executable uses (nothing is run).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "app/cli_commands.hpp"
#include "scan/technique_table.hpp"

using namespace flakescan::app;

namespace {

struct Parsed {
  std::optional<int> code;  // nullopt: a command is ready to run
  std::string out, err;
  CommonOptions common;
  std::string chosen;
};

Parsed parse(const Args& args) {
  CommandLine line(all_commands(), "9.9.9");
  std::ostringstream out, err;
  Parsed p;
  p.code = line.parse(args, out, err);
  p.out = out.str();
  p.err = err.str();
  if (!p.code) {
    p.common = line.common();
    p.chosen = line.chosen();
  }
  return p;
}

std::string fixture(const std::string& name) { return std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/" + name; }

// For each command, arguments that make a complete, valid command line.
std::map<std::string, Args> valid_arguments() {
  return {
      {"scan", {"--classpath", "x.jar", "--tests", "a.B"}},
      {"replay", {"--scan", "s1", "--test", "a.B#c"}},
      {"report", {"--verdicts", "v.json", "--out-dir", "out"}},
      {"tarpits", {"traces"}},
      {"devices", {}},
      {"crawl-ui", {"--package", "com.example.app"}},
      {"explore-ui", {"--package", "com.example.app"}},  // crawl-ui's old name (issue 30)
      {"import-results", {fixture("junit/surefire-reruns.xml"), "--source", "ci-1"}},
      {"suspects", {}},
      {"quarantine", {}},
      {"verdicts", {"--group", "ci-1"}},
      {"completion", {"bash"}},
  };
}

Args with(const std::string& command, Args rest) {
  rest.insert(rest.begin(), command);
  return rest;
}

// Sets or clears an environment variable for one scope.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~EnvVar() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("every subcommand's help prints on stdout and exits 0", "[app][cli]") {
  for (const auto& def : all_commands()) {
    INFO(def.name);
    for (const Args& args : {Args{def.name, "--help"}, Args{def.name, "-h"}, Args{"help", def.name}}) {
      auto p = parse(args);
      CHECK(p.code == 0);
      CHECK(p.err.empty());
      CHECK_THAT(p.out, Catch::Contains("Usage: flakescan " + def.name));
      CHECK_THAT(p.out, Catch::Contains("Exit status"));
      if (def.reach == Reach::none) {
        CHECK_THAT(p.out, Catch::Contains("Takes none of the common options"));
        continue;
      }
      for (const char* common : {"--daemon URL", "--keep-daemon", "--json", "--quiet", "FLAKESCAN_DAEMON"}) {
        CHECK_THAT(p.out, Catch::Contains(common));
      }
      if (def.reach == Reach::local) CHECK_THAT(p.out, Catch::Contains("accepted, not used"));
    }
  }
}

TEST_CASE("scan --help lists every technique the daemon runs and the default budgets", "[app][cli]") {
  // A newcomer could not find suite, repair, noise or nio-isolated-class, nor the budgets that
  // cut a long rerun short (docs/real-projects.md).
  auto p = parse({"scan", "--help"});
  REQUIRE(p.code == 0);
  auto line = p.out.substr(p.out.find("--techniques"));
  line = line.substr(0, line.find("--runs"));
  for (const auto& name : flakescan::scan::technique_names()) CHECK_THAT(line, Catch::Contains(" " + name));
  CHECK_THAT(p.out, Catch::Contains("budget: total runs (default 2000)"));
  CHECK_THAT(p.out, Catch::Contains("budget: wall time in seconds (default 1800)"));
}

namespace {

// `flakescan scan` with valid arguments and `options` after them.
Args scan_with(Args options) {
  Args a = with("scan", valid_arguments().at("scan"));
  a.insert(a.end(), options.begin(), options.end());
  return a;
}

// A usage error (exit 2) that names the option given last but one (the bad value's option).
void check_refused_naming_option(const Args& bad) {
  INFO(bad.back());
  auto refused = parse(bad);
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains(bad[bad.size() - 2]));
}

}  // namespace

TEST_CASE("scan takes technique threads' four options, with their defaults in --help and bad values refused", "[app][cli][threads]") {
  auto p = parse({"scan", "--help"});
  REQUIRE(p.code == 0);
  for (const char* said : {"--thread-strategy", "pct (default", "--thread-schedules", "(default 100)", "--bug-depth", "(default 3)",
                           "--virtual-time", "on (default"})
    CHECK_THAT(p.out, Catch::Contains(said));
  CHECK_FALSE(parse(scan_with({"--thread-strategy", "pos", "--thread-schedules", "40", "--bug-depth", "4", "--virtual-time", "off"})).code);
  for (const Args& bad : {scan_with({"--thread-strategy", "fair"}), scan_with({"--thread-schedules", "0"}),
                          scan_with({"--bug-depth", "21"}), scan_with({"--virtual-time", "yes"})}) {
    check_refused_naming_option(bad);
  }
}

TEST_CASE("scan takes the threads agent's step limit and the classes it rewrites, and refuses bad ones", "[app][cli][threads]") {
  auto p = parse({"scan", "--help"});
  REQUIRE(p.code == 0);
  for (const char* said : {"--thread-max-steps", "(default 100000)", "--thread-include", "default every class of the project"})
    CHECK_THAT(p.out, Catch::Contains(said));
  auto taken = parse(scan_with({"--thread-max-steps", "2000000", "--thread-include", "org.apache.derby.,com.acme.Cache",
                                "--thread-include", "org.example."}));
  INFO(taken.err);
  CHECK_FALSE(taken.code);  // parsed, nothing to exit with
  for (const Args& bad : {scan_with({"--thread-max-steps", "0"}), scan_with({"--thread-max-steps", "many"}),
                          scan_with({"--thread-include", "org..example"}), scan_with({"--thread-include", "org.example,1x"})}) {
    check_refused_naming_option(bad);
  }
  CHECK_THAT(parse(scan_with({"--thread-include", "org..example"})).err, Catch::Contains("is not a class-name prefix"));
}

TEST_CASE("an unknown option is a usage error worded the same by every subcommand", "[app][cli]") {
  for (const auto& def : all_commands()) {
    INFO(def.name);
    const std::string expected = "flakescan " + def.name + ": unknown option --bogus\nRun `flakescan " + def.name +
                                 " --help` for help.\n";
    for (const Args& args : {with(def.name, {"--bogus"}), with(def.name, {"--bogus=3"}),
                             with(def.name, [&] {
                               Args a = valid_arguments().at(def.name);
                               a.push_back("--bogus");
                               return a;
                             }())}) {
      auto p = parse(args);
      CHECK(p.code == 2);
      CHECK(p.out.empty());
      CHECK(p.err == expected);
    }
  }
}

TEST_CASE("every subcommand takes its complete command line without error", "[app][cli]") {
  EnvVar unset("FLAKESCAN_DAEMON", nullptr);
  for (const auto& [name, args] : valid_arguments()) {
    INFO(name);
    auto p = parse(with(name, args));
    INFO(p.err);
    CHECK_FALSE(p.code);
    CHECK(p.chosen == name);
    CHECK(p.common.daemon.empty());
    CHECK_FALSE(p.common.json);
    CHECK_FALSE(p.common.quiet);
  }
}

TEST_CASE("FLAKESCAN_DAEMON is the default of --daemon for every subcommand, and --daemon wins", "[app][cli]") {
  for (const auto& def : all_commands()) {
    if (def.reach == Reach::none) continue;
    INFO(def.name);
    const Args args = with(def.name, valid_arguments().at(def.name));
    {
      EnvVar env("FLAKESCAN_DAEMON", "http://10.0.0.7:7711");
      auto from_env = parse(args);
      REQUIRE_FALSE(from_env.code);
      CHECK(from_env.common.daemon == "http://10.0.0.7:7711");

      Args explicit_args = args;
      explicit_args.insert(explicit_args.end(), {"--daemon", "http://127.0.0.1:9"});
      auto given = parse(explicit_args);
      REQUIRE_FALSE(given.code);
      CHECK(given.common.daemon == "http://127.0.0.1:9");
    }
    {
      EnvVar empty("FLAKESCAN_DAEMON", "");  // set but empty: as if unset
      auto p = parse(args);
      REQUIRE_FALSE(p.code);
      CHECK(p.common.daemon.empty());
    }
  }
}

TEST_CASE("the common flags are read the same by every subcommand", "[app][cli]") {
  for (const auto& def : all_commands()) {
    if (def.reach == Reach::none) continue;
    INFO(def.name);
    Args args = with(def.name, valid_arguments().at(def.name));
    args.insert(args.end(), {"--keep-daemon", "--quiet"});
    args.push_back("--json");
    auto p = parse(args);
    INFO(p.err);
    REQUIRE_FALSE(p.code);
    CHECK(p.common.keep_daemon);
    CHECK(p.common.quiet);
    CHECK(p.common.json);
  }
  // `completion` prints a script and asks nobody: the common options are not its.
  auto p = parse({"completion", "bash", "--json"});
  CHECK(p.code == 2);
  CHECK_THAT(p.err, Catch::StartsWith("flakescan completion: unknown option --json"));
}

TEST_CASE("the option names scripts, docs and the Gradle plugin use are all still read", "[app][cli]") {
  EnvVar unset("FLAKESCAN_DAEMON", nullptr);
  auto traces = std::filesystem::temp_directory_path() / "unit-app-tests.txt";
  std::ofstream(traces) << "a.B#c\n# a comment\nd.E\n";
  const std::vector<Args> lines = {
      {"scan", "--classpath", "a.jar:b.jar", "--tests", "a.B,c.D#e", "--tests", "f.G", "--tests-file", traces.string(),
       "--techniques", "rerun,order", "--runs", "3", "--isolation", "shared_jvm", "--seed", "7", "--timeout-seconds", "30",
       "--max-runs", "100", "--max-seconds", "600", "--max-orders", "4", "--parallel", "2", "--out", "v.json", "--daemon",
       "http://127.0.0.1:7711", "--keep-daemon", "--quiet"},
      {"scan", "--backend", "adb", "--apk", "app.apk", "--test-apk", "test.apk", "--tests", "a.B", "--adb-server",
       "127.0.0.1:5037", "--adb-server", "10.0.0.5:5037", "--runner", "x.Runner", "--clear-state"},
      {"scan", "--classpath=a.jar", "--tests=a.B", "--runs=2"},
      {"scan", "--classpath", "a.jar", "--tests", "a.B", "--shard", "2/4", "--group", "ci-1234"},
      {"replay", "--verdicts", fixture("report/verdicts_mixed.json"), "--test", "a.B#c", "--runs", "2", "--daemon", "http://h:1"},
      {"report", "--verdicts", "a.json", "--verdicts", "b.json", "--out-dir", "out", "--source-root", "src/test/java",
       "--source-root", "app/src/test/java", "--base-dir", ".", "--github-annotations"},
      {"report", "--verdicts", "a.json", "--out-dir", "out", "--classpath", "build/classes/java/test:lib/*", "--classpath",
       "junit4.jar", "--flaky-annotation", "com.acme.Flaky", "--flaky-category", "com.acme.testing.FlakyTests"},
      {"tarpits", "toller-run", "runs/a", "--vet-compatible", "--out", "t.json", "--json", "--t-min-ms", "1",
       "--max-groups-per-minute", "0.25", "--gap-cap-ms", "0", "--partition-window-ms", "60000", "--d-max", "2", "--top", "5",
       "--keep-ms", "3550000", "--pad-to-ms", "3540000"},
      {"tarpits", "--vet-compatible", "toller-run", "runs/a"},
      {"devices", "--adb", "10.0.0.5:5037", "--adb", "farm.example:5037", "--json"},
      {"crawl-ui", "--package", "com.example.app", "--apk", "a.apk", "--serial", "emulator-5554", "--adb-server",
       "127.0.0.1:5037", "--budget", "600", "--max-steps", "4", "--seed", "3", "--throttle-ms", "100", "--events-per-step",
       "20", "--guided-by", "e3f09a1c27b4d", "--vet-compatible", "--t-min-ms", "1", "--max-groups-per-minute", "1000000000",
       "--partition-window-ms", "1000", "--json", "--out", "e.json", "--quiet"},
      {"import-results", fixture("junit/surefire-reruns.xml"), fixture("junit"), "--source", "ci-103", "--commit", "beef",
       "--branch", "main", "--json"},
      {"suspects", "--window", "5", "--json"},
      {"quarantine", "--format", "notTestFile", "--out", "q.txt"},
      {"quarantine", "--format", "gradle"},
      {"verdicts", "--group", "ci-1", "--out", "v.json", "--allow-incomplete", "--quiet"},
  };
  for (const auto& args : lines) {
    INFO(args[0] << " " << args[1]);
    auto p = parse(args);
    INFO(p.err);
    CHECK_FALSE(p.code);
  }
  std::filesystem::remove(traces);
}

TEST_CASE("usage errors found after CLI11 read the line are worded and coded like its own", "[app][cli]") {
  EnvVar unset("FLAKESCAN_DAEMON", nullptr);
  struct Case {
    Args args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"scan", "--classpath", "x"}, "flakescan scan: --tests is required"},
      {{"scan", "--tests", "a.B"}, "flakescan scan: --classpath is required"},
      {{"scan", "--backend", "adb", "--tests", "a.B"}, "flakescan scan: --test-apk is required with --backend adb"},
      {{"scan", "--backend", "gradle", "--tests", "a.B"}, "flakescan scan: --backend: gradle not in {local,adb}"},
      {{"scan", "--tests", "a.B", "--tests-file", "/nonexistent/ids.txt"}, "flakescan scan: cannot read /nonexistent/ids.txt"},
      {{"scan", "--classpath", "x", "--tests", "a.B", "--out"}, "flakescan scan: --out needs a value"},
      {{"scan", "--classpath", "x", "--tests", "a.B", "stray"}, "flakescan scan: unexpected argument 'stray'"},
      {{"replay", "--test", "a.B#c"}, "flakescan replay: --scan or --verdicts is required"},
      {{"replay", "--scan", "s"}, "flakescan replay: --test is required"},
      {{"report", "--out-dir", "o"}, "flakescan report: --verdicts is required"},
      {{"report", "--verdicts", "v", "--out-dir", "o", "--json", "--github-annotations"},
       "flakescan report: --json and --github-annotations both print on stdout: choose one"},
      {{"report", "--verdicts", "v", "--out-dir", "o", "--flaky-annotation", "@Flaky"},
       "flakescan report: expected a class name such as com.acme.Flaky, got '@Flaky'"},
      {{"report", "--verdicts", "v", "--out-dir", "o", "--flaky-category", "com.acme."},
       "flakescan report: expected a class name such as com.acme.Flaky, got 'com.acme.'"},
      {{"tarpits"}, "flakescan tarpits: name at least one trace folder"},
      {{"devices", "--adb", "host:notaport"}, "flakescan devices: --adb host:notaport"},
      {{"crawl-ui"}, "flakescan crawl-ui: --package is required"},
      {{"explore-ui"}, "flakescan explore-ui: --package is required"},
      {{"import-results", "--source", "s"}, "flakescan import-results: name at least one report FILE or DIR"},
      {{"import-results", "/nonexistent.xml", "--source", "s"},
       "flakescan import-results: no such file or directory: /nonexistent.xml"},
      {{"suspects", "--window", "many"}, "flakescan suspects: could not convert: --window = many"},
      {{"quarantine", "--json", "--format", "gradle"}, "flakescan quarantine: --json and --format gradle contradict"},
      {{"verdicts"}, "flakescan verdicts: --group is required"},
      {{"verdicts", "--group", "a/b"}, "flakescan verdicts: group 'a/b' must be 1-128 characters of A-Z a-z 0-9 . _ : -"},
      {{"completion"}, "flakescan completion: shell is required"},
      {{"completion", "fish"}, "flakescan completion: shell: fish not in {bash}"},
      {{"frobnicate"}, "flakescan: unknown command 'frobnicate'"},
      {{"--bogus"}, "flakescan: unknown option --bogus"},
  };
  for (const auto& c : cases) {
    INFO(c.args[0]);
    auto p = parse(c.args);
    CHECK(p.code == 2);
    CHECK(p.out.empty());
    CHECK_THAT(p.err, Catch::StartsWith(c.message));
    CHECK_THAT(p.err, Catch::EndsWith(" --help` for help.\n"));
  }
}

TEST_CASE("the top level: no command, help, version", "[app][cli]") {
  auto none = parse({});
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Catch::Contains("Usage: flakescan"));
  for (const Args& args : {Args{"--help"}, Args{"-h"}, Args{"help"}}) {
    auto p = parse(args);
    CHECK(p.code == 0);
    for (const auto& def : all_commands()) CHECK_THAT(p.out, Catch::Contains(def.name) && Catch::Contains(def.summary));
  }
  auto version = parse({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out == "flakescan 9.9.9\n");
}

TEST_CASE("bash completion generated from the parser completes commands and options", "[app][cli]") {
  CommandLine line(all_commands(), "9.9.9");
  std::ostringstream ignored;
  REQUIRE_FALSE(line.parse({"completion", "bash"}, ignored, ignored));
  const std::string script = bash_completion(line.app());
  for (const auto& def : all_commands()) CHECK_THAT(script, Catch::Contains(def.name));

  auto file = std::filesystem::temp_directory_path() / "unit-app-completion.bash";
  std::ofstream(file) << script;
  // What bash offers for a partial word, through the generated function itself.
  auto complete = [&](const std::string& words) {
    std::string command = "bash -c 'source " + file.string() + " && COMP_WORDS=(" + words +
                          ") && COMP_CWORD=$((${#COMP_WORDS[@]}-1)) && _flakescan && echo \"${COMPREPLY[*]}\"'";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe);
    std::string out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, pipe)) out += buf;
    CHECK(::pclose(pipe) == 0);
    return out;
  };
  CHECK(complete("flakescan sc") == "scan\n");
  CHECK(complete("flakescan scan --cl") == "--classpath --clear-state\n");
  CHECK(complete("flakescan quarantine --f") == "--format\n");
  CHECK(complete("flakescan devices --ad") == "--adb\n");
  CHECK(complete("flakescan tarpits --vet") == "--vet-compatible\n");
  std::filesystem::remove(file);
}
