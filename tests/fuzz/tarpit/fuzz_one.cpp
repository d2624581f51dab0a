#include "fuzz_one.hpp"

#include <string>
#include <string_view>

#include "tarpit/archive_analysis.hpp"
#include "tarpit/load.hpp"

namespace flakescan::tarpit::fuzz {

namespace {

// Small limits: the fuzzer looks for bugs, not for the cost of big inputs.
ImportLimits limits() { return ImportLimits{.max_screens = 2000, .max_file_bytes = 1 << 20, .max_elements_per_screen = 5000}; }

bool well_formed(const Trace& t) {
  auto in_pool = [&](std::uint32_t i) { return i < t.pool.size(); };
  for (std::size_t s = 0; s < t.screens.size(); ++s) {
    const Screen& screen = t.screens[s];
    if (s > 0 && screen.time_ms < t.screens[s - 1].time_ms) return false;
    if (!in_pool(screen.activity)) return false;
    const auto n = screen.elements.size();
    if (screen.source < -1 || (screen.source >= 0 && std::size_t(screen.source) >= n)) return false;
    for (std::size_t k = 0; k < n; ++k) {
      const Element& e = screen.elements[k];
      if (e.end <= k || e.end > n) return false;
      if (!in_pool(e.id) || !in_pool(e.cls) || !in_pool(e.text) || !in_pool(e.desc)) return false;
      // Pre-order: the element after this one is its first child exactly when the subtree is not only itself.
      if (k + 1 < e.end && screen.elements[k + 1].depth <= e.depth) return false;
      if (e.end < n && screen.elements[e.end].depth > e.depth) return false;
    }
  }
  return true;
}

}  // namespace

bool fuzz_one(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return true;
  const std::uint8_t pick = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((pick & 1) == 0) {
    auto options = options_for_mode_name((pick & 2) ? "vet-compatible" : "standard");
    if (!options) return false;
    auto traces = load_trace_archive(rest, limits());
    if (traces) {
      for (const auto& t : *traces)
        if (!well_formed(t)) return false;
    } else if (traces.error().code != util::Errc::invalid_argument && traces.error().code != util::Errc::too_large) {
      return false;
    }
    auto report = analyze_trace_archive(rest, *options);
    if (!report && report.error().code != util::Errc::invalid_argument && report.error().code != util::Errc::too_large)
      return false;
    return true;
  }
  MemoryTraceFiles files;
  std::string_view folder = rest;
  while (!folder.empty()) {
    auto sep = folder.find(std::string_view("\0\0\n", 3));
    std::string_view file = folder.substr(0, sep);
    folder = sep == std::string_view::npos ? std::string_view{} : folder.substr(sep + 3);
    auto nl = file.find('\n');
    if (nl == std::string_view::npos || nl == 0) continue;
    files.add(std::string(file.substr(0, nl)), file.substr(nl + 1));
  }
  (void)detect_format(files);
  auto trace = import_trace(files, "fuzz", limits());
  if (trace) return well_formed(*trace);
  auto code = trace.error().code;
  return code == util::Errc::not_found || code == util::Errc::invalid_argument || code == util::Errc::too_large;
}

}  // namespace flakescan::tarpit::fuzz
