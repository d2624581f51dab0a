// `flakescan report`: turns verdicts.json into every report file (report/report_writer.hpp)
// and, with --github-annotations, prints the workflow-command annotations on stdout.
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli_commands.hpp"
#include "report/report_writer.hpp"
#include "util/error.hpp"

#ifndef FLAKESCAN_VERSION
#define FLAKESCAN_VERSION "0.0.0"
#endif

namespace flakescan::app {

namespace {

struct ReportCommandOptions {
  std::vector<std::string> verdicts, source_roots, classpath;
  std::string out_dir, base_dir, flaky_annotation, flaky_category;
  bool annotations = false;
};

int run_report(const ReportCommandOptions& o, const CommonOptions& common) {
  report::ReportOptions options;
  options.tool_version = FLAKESCAN_VERSION;
  options.verdict_files = o.verdicts;
  options.out_dir = o.out_dir;
  for (const auto& root : o.source_roots) options.source_roots.emplace_back(root);
  options.classpath = o.classpath;
  options.flaky_annotation = o.flaky_annotation;
  options.flaky_category = o.flaky_category;
  if (!o.base_dir.empty()) {
    options.base_dir = o.base_dir;
  } else {
    const char* ws = std::getenv("GITHUB_WORKSPACE");
    options.base_dir = ws && *ws ? std::filesystem::path(ws) : std::filesystem::current_path();
  }

  auto outcome = report::write_reports(options);
  if (!outcome) {
    std::fprintf(stderr, "flakescan report: %s\n", util::describe(outcome.error()).c_str());
    return 1;
  }
  if (o.annotations) {
    const auto text = report::render_annotations(outcome->report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  const auto& r = outcome->report;
  const std::size_t flaky = report::count_kind(r, core::VerdictKind::flaky);
  const std::size_t not_flaky = report::count_kind(r, core::VerdictKind::not_flaky);
  const std::size_t not_run = report::count_kind(r, core::VerdictKind::could_not_run);
  const std::size_t failing = report::count_kind(r, core::VerdictKind::failing);
  const std::size_t skipped = report::count_kind(r, core::VerdictKind::skipped);
  if (common.json) {
    nlohmann::json written = nlohmann::json::array();
    for (const auto& f : outcome->written) written.push_back(f.string());
    nlohmann::json out{{"flaky", flaky}, {"not_flaky", not_flaky}, {"could_not_run", not_run}, {"failing", failing}, {"skipped", skipped},
                       {"out_dir", options.out_dir.string()}, {"written", written}};
    std::printf("%s\n", out.dump(2).c_str());
  }
  // CI scripts and the Gradle plugin read this line's first three counts
  // (ci-templates/action/scripts/publish.sh, the plugin's ReportCommand): new counts go after them.
  if (!common.quiet) {
    std::fprintf(stderr, "flakescan report: %zu flaky, %zu not flaky, %zu could not run, %zu failing, %zu skipped; reports in %s\n",
                 flaky, not_flaky, not_run, failing, skipped, options.out_dir.string().c_str());
  }
  return 0;
}

// A Java type name as the patch writes it: dot-separated identifiers.
bool qualified_name(const std::string& v) {
  static const std::regex re(R"([A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*)");
  return std::regex_match(v, re);
}

}  // namespace

CommandDef report_command() {
  return {
      .name = "report",
      .summary = "turn verdicts.json into an HTML report, SARIF, JUnit XML, annotations, quarantine lists, a patch",
      .reach = Reach::local,
      .json_help = "print the counts and the files written as JSON on stdout (not with --github-annotations)",
      .quiet_help = "no summary line on stderr (CI scripts that read the counts want it)",
      .define =
          [](CLI::App& cmd) {
            auto o = std::make_shared<ReportCommandOptions>();
            cmd.description("Writes verdicts.json, index.html (open it in a browser), flakescan.sarif, summary.md,\n"
                            "junit/TEST-*.xml, quarantine.txt, quarantine.gradle, flakytest-suggestions.patch and\n"
                            "flakescan-repairs.patch (the verified fixes of technique repair) into DIR.\n"
                            "Runs here, without a daemon.\n"
                            "  flakescan report --verdicts FILE [--verdicts FILE ...] --out-dir DIR [options]");
            cmd.add_option("--verdicts", o->verdicts, "a verdict file of `flakescan scan`; several are merged (required)")
                ->type_name("FILE")
                ->allow_extra_args(false)
                ->required();
            cmd.add_option("--out-dir", o->out_dir, "where the reports go (created; required)")->type_name("DIR")->required();
            cmd.add_option("--source-root", o->source_roots,
                           "where test sources live (repeatable), to find each test's file and line")
                ->type_name("DIR")
                ->allow_extra_args(false);
            cmd.add_option("--base-dir", o->base_dir,
                           "paths in SARIF, annotations and the patch are relative to it "
                           "(default: $GITHUB_WORKSPACE when set, else the current directory)")
                ->type_name("DIR");
            cmd.add_option("--classpath", o->classpath,
                           "the tests' classpath (':'-separated, repeatable): the patch uses only annotations it has "
                           "(AndroidX @FlakyTest when present, else JUnit 5 @Tag(\"flaky\") or JUnit 4 @Category)")
                ->type_name("CP")
                ->allow_extra_args(false);
            cmd.add_option("--flaky-annotation", o->flaky_annotation,
                           "mark flaky tests in the patch with this annotation instead (e.g. com.acme.Flaky)")
                ->type_name("CLASS");
            cmd.add_option("--flaky-category", o->flaky_category,
                           "the JUnit 4 category marker of the patch (default: FlakyTests in each test's package)")
                ->type_name("CLASS");
            cmd.add_flag("--github-annotations", o->annotations, "print GitHub workflow-command annotations on stdout");
            cmd.footer("Exit status: 0 written, 1 when a verdict file could not be read or a report not written, "
                       "2 on usage errors.");
            return Command{.check = [o](const CommonOptions& common) -> std::string {
                             if (common.json && o->annotations) return "--json and --github-annotations both print on stdout: choose one";
                             for (const auto* name : {&o->flaky_annotation, &o->flaky_category})
                               if (!name->empty() && !qualified_name(*name))
                                 return "expected a class name such as com.acme.Flaky, got '" + *name + "'";
                             return {};
                           },
                           .run = [o](const CommonOptions& common) { return run_report(*o, common); }};
          },
  };
}

}  // namespace flakescan::app
