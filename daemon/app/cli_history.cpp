// `flakescan import-results`, `flakescan suspects` and `flakescan quarantine`: the CI history
// resources of the daemon (POST /v1/results, GET /v1/suspects, GET /v1/quarantine) from the
// command line, through the same daemon connection `flakescan scan` uses.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "app/cli_options.hpp"
#include "app/daemon_connection.hpp"

namespace flakescan::app {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* import_usage =
    "usage: flakescan import-results FILE|DIR... --source S [--commit C] [--branch B] [--daemon URL] [--json]\n\n"
    "Imports JUnit XML test reports of one CI run (Surefire/Gradle TEST-*.xml; a DIR stands for the\n"
    "*.xml files in it) into the daemon's history, as one import named by --source (the CI run id).\n"
    "Importing a source again replaces its earlier import.\n"
    "  --source S     the CI run id (required), e.g. \"$GITHUB_RUN_ID/$GITHUB_RUN_ATTEMPT\"\n"
    "  --commit C     the commit the run tested; --branch B its branch\n"
    "  --json         print the daemon's answer as JSON\n"
    "Exit status: 0 imported, 1 could not import, 2 usage error.\n";

const char* suspects_usage =
    "usage: flakescan suspects [--window N] [--json] [--daemon URL]\n\n"
    "Lists the tests that look flaky from the imported CI history: failed and passed on one commit,\n"
    "passed only after a rerun, or both outcomes within the last N imports (default 20).\n"
    "Exit status: 0 listed, 1 could not ask, 2 usage error.\n";

const char* quarantine_usage =
    "usage: flakescan quarantine [--format json|notTestFile|gradle] [--out FILE] [--daemon URL]\n\n"
    "Prints the tests whose latest verdict across the daemon's scans is flaky:\n"
    "  json (default), notTestFile (AndroidJUnitRunner -e notTestFile lines, pkg.Class#method),\n"
    "  gradle (a script of Gradle test filter excludes: apply from: 'quarantine.gradle').\n"
    "Exit status: 0 written, 1 could not ask, 2 usage error.\n";

int usage_error(const char* command, const char* usage, const std::string& message) {
  std::fprintf(stderr, "flakescan %s: %s\n\n%s", command, message.c_str(), usage);
  return 2;
}

// "a b/c" -> "a%20b%2Fc": query parameter values.
std::string percent_encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += char(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// The document without its XML declaration, DOCTYPE and byte order mark, so that several
// reports can go under one <testsuites>.
std::string strip_prolog(std::string xml) {
  if (xml.starts_with("\xEF\xBB\xBF")) xml.erase(0, 3);
  for (const char* start : {"<?xml", "<!DOCTYPE"}) {
    auto at = xml.find_first_not_of(" \t\r\n");
    if (at != std::string::npos && xml.compare(at, std::strlen(start), start) == 0) {
      auto end = xml.find('>', at);
      xml.erase(0, end == std::string::npos ? xml.size() : end + 1);
    }
  }
  return xml;
}

util::Result<std::vector<fs::path>> report_files(const std::vector<std::string>& args) {
  std::vector<fs::path> out;
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<fs::path> in_dir;
      for (const auto& e : fs::directory_iterator(a, ec))
        if (e.is_regular_file() && e.path().extension() == ".xml") in_dir.push_back(e.path());
      if (in_dir.empty()) return util::fail(util::Errc::not_found, a + " holds no .xml report");
      std::sort(in_dir.begin(), in_dir.end());
      out.insert(out.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(a, ec)) {
      out.emplace_back(a);
    } else {
      return util::fail(util::Errc::not_found, "no such file or directory: " + a);
    }
  }
  return out;
}

std::unique_ptr<DaemonConnection> connect(const char* command, const ParsedOptions& o) {
  auto conn = DaemonConnection::open(o.get("daemon"), o.has("keep-daemon"), true);
  if (!conn) {
    std::fprintf(stderr, "flakescan %s: could not run: %s\n", command, conn.error().message.c_str());
    return nullptr;
  }
  return std::move(*conn);
}

}  // namespace

