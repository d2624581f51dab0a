// POST /v1/explorations bodies: defaults, every field's range, unknown fields, guidance.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "ui_crawl/crawl_request.hpp"

using namespace flakescan;
using ui_crawl::parse_crawl_request;
using nlohmann::json;

namespace {

const std::vector<backend::adb::wire::ServerAddress> daemon_servers{*backend::adb::wire::ServerAddress::parse("127.0.0.1:5037")};

util::Result<ui_crawl::CrawlRequest> parse(const json& body) { return parse_crawl_request(body, daemon_servers); }

std::string refusal(const json& body) {
  auto r = parse(body);
  if (r) return "accepted";
  CHECK(r.error().code == util::Errc::invalid_argument);
  return r.error().message;
}

}  // namespace

TEST_CASE("an exploration request takes defaults from the daemon and the mode", "[exploration][request]") {
  auto r = parse(json{{"package", "com.example.app"}});
  REQUIRE(r);
  REQUIRE(r->servers.size() == 1);
  CHECK(r->servers[0].str() == "127.0.0.1:5037");
  CHECK(r->serial.empty());
  CHECK(r->seed == 1);
  CHECK(r->throttle_ms == 200);
  CHECK(r->events_per_step == 50);
  CHECK(r->budget_seconds == 3600);
  CHECK(r->max_steps == 0);
  CHECK(r->mode == "standard");
  CHECK(r->restart_at.empty());
  CHECK(r->guided_by.empty());
  json stored = r->to_json();
  CHECK(stored["servers"] == json::array({"127.0.0.1:5037"}));
  CHECK(stored["serial"].is_null());
  // The stored form parses back to the same request (minus nulls, which mean "default").
  json again = stored;
  for (auto key : {"serial", "apk", "guided_by"}) again.erase(key);
  auto back = parse(again);
  REQUIRE(back);
  CHECK(back->to_json() == stored);
}

TEST_CASE("an exploration request with every field", "[exploration][request]") {
  json body{{"package", "com.example.app"},
            {"servers", {"10.0.0.5:5037", ":6000"}},
            {"serial", "emulator-5554"},
            {"seed", 42},
            {"throttle_ms", 0},
            {"events_per_step", 500},
            {"budget_seconds", 60},
            {"max_steps", 10},
            {"device_wait_seconds", 5},
            {"mode", "vet-compatible"},
            {"analysis", {{"t_min_ms", 1000}, {"max_groups_per_minute", 2.5}, {"top", 5}, {"pad_to_ms", 0}}},
            {"restart_at", {{{"activity", "com.example.app.settings.SettingsActivity"}, {"resource_ids", {"com.example.app:id/advanced"}}},
                            {{"resource_ids", {"android:id/content", "com.example.app:id/list"}}}}}};
  auto r = parse(body);
  INFO((r ? std::string() : r.error().message));
  REQUIRE(r);
  CHECK(r->servers.size() == 2);
  CHECK(r->servers[1].port == 6000);
  CHECK(r->serial == "emulator-5554");
  CHECK(r->seed == 42);
  CHECK(r->events_per_step == 500);
  REQUIRE(r->restart_at.size() == 2);
  CHECK(r->restart_at[0].activity == "com.example.app.settings.SettingsActivity");
  CHECK(r->restart_at[1].resource_ids.size() == 2);
  auto options = ui_crawl::analysis_options(r->mode, r->analysis);
  REQUIRE(options);
  CHECK(options->mode == tarpit::Mode::vet_compatible);
  CHECK(options->t_min_ms == 1000);
  CHECK(options->top_k == 5);
  CHECK(options->pad_to_ms == 0);
  CHECK(options->keep_ms == tarpit::Options::vet_compatible().keep_ms);
  // restart_at round-trips through its JSON form (what GET gives as guidance).
  auto again = ui_crawl::parse_restart_at(ui_crawl::restart_at_json(r->restart_at));
  REQUIRE(again);
  CHECK(again->size() == 2);
  CHECK((*again)[1].resource_ids == r->restart_at[1].resource_ids);
}

