// `flakescan tarpits` on trace folders written to disk in both formats, with planted tarpits,
// corrupt files and gaps.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "support/tarpit/generator.hpp"

using namespace flakescan::tarpit;
using testing::Phase;
namespace fs = std::filesystem;

namespace {

using testing::minute;

fs::path scratch(const std::string& name) {
  auto dir = fs::path(FLAKESCAN_BINARY_DIR) / "tarpit-it" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `flakescan tarpits ARGS` through the CLI's parser with stdout sent to a file; returns
// (exit code, stdout).
std::pair<int, std::string> run(const flakescan::app::Args& args, const fs::path& out) {
  flakescan::app::Args line{"tarpits"};
  line.insert(line.end(), args.begin(), args.end());
  std::fflush(stdout);
  int saved = dup(1);
  FILE* f = std::fopen(out.c_str(), "w");
  dup2(fileno(f), 1);
  int rc = flakescan::app::run_command_line({flakescan::app::tarpits_command()}, line, "test");
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::fclose(f);
  return {rc, slurp(out)};
}

testing::GeneratedTrace planted_trace(std::uint64_t seed) {
  testing::GeneratorConfig c;
  c.seed = seed;
  c.activities = 5;
  c.templates_per_activity = 12;
  c.phases = {{Phase::explore, 15 * minute}, {Phase::local, 15 * minute, 2}, {Phase::explore, 10 * minute},
              {Phase::partition, 20 * minute, 3}};
  return testing::generate_trace(c);
}

}  // namespace

TEST_CASE("CLI: planted tarpits in a TOLLER folder and a recorded folder", "[tarpit][cli]") {
  auto g = planted_trace(21);
  REQUIRE(g.planted.size() == 2);
  auto dir = scratch("both-formats");
  testing::write_files(dir / "toller-run", testing::toller_files(g.trace));
  testing::write_files(dir / "recorded-run", testing::recorded_files(g.trace));

  for (bool vet : {false, true}) {
    INFO("vet-compatible " << vet);
    flakescan::app::Args args{(dir / "toller-run").string(), (dir / "recorded-run").string(), "--out",
                              (dir / "report.json").string()};
    if (vet) args.push_back("--vet-compatible");
    auto [rc, text] = run(args, dir / "stdout.txt");
    REQUIRE(rc == 0);
    auto report = nlohmann::json::parse(slurp(dir / "report.json"));
    CHECK(report["mode"] == (vet ? "vet-compatible" : "standard"));
    REQUIRE(report["traces"].size() == 2);
    for (const auto& t : report["traces"]) {
      INFO("trace " << t["name"]);
      CHECK(t["problems"].empty());
      bool local_found = false, partition_found = false;
      for (const auto& r : t["regions"]) {
        if (r["kind"] == "local" && r["ts_begin"] == g.planted[0].begin_ms) {
          local_found = true;
          CHECK(r["ts_end"] == g.planted[0].end_ms);
          CHECK(r["action"]["element"]["id"] == g.planted[0].element_id);
          CHECK(r["action"]["type"] == "click");
        }
        if (r["kind"] == "partition") {
          partition_found = true;
          CHECK(r["ts_action"] == g.planted[1].action_ms);
          CHECK(r["action"]["element"]["id"] == g.planted[1].element_id);
        }
      }
      CHECK(local_found);
      CHECK(partition_found);
    }
    // The human summary names the destructive actions and the time spent.
    CHECK(text.find("destructive action: click on android.widget.Button id=" + g.planted[0].element_id) !=
          std::string::npos);
    CHECK(text.find("id=" + g.planted[1].element_id) != std::string::npos);
    CHECK(text.find("spent") != std::string::npos);
    CHECK(text.find("guidance #1: disable") != std::string::npos);
  }
}

TEST_CASE("CLI: corrupt and missing files are reported and skipped", "[tarpit][cli]") {
  auto g = planted_trace(22);
  auto dir = scratch("corrupt");
  auto files = testing::toller_files(g.trace);
  // Truncate one screen, blank another, drop a third (its screenshot stays), add non-screens.
  files[100].second.resize(files[100].second.size() / 2);
  files[200].second.clear();
  auto dropped = files[300].first;
  files.erase(files.begin() + 300);
  files.emplace_back(dropped.substr(0, dropped.find('.')) + ".jpg", "jpeg bytes");
  files.emplace_back("logcat.txt", "not a screen");
  testing::write_files(dir / "run", files);
  auto [rc, text] = run({(dir / "run").string(), "--out", (dir / "r.json").string()}, dir / "stdout.txt");
  REQUIRE(rc == 0);
  auto report = nlohmann::json::parse(slurp(dir / "r.json"));
  const auto& t = report["traces"][0];
  CHECK(t["problems"].size() == 3);
  CHECK(t["screens"]["read"] == g.trace.screens.size() - 3);
  bool local_found = false;
  for (const auto& r : t["regions"])
    if (r["kind"] == "local" && r["action"]["element"]["id"] == g.planted[0].element_id) local_found = true;
  CHECK(local_found);
  CHECK(text.find("skipped 3 problem(s)") != std::string::npos);
}

TEST_CASE("CLI: a folder of trace folders, a healthy trace, and usage errors", "[tarpit][cli]") {
  testing::GeneratorConfig c;
  c.seed = 23;
  c.activities = 5;
  c.templates_per_activity = 12;
  c.phases = {{Phase::explore, 40 * minute}};
  c.gaps = {{10 * minute, 12 * minute}};  // a recorder outage
  auto g = testing::generate_trace(c);
  auto dir = scratch("healthy");
  testing::write_files(dir / "runs" / "a", testing::recorded_files(g.trace));
  auto [rc, text] = run({(dir / "runs").string(), "--json"}, dir / "stdout.txt");
  REQUIRE(rc == 0);
  auto report = nlohmann::json::parse(text);
  REQUIRE(report["traces"].size() == 1);
  CHECK(report["traces"][0]["name"] == "runs/a");
  CHECK(report["traces"][0]["regions"].empty());

  CHECK(run({}, dir / "o.txt").first == 2);
  CHECK(run({"--bogus", dir.string()}, dir / "o.txt").first == 2);
  CHECK(run({(dir / "nope").string()}, dir / "o.txt").first == 1);
  CHECK(run({(dir / "runs").string(), "--t-min-ms", "x"}, dir / "o.txt").first == 2);
}