int cli_import_results(const Args& args) {
  auto parsed = parse_options(args, {"source", "commit", "branch", "daemon"}, {"help", "json", "keep-daemon"});
  if (!parsed) return usage_error("import-results", import_usage, parsed.error().message);
  const auto& o = *parsed;
  if (o.has("help")) {
    std::fputs(import_usage, stdout);
    return 0;
  }
  if (o.positional.empty()) return usage_error("import-results", import_usage, "name at least one report FILE or DIR");
  if (o.get("source").empty()) return usage_error("import-results", import_usage, "--source is required");
  auto files = report_files(o.positional);
  if (!files) return usage_error("import-results", import_usage, files.error().message);

  // One file goes as it is; several become one document, so they are one import.
  std::string body;
  for (const auto& f : *files) {
    std::ifstream in(f, std::ios::binary);
    std::string text{std::istreambuf_iterator<char>(in), {}};
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "flakescan import-results: cannot read %s\n", f.c_str());
      return 1;
    }
    body += files->size() == 1 ? text : strip_prolog(std::move(text)) + "\n";
  }
  if (files->size() > 1) body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + body + "</testsuites>\n";

  std::string target = "/v1/results?source=" + percent_encode(o.get("source"));
  if (o.has("commit")) target += "&commit=" + percent_encode(o.get("commit"));
  if (o.has("branch")) target += "&branch=" + percent_encode(o.get("branch"));
  auto conn = connect("import-results", o);
  if (!conn) return 1;
  auto r = conn->client().request("POST", target, body, std::chrono::seconds(300), "application/xml");
  if (!r) {
    std::fprintf(stderr, "flakescan import-results: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  if (r->status != 201) {
    std::fprintf(stderr, "flakescan import-results: the daemon refused (HTTP %d): %s\n", r->status,
                 problem_detail(*r).c_str());
    return 1;
  }
  json result = json::parse(r->body, nullptr, false);
  if (o.has("json") || !result.is_object()) {
    std::printf("%s\n", result.is_object() ? result.dump(2).c_str() : r->body.c_str());
    return 0;
  }
  std::printf("imported %d tests from %zu file%s as import %lld (source %s): %d failed, %d flaky by rerun, %d skipped\n",
              result.value("imported", 0), files->size(), files->size() == 1 ? "" : "s",
              (long long)result.value("id", std::int64_t(0)), o.get("source").c_str(), result.value("failed", 0),
              result.value("flaky_by_rerun", 0), result.value("skipped", 0));
  if (result.contains("replaced") && result["replaced"].is_number_integer())
    std::printf("replaced the earlier import %lld of this source\n", (long long)result["replaced"].get<std::int64_t>());
  if (result.value("ignored", 0) > 0)
    std::printf("%d testcases without a class or name were left out\n", result.value("ignored", 0));
  return 0;
}

int cli_suspects(const Args& args) {
  auto parsed = parse_options(args, {"window", "daemon"}, {"help", "json", "keep-daemon"});
  if (!parsed) return usage_error("suspects", suspects_usage, parsed.error().message);
  const auto& o = *parsed;
  if (o.has("help")) {
    std::fputs(suspects_usage, stdout);
    return 0;
  }
  if (!o.positional.empty()) return usage_error("suspects", suspects_usage, "unexpected argument " + o.positional[0]);
  std::string target = "/v1/suspects";
  if (o.has("window")) target += "?window=" + percent_encode(o.get("window"));
  auto conn = connect("suspects", o);
  if (!conn) return 1;
  auto r = conn->client().request("GET", target);
  if (!r) {
    std::fprintf(stderr, "flakescan suspects: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  if (r->status != 200) {
    std::fprintf(stderr, "flakescan suspects: the daemon refused (HTTP %d): %s\n", r->status, problem_detail(*r).c_str());
    return r->status == 400 ? 2 : 1;
  }
  json body = json::parse(r->body, nullptr, false);
  if (o.has("json") || !body.is_object()) {
    std::printf("%s\n", body.is_object() ? body.dump(2).c_str() : r->body.c_str());
    return 0;
  }
  for (const auto& s : body["suspects"]) {
    std::string reasons;
    for (const auto& why : s["reasons"]) reasons += (reasons.empty() ? "" : ", ") + why.get<std::string>();
    std::printf("%s  (%s; passed %d, failed %d, flaky by rerun %d)\n", s["test"].get<std::string>().c_str(),
                reasons.c_str(), s["counts"]["passed"].get<int>(), s["counts"]["failed"].get<int>(),
                s["counts"]["flaky_by_rerun"].get<int>());
  }
  std::printf("%zu suspects from the CI history (last %d imports for mixed outcomes)\n", body["suspects"].size(),
              body.value("imports", 0));
  return 0;
}

int cli_quarantine(const Args& args) {
  auto parsed = parse_options(args, {"format", "out", "daemon"}, {"help", "keep-daemon"});
  if (!parsed) return usage_error("quarantine", quarantine_usage, parsed.error().message);
  const auto& o = *parsed;
  if (o.has("help")) {
    std::fputs(quarantine_usage, stdout);
    return 0;
  }
  if (!o.positional.empty()) return usage_error("quarantine", quarantine_usage, "unexpected argument " + o.positional[0]);
  std::string format = o.get("format", "json");
  if (format != "json" && format != "notTestFile" && format != "gradle")
    return usage_error("quarantine", quarantine_usage, "--format takes json, notTestFile or gradle");
  auto conn = connect("quarantine", o);
  if (!conn) return 1;
  auto r = conn->client().request("GET", "/v1/quarantine?format=" + format);
  if (!r) {
    std::fprintf(stderr, "flakescan quarantine: could not run: %s\n", r.error().message.c_str());
    return 1;
  }
  if (r->status != 200) {
    std::fprintf(stderr, "flakescan quarantine: the daemon refused (HTTP %d): %s\n", r->status, problem_detail(*r).c_str());
    return 1;
  }
  std::string text = r->body;
  if (format == "json") {
    json body = json::parse(text, nullptr, false);
    if (body.is_object()) text = body.dump(2) + "\n";
  }
  if (o.has("out")) {
    std::ofstream out(o.get("out"), std::ios::binary);
    out << text;
    if (!out) {
      std::fprintf(stderr, "flakescan quarantine: cannot write %s\n", o.get("out").c_str());
      return 1;
    }
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace flakescan::app
