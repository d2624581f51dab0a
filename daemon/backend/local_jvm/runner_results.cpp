#include "backend/local_jvm/runner_results.hpp"

#include <algorithm>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/signature.hpp"
#include "threads/schedule_record.hpp"

namespace flakescan::backend {

namespace {

using nlohmann::json;

// Calls fn(line_json) for each complete line; the last line counts only when newline-ended.
template <class Fn>
util::Result<bool> for_each_line(std::string_view text, Fn&& fn) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    if (nl == std::string_view::npos) break;  // torn tail
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl + 1);
    if (line.empty()) continue;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("event") || !j["event"].is_string())
      return util::fail(util::Errc::malformed, "runner wrote a bad results line: " + std::string(line.substr(0, 200)));
    if (auto r = fn(j); !r) return std::unexpected(r.error());
  }
  return true;
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  if (auto it = j.find(key); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

int number(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : 0;
}

// The "shuffled" array of a finished line (runs on the shuffling JDK): one object per site.
std::vector<core::ShuffledSite> shuffled_sites(const json& line) {
  std::vector<core::ShuffledSite> out;
  auto it = line.find("shuffled");
  if (it == line.end() || !it->is_array()) return out;
  for (const auto& s : *it) {
    if (!s.is_object() || str(s, "key").empty()) continue;
    out.push_back({.key = str(s, "key"), .api = str(s, "api"), .via = strings(s, "via"), .frames = strings(s, "frames"),
                   .seen = number(s, "seen"), .shuffled = number(s, "shuffled"), .size = number(s, "size")});
  }
  return out;
}

// The "threads" record of a finished line (runs under the threads agent): an object, or the
// same object as a string. A record that cannot be read keeps the outcome and says why.
std::optional<core::ThreadSchedule> schedule_record(const json& line) {
  auto it = line.find("threads");
  if (it == line.end() || it->is_null()) return std::nullopt;
  return threads::schedule_record_or_error(it->is_string() ? it->get<std::string>() : it->dump());
}

}  // namespace

util::Result<RunnerStream> parse_run_stream(std::string_view text, size_t expected_tests) {
  RunnerStream out;
  out.finished.resize(expected_tests);
  auto ok = for_each_line(text, [&](const json& j) -> util::Result<bool> {
    std::string event = j["event"];
    if (event == "done") {
      out.done = true;
      return true;
    }
    if (event == "direct") {
      auto direct = j.find("junit4");
      out.junit4_direct = direct != j.end() && direct->is_boolean() && direct->get<bool>();
      return true;
    }
    if (event != "started" && event != "finished" && event != "exit") return true;  // newer runner events are ignored
    if (!j.contains("index") || !j["index"].is_number_unsigned())
      return util::fail(util::Errc::malformed, "results line without an index");
    size_t index = j["index"].get<size_t>();
    if (index >= expected_tests) return util::fail(util::Errc::malformed, "results index out of range");
    if (event == "exit") {
      out.exit_call = ExitCall{index, str(j, "at"), str(j, "stack")};
      return true;
    }
    if (event == "started") {
      out.started_unfinished = index;
      return true;
    }
    auto outcome = core::parse_outcome(str(j, "outcome"));
    if (!outcome || *outcome == core::Outcome::infra)
      return util::fail(util::Errc::malformed, "unknown outcome '" + str(j, "outcome") + "'");
    core::TestResult r;
    r.test = str(j, "test");
    r.outcome = *outcome;
    r.message = str(j, "message");
    r.exception_type = str(j, "exception");
    r.stack = str(j, "stack");
    if (auto d = j.find("duration_ms"); d != j.end() && d->is_number()) r.duration_ms = d->get<double>();
    if (auto t = j.find("threads_created"); t != j.end() && t->is_number_integer()) r.threads_created = int(std::clamp<std::int64_t>(t->get<std::int64_t>(), 0, 1 << 20));
    r.shuffled = shuffled_sites(j);
    r.threads = schedule_record(j);
    if (core::is_failure(r.outcome)) r.signature = core::failure_signature(r.exception_type, r.stack, r.test);
    out.finished[index] = std::move(r);
    if (out.started_unfinished == index) out.started_unfinished.reset();
    return true;
  });
  if (!ok) return std::unexpected(ok.error());
  return out;
}

util::Result<DiscoverStream> parse_discover_stream(std::string_view text) {
  DiscoverStream out;
  auto ok = for_each_line(text, [&](const json& j) -> util::Result<bool> {
    std::string event = j["event"];
    if (event == "done") out.done = true;
    else if (event == "test") out.discovery.tests.push_back(str(j, "test"));
    else if (event == "missing") out.discovery.missing.emplace_back(str(j, "test"), str(j, "reason"));
    else if (event == "classpath") {
      out.classpath_checked = true;
      out.shadowed = str(j, "shadowed");
    } else if (event == "direct") {
      auto direct = j.find("junit4");
      out.junit4_direct = direct != j.end() && direct->is_boolean() && direct->get<bool>();
    }
    return true;
  });
  if (!ok) return std::unexpected(ok.error());
  return out;
}

void assemble_report(const RunnerStream& stream, const std::vector<std::string>& tests,
                     const std::string& process_end, core::RunReport& report) {
  report.results.clear();
  for (size_t i = 0; i < tests.size(); ++i) {
    if (i < stream.finished.size() && stream.finished[i]) {
      report.results.push_back(*stream.finished[i]);
      continue;
    }
    core::TestResult r;
    r.test = tests[i];
    r.outcome = core::Outcome::infra;
    bool cut = stream.started_unfinished == i;
    if (cut && stream.exit_call && stream.exit_call->index == i) {
      const auto& call = *stream.exit_call;
      r.message = "test did not finish: it called System.exit" + (call.at.empty() ? "" : " at " + call.at) +
                  " and the JVM " + process_end;
      r.stack = call.stack;
    } else {
      r.message = cut ? "test did not finish: the JVM " + process_end + " while it ran"
                      : "test never started: the JVM " + process_end + " before it";
    }
    report.results.push_back(std::move(r));
  }
  if (!stream.done && report.infra_reason.empty()) report.infra_reason = "the JVM " + process_end + " before the runner finished";
}

}  // namespace flakescan::backend