TEST_CASE("exploration requests that are refused, and why", "[exploration][request]") {
  const json ok{{"package", "com.example.app"}};
  auto with = [&](const std::string& key, json value) {
    json b = ok;
    b[key] = std::move(value);
    return b;
  };
  CHECK(refusal(json::array()).find("JSON object") != std::string::npos);
  CHECK(refusal(json::object()).find("'package' is required") != std::string::npos);
  CHECK(refusal(with("colour", "blue")).find("unknown field 'colour'") != std::string::npos);
  CHECK(refusal(with("package", "com.example;reboot")).find("'package'") != std::string::npos);
  CHECK(refusal(with("package", "app")).find("'package'") != std::string::npos);
  CHECK(refusal(with("package", 7)).find("must be a string") != std::string::npos);
  CHECK(refusal(with("servers", json::array())).find("'servers'") != std::string::npos);
  CHECK(refusal(with("servers", {"host:99999"})).find("'servers'") != std::string::npos);
  CHECK(refusal(with("serial", "emulator 5554")).find("'serial'") != std::string::npos);
  CHECK(refusal(with("serial", "$(reboot)")).find("'serial'") != std::string::npos);
  CHECK(refusal(with("seed", -1)).find("'seed'") != std::string::npos);
  CHECK(refusal(with("throttle_ms", 10001)).find("between 0 and 10000") != std::string::npos);
  CHECK(refusal(with("events_per_step", 0)).find("'events_per_step'") != std::string::npos);
  CHECK(refusal(with("budget_seconds", "60")).find("must be an integer") != std::string::npos);
  CHECK(refusal(with("max_steps", 1.5)).find("must be an integer") != std::string::npos);
  CHECK(refusal(with("mode", "fast")).find("'mode'") != std::string::npos);
  CHECK(refusal(with("analysis", {{"t_min", 5}})).find("unknown field 'analysis.t_min'") != std::string::npos);
  CHECK(refusal(with("analysis", {{"top", 0}})).find("'analysis.top'") != std::string::npos);
  CHECK(refusal(with("analysis", {{"max_groups_per_minute", 0}})).find("'analysis.max_groups_per_minute'") != std::string::npos);
  CHECK(refusal(with("analysis", json::array())).find("'analysis'") != std::string::npos);
  CHECK(refusal(with("apk", "/nonexistent/app.apk")).find("names no file") != std::string::npos);
  CHECK(refusal(with("guided_by", "s0123456789ab")).find("'guided_by'") != std::string::npos);
  CHECK(refusal(with("guided_by", "../../etc")).find("'guided_by'") != std::string::npos);
  json both = with("guided_by", "e0123456789ab");
  both["restart_at"] = json::array({{{"activity", "a.B"}}});
  CHECK(refusal(both).find("either") != std::string::npos);
  // restart_at entries.
  CHECK(refusal(with("restart_at", {{"activity", "a.B"}})).find("must be an array of tarpit screens") != std::string::npos);
  CHECK(refusal(with("restart_at", json::array({json::object()}))).find("match nothing") != std::string::npos);
  CHECK(refusal(with("restart_at", json::array({{{"activity", "a.B"}, {"ids", json::array()}}}))).find("unknown field 'restart_at[0].ids'") !=
        std::string::npos);
  CHECK(refusal(with("restart_at", json::array({{{"activity", "a b"}}}))).find("restart_at[0].activity") != std::string::npos);
  CHECK(refusal(with("restart_at", json::array({{{"resource_ids", {"id\"/><x"}}}}))).find("restart_at[0].resource_ids") != std::string::npos);
  CHECK(refusal(with("restart_at", json::array({{{"resource_ids", "com.x:id/a"}}}))).find("must be an array") != std::string::npos);
  json many = json::array();
  for (int i = 0; i < 65; ++i) many.push_back({{"activity", "a.B"}});
  CHECK(refusal(with("restart_at", many)).find("more than 64") != std::string::npos);
}

TEST_CASE("an apk must hold the package to explore", "[exploration][request]") {
  auto path = std::filesystem::temp_directory_path() / ("flakescan-explore-not-an-apk-" + std::to_string(getpid()) + ".apk");
  std::ofstream(path) << "not a zip";
  json body{{"package", "com.example.app"}, {"apk", path.string()}};
  CHECK(refusal(body).find("not a readable APK") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("exploration ids", "[exploration][request]") {
  CHECK(ui_crawl::valid_crawl_id("e0123456789ab"));
  CHECK_FALSE(ui_crawl::valid_crawl_id("e0123456789AB"));
  CHECK_FALSE(ui_crawl::valid_crawl_id("e0123456789a"));
  CHECK_FALSE(ui_crawl::valid_crawl_id("s0123456789ab"));
  CHECK_FALSE(ui_crawl::valid_crawl_id("e0123456789a/"));
}
