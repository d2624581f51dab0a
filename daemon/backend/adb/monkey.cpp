#include "backend/adb/monkey.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "backend/adb/shell_command.hpp"

namespace flakescan::backend::adb {

using util::Errc;
using util::fail;
using Ms = std::chrono::milliseconds;

namespace {

constexpr const char* dump_path = "/data/local/tmp/flakescan-window.xml";

long long epoch_ms() {
  return std::chrono::duration_cast<Ms>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

util::Result<std::string> monkey_command(const std::string& package, std::uint64_t seed, int throttle_ms, int events) {
  if (auto r = check_package(package); !r) return std::unexpected(r.error());
  if (throttle_ms < 0 || events < 1 || events > 1'000'000) return fail(Errc::invalid_argument, "bad monkey throttle or event count");
  return "monkey -p " + shell_quote(package) + " -s " + std::to_string(seed) + " --throttle " + std::to_string(throttle_ms) +
         " --pct-syskeys 0 -v " + std::to_string(events);
}

std::string resumed_activity(std::string_view text) {
  for (std::string_view key : {"mResumedActivity", "topResumedActivity", "ResumedActivity"}) {
    auto at = text.find(key);
    if (at == std::string_view::npos) continue;
    std::string_view line = text.substr(at, text.find('\n', at) - at);
    // ... ActivityRecord{1a2b3c u0 com.example.app/.MainActivity t12}
    std::size_t start = 0;
    while (start < line.size()) {
      auto end = line.find_first_of(" }", start);
      std::string_view word = line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
      auto slash = word.find('/');
      if (slash != std::string_view::npos && slash > 0) {
        std::string pkg(word.substr(0, slash));
        std::string cls(word.substr(slash + 1));
        return cls.starts_with('.') ? pkg + cls : cls;
      }
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
  }
  return {};
}

MonkeyReport parse_monkey_output(std::string_view text) {
  MonkeyReport r;
  std::size_t at = 0;
  while ((at = text.find("Events injected:", at)) != std::string_view::npos) {
    at += 16;
    while (at < text.size() && text[at] == ' ') ++at;
    long long n = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') n = n * 10 + (text[at++] - '0');
    r.events += n;
  }
  for (at = 0; (at = text.find("// CRASH:", at)) != std::string_view::npos; at += 9) ++r.crashes;
  r.aborted = text.find("** Monkey aborted") != std::string_view::npos;
  return r;
}

bool screen_matches(std::string_view dump, const std::string& activity, const TarpitScreen& tarpit) {
  if (tarpit.activity.empty() && tarpit.resource_ids.empty()) return false;
  if (!tarpit.activity.empty() && tarpit.activity != activity) return false;
  for (const auto& id : tarpit.resource_ids)
    if (dump.find("resource-id=\"" + id + "\"") == std::string_view::npos) return false;
  return true;
}

util::Result<CrawlResult> run_monkey_crawl(const flakescan::adb_protocol::Client& client, const std::string& serial,
                                                       const MonkeyOptions& options, const core::CancelFlag& cancel) {
  if (auto r = check_package(options.package); !r) return std::unexpected(r.error());
  if (options.out_dir.empty()) return fail(Errc::invalid_argument, "exploration needs an output folder");
  auto launch = "monkey -p " + shell_quote(options.package) + " -c android.intent.category.LAUNCHER 1";
  auto stop = force_stop_command(options.package);
  if (!stop) return std::unexpected(stop.error());
  std::filesystem::create_directories(options.out_dir + "/screens");
  std::ofstream actions(options.out_dir + "/actions.jsonl", std::ios::trunc);
  if (!actions) return fail(Errc::io, "cannot write " + options.out_dir + "/actions.jsonl");

  CrawlResult result;
  result.trace_dir = options.out_dir;
  auto end = flakescan::adb_protocol::Clock::now() + options.budget;
  auto step_deadline = [&] { return std::min(end + Ms(30000), flakescan::adb_protocol::after(Ms(60000))); };
  auto sh = [&](const std::string& cmd) { return client.shell(serial, cmd, step_deadline(), &cancel); };

  if (auto r = sh(launch); !r) return std::unexpected(r.error());
  for (int step = 0; !cancel && flakescan::adb_protocol::Clock::now() < end && (options.max_steps == 0 || step < options.max_steps); ++step) {
    // Record the screen the next action acts on.
    auto dump = sh(std::string("uiautomator dump ") + dump_path + " >/dev/null && cat " + dump_path);
    if (!dump) return std::unexpected(dump.error());
    if (dump->cut) return std::unexpected(*dump->cut);
    auto dumpsys = sh("dumpsys activity activities");
    if (!dumpsys) return std::unexpected(dumpsys.error());
    std::string activity = dumpsys->cut ? std::string() : resumed_activity(dumpsys->out);
    std::string xml = dump->out.substr(0, dump->out.rfind('>') == std::string::npos ? 0 : dump->out.rfind('>') + 1);
    auto start = xml.find("<?xml");
    if (start == std::string::npos) start = xml.find("<hierarchy");
    std::string screen = "screens/" + std::to_string(step) + ".xml";
    bool have_screen = start != std::string::npos;
    if (have_screen) {
      std::ofstream(options.out_dir + "/" + screen, std::ios::binary) << xml.substr(start);
      ++result.screens;
    } else {
      result.problems.push_back("step " + std::to_string(step) + ": no UI Automator dump (" + dump->out.substr(0, 200) + ")");
    }
    bool restart = false;
    for (const auto& t : options.restart_at) restart = restart || screen_matches(xml, activity, t);
    nlohmann::json line = {{"ts", epoch_ms()}, {"screen", screen}, {"activity", activity}};
    std::uint64_t seed = options.seed + std::uint64_t(step);
    if (restart) {
      if (auto r = sh(*stop); !r) return std::unexpected(r.error());
      if (auto r = sh(launch); !r) return std::unexpected(r.error());
      ++result.restarts;
      line["action"] = "restart";
    } else {
      auto cmd = monkey_command(options.package, seed, options.throttle_ms, options.events_per_step);
      if (!cmd) return std::unexpected(cmd.error());
      auto out = sh(*cmd);
      if (!out) return std::unexpected(out.error());
      auto report = parse_monkey_output(out->out + out->err);
      result.events += report.events;
      result.crashes += report.crashes;
      line["action"] = "touch";
      line["code"] = report.events;
      line["seed"] = seed;
      if (report.crashes) line["crash"] = true;
    }
    if (have_screen) actions << line.dump() << "\n";
    actions.flush();
    ++result.steps;
    if (options.on_step) options.on_step(result);
  }
  return result;
}

}  // namespace flakescan::backend::adb
