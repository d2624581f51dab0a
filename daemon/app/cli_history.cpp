// `flakescan import-results`, `flakescan suspects` and `flakescan quarantine`: the CI history
// resources of the daemon (POST /v1/results, GET /v1/suspects, GET /v1/quarantine) from the
// command line, through the same daemon connection `flakescan scan` uses.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"

namespace flakescan::app {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

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

struct ImportOptions {
  std::vector<std::string> reports;
  std::string source, commit, branch;
  std::vector<fs::path> files;  // after check()
};

int run_import(const ImportOptions& o, const CommonOptions& common) {
  const auto& files = o.files;
  // One file goes as it is; several become one document, so they are one import.
  std::string body;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string text{std::istreambuf_iterator<char>(in), {}};
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "flakescan import-results: cannot read %s\n", f.c_str());
      return 1;
    }
    body += files.size() == 1 ? text : strip_prolog(std::move(text)) + "\n";
  }
  if (files.size() > 1) body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + body + "</testsuites>\n";

  std::string target = "/v1/results?source=" + percent_encode(o.source);
  if (!o.commit.empty()) target += "&commit=" + percent_encode(o.commit);
  if (!o.branch.empty()) target += "&branch=" + percent_encode(o.branch);
  auto conn = open_daemon("import-results", common);
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
  if (common.json || !result.is_object()) {
    std::printf("%s\n", result.is_object() ? result.dump(2).c_str() : r->body.c_str());
    return 0;
  }
  std::printf("imported %d tests from %zu file%s as import %lld (source %s): %d failed, %d flaky by rerun, %d skipped\n",
              result.value("imported", 0), files.size(), files.size() == 1 ? "" : "s",
              (long long)result.value("id", std::int64_t(0)), o.source.c_str(), result.value("failed", 0),
              result.value("flaky_by_rerun", 0), result.value("skipped", 0));
  if (result.contains("replaced") && result["replaced"].is_number_integer())
    std::printf("replaced the earlier import %lld of this source\n", (long long)result["replaced"].get<std::int64_t>());
  if (result.value("ignored", 0) > 0)
    std::printf("%d testcases without a class or name were left out\n", result.value("ignored", 0));
  return 0;
}

int run_suspects(const std::optional<int>& window, const CommonOptions& common) {
  std::string target = "/v1/suspects";
  if (window) target += "?window=" + std::to_string(*window);
  auto conn = open_daemon("suspects", common);
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
  if (common.json || !body.is_object()) {
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

struct QuarantineOptions {
  std::string format = "json", out;
};

int run_quarantine(const QuarantineOptions& o, const CommonOptions& common) {
  const std::string& format = o.format;
  auto conn = open_daemon("quarantine", common);
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
  if (!o.out.empty()) {
    std::ofstream out(o.out, std::ios::binary);
    out << text;
    if (!out) {
      std::fprintf(stderr, "flakescan quarantine: cannot write %s\n", o.out.c_str());
      return 1;
    }
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace

CommandDef import_results_command() {
  return {
      .name = "import-results",
      .summary = "import JUnit XML reports of a CI run into the daemon's history",
      .reach = Reach::daemon,
      .json_help = "print the daemon's answer as JSON instead of the text",
      .quiet_help = "no status lines on stderr (a daemon started here)",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<ImportOptions>();
            cmd.description("Imports JUnit XML test reports of one CI run (Surefire/Gradle TEST-*.xml; a DIR stands for the\n"
                            "*.xml files in it) into the daemon's history, as one import named by --source (the CI run id).\n"
                            "Importing a source again replaces its earlier import.\n"
                            "  flakescan import-results FILE|DIR... --source S [--commit C] [--branch B]");
            cmd.add_option("FILE|DIR", o->reports, "JUnit XML reports, or folders of them")->type_name("");
            cmd.add_option("--source", o->source, "the CI run id (required), e.g. \"$GITHUB_RUN_ID/$GITHUB_RUN_ATTEMPT\"")
                ->type_name("S")
                ->required();
            cmd.add_option("--commit", o->commit, "the commit the run tested")->type_name("C");
            cmd.add_option("--branch", o->branch, "its branch")->type_name("B");
            cmd.footer("Exit status: 0 imported, 1 could not import, 2 usage error.");
            return Command{.check = [o](const CommonOptions&) -> std::string {
                             if (o->reports.empty()) return "name at least one report FILE or DIR";
                             if (o->source.empty()) return "--source is required";
                             auto files = report_files(o->reports);
                             if (!files) return files.error().message;
                             o->files = std::move(*files);
                             return {};
                           },
                           .run = [o](const CommonOptions& common) { return run_import(*o, common); }};
          },
  };
}

CommandDef suspects_command() {
  return {
      .name = "suspects",
      .summary = "list the tests that look flaky from the imported CI history",
      .reach = Reach::daemon,
      .json_help = "print the daemon's answer (GET /v1/suspects) as JSON instead of the list",
      .quiet_help = "no status lines on stderr (a daemon started here)",
      .define =
          [](CLI::App& cmd) {
            auto window = std::make_shared<std::optional<int>>();
            cmd.description("Lists the tests that look flaky from the imported CI history: failed and passed on one commit,\n"
                            "passed only after a rerun, or both outcomes within the last N imports (default 20).");
            cmd.add_option("--window", *window, "how many recent imports count for mixed outcomes (default 20)")
                ->type_name("N");
            cmd.footer("Exit status: 0 listed, 1 could not ask, 2 usage error.");
            return Command{.run = [window](const CommonOptions& common) { return run_suspects(*window, common); }};
          },
  };
}

CommandDef quarantine_command() {
  return {
      .name = "quarantine",
      .summary = "print the quarantine list (json, notTestFile lines or Gradle excludes)",
      .reach = Reach::daemon,
      .json_help = "the same as --format json (the default)",
      .quiet_help = "no status lines on stderr (a daemon started here)",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<QuarantineOptions>();
            cmd.description("Prints the tests whose latest verdict across the daemon's scans is flaky:\n"
                            "  json (default), notTestFile (AndroidJUnitRunner -e notTestFile lines, pkg.Class#method),\n"
                            "  gradle (a script of Gradle test filter excludes: apply from: 'quarantine.gradle').");
            cmd.add_option("--format", o->format, "json, notTestFile or gradle (default json)")
                ->type_name("F")
                ->check(CLI::IsMember({"json", "notTestFile", "gradle"}));
            cmd.add_option("--out", o->out, "write the list to FILE instead of stdout")->type_name("FILE");
            cmd.footer("Exit status: 0 written, 1 could not ask, 2 usage error.");
            return Command{.check = [o](const CommonOptions& common) -> std::string {
                             if (common.json && o->format != "json") return "--json and --format " + o->format + " contradict";
                             return {};
                           },
                           .run = [o](const CommonOptions& common) { return run_quarantine(*o, common); }};
          },
  };
}

}  // namespace flakescan::app
