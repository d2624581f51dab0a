// `flakescan report`: turns verdicts.json into every report file (report/report_writer.hpp)
// and, with --github-annotations, prints the workflow-command annotations on stdout.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/cli_commands.hpp"
#include "report/report_writer.hpp"
#include "util/error.hpp"

#ifndef FLAKESCAN_VERSION
#define FLAKESCAN_VERSION "0.0.0"
#endif

namespace flakescan::app {

namespace {

constexpr const char* report_usage =
    "usage: flakescan report --verdicts FILE [--verdicts FILE ...] --out-dir DIR\n"
    "                        [--source-root DIR ...] [--base-dir DIR] [--github-annotations]\n"
    "\n"
    "Writes verdicts.json, flakescan.sarif, summary.md, junit/TEST-*.xml, quarantine.txt,\n"
    "quarantine.gradle and flakytest-suggestions.patch into DIR.\n"
    "  --verdicts FILE        a verdict file of `flakescan scan`; several are merged\n"
    "  --out-dir DIR          where the reports go (created)\n"
    "  --source-root DIR      where test sources live (repeatable), to find each test's file and line\n"
    "  --base-dir DIR         paths in SARIF, annotations and the patch are relative to it\n"
    "                         (default: $GITHUB_WORKSPACE when set, else the current directory)\n"
    "  --github-annotations   print GitHub workflow-command annotations on stdout\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "flakescan report: %s\n\n%s", message.c_str(), report_usage);
  return 2;
}

}  // namespace

int cli_report(const Args& args) {
  report::ReportOptions options;
  options.tool_version = FLAKESCAN_VERSION;
  bool annotations = false;
  bool have_base = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size() || args[i + 1].empty()) return false;
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      std::fputs(report_usage, stdout);
      return 0;
    } else if (a == "--verdicts") {
      if (!value(v)) return usage_error("--verdicts needs a file");
      options.verdict_files.push_back(v);
    } else if (a == "--out-dir") {
      if (!value(v)) return usage_error("--out-dir needs a directory");
      options.out_dir = v;
    } else if (a == "--source-root") {
      if (!value(v)) return usage_error("--source-root needs a directory");
      options.source_roots.emplace_back(v);
    } else if (a == "--base-dir") {
      if (!value(v)) return usage_error("--base-dir needs a directory");
      options.base_dir = v;
      have_base = true;
    } else if (a == "--github-annotations") {
      annotations = true;
    } else {
      return usage_error("unknown option '" + a + "'");
    }
  }
  if (options.verdict_files.empty()) return usage_error("--verdicts is required");
  if (options.out_dir.empty()) return usage_error("--out-dir is required");
  if (!have_base) {
    const char* ws = std::getenv("GITHUB_WORKSPACE");
    options.base_dir = ws && *ws ? std::filesystem::path(ws) : std::filesystem::current_path();
  }

  auto outcome = report::write_reports(options);
  if (!outcome) {
    std::fprintf(stderr, "flakescan report: %s\n", util::describe(outcome.error()).c_str());
    return 1;
  }
  if (annotations) {
    const auto text = report::render_annotations(outcome->report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  const auto& r = outcome->report;
  std::fprintf(stderr, "flakescan report: %zu flaky, %zu not flaky, %zu could not run; reports in %s\n",
               report::count_kind(r, core::VerdictKind::flaky), report::count_kind(r, core::VerdictKind::not_flaky),
               report::count_kind(r, core::VerdictKind::could_not_run), options.out_dir.string().c_str());
  return 0;
}

}  // namespace flakescan::app
