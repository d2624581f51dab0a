#include "tarpit/archive_analysis.hpp"

#include "tarpit/load.hpp"
#include "tarpit/tarpit_report.hpp"

namespace flakescan::tarpit {

util::Result<std::string> analyze_trace_archive(std::string_view tar_bytes, const Options& options) {
  auto traces = load_trace_archive(tar_bytes);
  if (!traces) return std::unexpected(traces.error());
  std::vector<TraceReport> reports;
  for (const auto& t : *traces) reports.push_back(TraceReport{&t, analyze(t, options)});
  return report_json(reports, options);
}

util::Result<Options> options_for_mode_name(std::string_view mode) {
  if (mode.empty() || mode == "standard") return Options::standard();
  if (mode == "vet-compatible" || mode == "vet") return Options::vet_compatible();
  return util::fail(util::Errc::invalid_argument, "mode must be standard or vet-compatible");
}

}  // namespace flakescan::tarpit
