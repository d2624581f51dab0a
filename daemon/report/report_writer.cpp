#include "report/report_writer.hpp"

#include <fstream>

namespace flakescan::report {

namespace fs = std::filesystem;
using util::Errc;

namespace {

std::string relative_to(const fs::path& file, const fs::path& base) {
  std::error_code ec;
  fs::path abs_file = fs::weakly_canonical(fs::absolute(file, ec), ec);
  fs::path abs_base = fs::weakly_canonical(fs::absolute(base, ec), ec);
  fs::path rel = abs_file.lexically_relative(abs_base);
  if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  return abs_file.generic_string();
}

util::Result<void> write_file(const fs::path& path, const std::string& content) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return util::fail(Errc::io, "cannot write " + tmp.string());
    out << content;
    if (!out.flush()) return util::fail(Errc::io, "cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return util::fail(Errc::io, "cannot rename " + tmp.string() + ": " + ec.message());
  return {};
}

}  // namespace

Report locate_all(const VerdictFile& file, SourceLocator& locator, const fs::path& base_dir, std::string tool_version) {
  Report report;
  report.scan = file.scan;
  report.tool_version = std::move(tool_version);
  for (const auto& e : file.entries) {
    LocatedEntry le{e, locator.locate(e.class_name, e.method), ""};
    if (le.where) le.path = relative_to(le.where->file, base_dir);
    report.entries.push_back(std::move(le));
  }
  return report;
}

std::size_t count_kind(const Report& report, core::VerdictKind kind) {
  std::size_t n = 0;
  for (const auto& le : report.entries) n += le.entry.verdict.verdict == kind;
  return n;
}

util::Result<ReportOutcome> write_reports(const ReportOptions& options) {
  if (options.verdict_files.empty()) return util::fail(Errc::invalid_argument, "no verdict file given");
  std::vector<VerdictFile> files;
  for (const auto& path : options.verdict_files) {
    auto f = load_verdict_file(path);
    if (!f) return std::unexpected(f.error());
    files.push_back(std::move(*f));
  }
  VerdictFile merged = files.size() == 1 ? std::move(files.front()) : merge_verdict_files(files);

  std::error_code ec;
  fs::create_directories(options.out_dir / "junit", ec);
  if (ec) return util::fail(Errc::io, "cannot create " + (options.out_dir / "junit").string() + ": " + ec.message());
  for (const auto& old : fs::directory_iterator(options.out_dir / "junit", ec)) {
    const auto name = old.path().filename().string();
    if (name.starts_with("TEST-") && name.ends_with(".xml")) fs::remove(old.path(), ec);
  }

  SourceLocator locator(options.source_roots);
  ClasspathIndex classpath(options.classpath);
  const PatchOptions patch{options.flaky_annotation, options.flaky_category, &classpath};
  ReportOutcome outcome;
  outcome.report = locate_all(merged, locator, options.base_dir, options.tool_version);
  const Report& r = outcome.report;

  std::vector<std::pair<fs::path, std::string>> outputs = {
      {options.out_dir / "flakescan.sarif", render_sarif(r)},
      {options.out_dir / "summary.md", render_summary(r)},
      {options.out_dir / "index.html", render_html(r)},
      {options.out_dir / "quarantine.txt", render_quarantine_txt(r)},
      {options.out_dir / "quarantine.gradle", render_quarantine_gradle(r)},
      {options.out_dir / "flakytest-suggestions.patch", render_flaky_patch(r, locator, patch)},
      {options.out_dir / "flakescan-repairs.patch", render_repairs_patch(r)},
  };
  // verdicts.json: the merged file, or a copy when the scan wrote it elsewhere.
  const fs::path verdicts_out = options.out_dir / "verdicts.json";
  const bool same_file = options.verdict_files.size() == 1 && fs::equivalent(options.verdict_files.front(), verdicts_out, ec);
  if (!same_file) outputs.emplace_back(verdicts_out, serialize_verdict_file(merged));
  for (auto& [name, xml] : render_junit(r)) outputs.emplace_back(options.out_dir / "junit" / name, std::move(xml));

  for (const auto& [path, content] : outputs) {
    auto w = write_file(path, content);
    if (!w) return std::unexpected(w.error());
    outcome.written.push_back(path);
  }
  return outcome;
}

}  // namespace flakescan::report
