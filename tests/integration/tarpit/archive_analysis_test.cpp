// POST /v1/ui-traces's function: a tar archive of trace folders in, the JSON report out.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support/tarpit/generator.hpp"
#include "tarpit/archive_analysis.hpp"
#include "tarpit/tar.hpp"

using namespace flakescan::tarpit;
using testing::Phase;

namespace {
using testing::minute;
}

TEST_CASE("API: an archive of two traces in both formats and modes", "[tarpit][api]") {
  testing::GeneratorConfig c;
  c.seed = 31;
  c.activities = 5;
  c.templates_per_activity = 12;
  c.phases = {{Phase::explore, 20 * minute}, {Phase::local, 20 * minute, 2}, {Phase::explore, 20 * minute}};
  auto g = testing::generate_trace(c);
  std::vector<std::pair<std::string, std::string>> files;
  for (auto& [n, d] : testing::toller_files(g.trace)) files.emplace_back("upload/toller/" + n, d);
  for (auto& [n, d] : testing::recorded_files(g.trace)) files.emplace_back("upload/recorded/" + n, d);
  const auto archive = write_tar(files);

  for (auto mode : {"standard", "vet-compatible"}) {
    INFO(mode);
    auto options = options_for_mode_name(mode);
    REQUIRE(options);
    auto body = analyze_trace_archive(archive, *options);
    REQUIRE(body);
    auto j = nlohmann::json::parse(*body);
    CHECK(j["schema_version"] == 1);
    CHECK(j["mode"] == mode);
    REQUIRE(j["traces"].size() == 2);
    for (const auto& t : j["traces"]) {
      bool found = false;
      for (const auto& r : t["regions"])
        if (r["kind"] == "local" && r["ts_begin"] == g.planted[0].begin_ms) {
          found = true;
          CHECK(r["action"]["element"]["id"] == g.planted[0].element_id);
          CHECK(r["action"]["activity"].get<std::string>().starts_with("com.example.app.Activity"));
          CHECK(r["duration_ms"] == g.planted[0].end_ms - g.planted[0].begin_ms);
        }
      CHECK(found);
      REQUIRE_FALSE(t["guidance"].empty());
    }
    // VET's own output form, one entry per guided region.
    REQUIRE_FALSE(j["vet_actions"].empty());
    CHECK(j["vet_actions"][0][0].get<std::string>().starts_with("upload/"));
  }
}

TEST_CASE("API: bad bodies are invalid arguments", "[tarpit][api]") {
  auto options = Options::standard();
  auto not_tar = analyze_trace_archive("{\"hello\": 1}", options);
  REQUIRE_FALSE(not_tar);
  CHECK(not_tar.error().code == flakescan::util::Errc::invalid_argument);
  auto no_traces = analyze_trace_archive(write_tar({{"a/readme.md", "# nothing"}}), options);
  REQUIRE_FALSE(no_traces);
  CHECK(no_traces.error().code == flakescan::util::Errc::invalid_argument);
  auto truncated = write_tar({{"a/1700000000000.json", "{}"}});
  truncated.resize(600);
  auto cut = analyze_trace_archive(truncated, options);
  REQUIRE_FALSE(cut);
  CHECK(cut.error().code == flakescan::util::Errc::invalid_argument);
  CHECK_FALSE(options_for_mode_name("fast"));
}
