// Tarpit analysis benchmark: generated one-hour traces of about 3,000, 12,000 and 50,000
// screens (deterministic seed), each with one 12-minute local tarpit; times the whole analysis
// (abstraction, merge, partition, local search with its iteration, ranking, guidance) in both
// modes, the best of three runs. Also times VET's O(n^2) local-search loops (in C++) on the
// smaller traces and the TOLLER JSON import of the smallest, for scale.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/tarpit/generator.hpp"
#include "tarpit/analysis.hpp"
#include "tarpit/load.hpp"
#include "tarpit/local_search.hpp"

using namespace flakescan::tarpit;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

testing::GeneratorConfig bench_config(std::size_t screens) {
  auto c = testing::one_hour_config(screens, 20261122);
  c.templates_per_activity = std::max<int>(20, int(screens / 150));
  const std::int64_t minute = 60'000;
  c.phases = {{testing::Phase::explore, 24 * minute}, {testing::Phase::local, 12 * minute, 3},
              {testing::Phase::explore, 24 * minute - c.mean_interval_ms}};
  return c;
}

struct Timing {
  double best = 1e9;
  TraceAnalysis last;
};

Timing time_analysis(const Trace& trace, const Options& options, int runs) {
  Timing t;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    t.last = analyze(trace, options);
    t.best = std::min(t.best, seconds_since(start));
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes{3000, 12000, 50000};
  if (argc > 1) {
    sizes.clear();
    for (int i = 1; i < argc; ++i) sizes.push_back(std::size_t(std::strtoull(argv[i], nullptr, 10)));
  }
  std::printf("%-8s %-7s %-7s %-7s %-12s %-12s %-10s %-10s\n", "screens", "unique", "groups", "regions",
              "standard_s", "vet_compat_s", "vet_loop_s", "speedup");
  double prev_vet = 0, prev_std = 0;
  std::size_t prev_n = 0;
  double last_std = 0, last_vet = 0;
  std::size_t last_n = 0;
  for (auto n : sizes) {
    auto g = testing::generate_trace(bench_config(n), "bench-" + std::to_string(n));
    const auto& trace = g.trace;
    auto standard = time_analysis(trace, Options::standard(), 3);
    auto vet = time_analysis(trace, Options::vet_compatible(), 3);
    // VET's own search: the O(n^2) loops on the same groups (one sub-trace, the first pass).
    double loops = -1;
    if (trace.screens.size() <= 12'500) {
      std::vector<std::uint32_t> groups;
      for (const auto& e : vet.last.entries) groups.push_back(vet.last.group_of_unique[e.unique]);
      auto start = Clock::now();
      auto r = brute_min_distinct_per_action(groups, vet.last.groups);
      loops = seconds_since(start);
      if (!r) loops = -1;
    }
    char loop_text[32] = "-", speed_text[32] = "-";
    if (loops >= 0) {
      std::snprintf(loop_text, sizeof loop_text, "%.3f", loops);
      std::snprintf(speed_text, sizeof speed_text, "%.0fx", loops / vet.best);
    }
    std::printf("%-8zu %-7zu %-7zu %-7zu %-12.4f %-12.4f %-10s %-10s\n", trace.screens.size(),
                vet.last.unique_screens, vet.last.groups, vet.last.regions.size(), standard.best, vet.best, loop_text,
                speed_text);
    if (prev_n)
      std::printf("  growth from %zu: screens x%.2f, standard x%.2f, vet-compatible x%.2f\n", prev_n,
                  double(trace.screens.size()) / double(prev_n), standard.best / prev_std, vet.best / prev_vet);
    prev_n = trace.screens.size();
    prev_std = standard.best;
    prev_vet = vet.best;
    last_n = trace.screens.size();
    last_std = standard.best;
    last_vet = vet.best;
    if (n == sizes.front()) {
      // Import of the same trace from TOLLER JSON files (in memory, so no disk in the figure).
      auto files = testing::toller_files(trace);
      MemoryTraceFiles mem;
      for (const auto& [name, data] : files) mem.add(name, data);
      auto start = Clock::now();
      auto imported = import_toller(mem, "import");
      double import_s = seconds_since(start);
      std::size_t bytes = 0;
      for (const auto& f : files) bytes += f.second.size();
      std::printf("  import of the %zu-screen trace from TOLLER JSON (%.1f MB): %.3f s%s\n", trace.screens.size(),
                  double(bytes) / 1e6, import_s, imported ? "" : " (failed)");
    }
  }
  std::printf("RESULT tarpit screens=%zu seconds=%.4f standard_seconds=%.4f vet_compatible_seconds=%.4f\n", last_n,
              std::max(last_std, last_vet), last_std, last_vet);
  return 0;
}
