// The store's capacity, without JVMs: W writers (each its own Store, its own connection, as
// each daemon has) commit R runs of K results each as fast as they can, all at once, on one
// store location. Prints one JSON object: runs, seconds, runs_per_s, commit_ms_p50/p99/max,
// lost (runs committed but not read back), duplicated (run ids given twice).
//   bench_store_writers LOCATION WRITERS RUNS RESULTS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/store.hpp"

using namespace flakescan;

namespace {

core::RunReport report_of(int run, int results) {
  core::RunReport report;
  report.wall_ms = 210;
  for (int i = 0; i < results; ++i) {
    bool fail = (run + i) % 17 == 0;
    report.results.push_back({.test = "bench.C" + std::to_string(i % 20) + "#t" + std::to_string(i),
                              .outcome = fail ? core::Outcome::fail : core::Outcome::pass,
                              .message = fail ? "expected:<1> but was:<2>" : "",
                              .exception_type = fail ? "java.lang.AssertionError" : "",
                              .stack = fail ? std::string(600, 's') : "",
                              .duration_ms = 3.5});
  }
  return report;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: bench_store_writers LOCATION WRITERS RUNS RESULTS\n");
    return 2;
  }
  std::string location = argv[1];
  int writers = std::stoi(argv[2]), runs = std::stoi(argv[3]), results = std::stoi(argv[4]);
  std::vector<std::unique_ptr<store::Store>> stores;
  std::string tag = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  for (int w = 0; w < writers; ++w) {
    auto s = store::Store::open(location);
    if (!s) {
      std::fprintf(stderr, "bench_store_writers: %s\n", util::describe(s.error()).c_str());
      return 1;
    }
    auto id = "w" + std::to_string(w) + "-" + tag;
    if (!(*s)->create_scan({.id = id, .state = "running", .request = "{}", .backend = "local", .techniques = {"rerun"},
                            .daemon = "writer-" + std::to_string(w)}))
      return 1;
    stores.push_back(std::move(*s));
  }
  std::vector<std::vector<double>> commit_ms(writers);
  std::vector<std::vector<std::int64_t>> ids(writers);
  std::vector<int> errors(writers, 0);
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w)
    threads.emplace_back([&, w] {
      auto scan = "w" + std::to_string(w) + "-" + tag;
      for (int r = 0; r < runs; ++r) {
        core::RunSpec spec{.tests = {}, .technique = "rerun", .purpose = "bench", .seed = std::uint64_t(r)};
        auto report = report_of(r, results);
        for (const auto& res : report.results) spec.tests.push_back(res.test);
        auto t0 = std::chrono::steady_clock::now();
        auto id = stores[w]->record_run(scan, spec, report);
        commit_ms[w].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (id) ids[w].push_back(*id);
        else ++errors[w];
      }
    });
  for (auto& t : threads) t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<double> all;
  std::set<std::int64_t> distinct;
  std::size_t committed = 0;
  for (int w = 0; w < writers; ++w) {
    all.insert(all.end(), commit_ms[w].begin(), commit_ms[w].end());
    distinct.insert(ids[w].begin(), ids[w].end());
    committed += ids[w].size();
  }
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all.empty() ? 0.0 : all[std::min(all.size() - 1, std::size_t(p * all.size()))]; };
  // Read back through another connection: every committed run, once, with all its results.
  auto reader = store::Store::open(location);
  std::size_t read_back = 0, whole = 0;
  for (int w = 0; reader && w < writers; ++w) {
    auto back = (*reader)->runs_of_scan("w" + std::to_string(w) + "-" + tag);
    if (!back) continue;
    read_back += back->size();
    for (const auto& run : *back) whole += run.report.results.size() == std::size_t(results);
  }
  int failed = 0;
  for (int e : errors) failed += e;
  nlohmann::json out{{"store", stores[0]->describe()}, {"writers", writers}, {"runs", committed},
                     {"results_per_run", results}, {"errors", failed}, {"seconds", seconds},
                     {"runs_per_s", committed / seconds}, {"commit_ms_p50", pct(0.50)}, {"commit_ms_p99", pct(0.99)},
                     {"commit_ms_max", all.empty() ? 0.0 : all.back()},
                     {"lost", committed - std::min(committed, whole)},
                     {"duplicated", (committed - distinct.size()) + (read_back > committed ? read_back - committed : 0)}};
  std::printf("%s\n", out.dump().c_str());
  return failed == 0 ? 0 : 1;
}
