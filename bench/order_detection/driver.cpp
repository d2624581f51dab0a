// order_detection benchmark driver: flakescan's `order` + `nio` techniques against plain
// random orders with the same number of JVM runs, on the generated suite, real JVMs.
// Usage: driver <suite.jar> <runner.jar> <tests.txt> <truth.txt> <max_orders> <seed>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "backend/local_jvm/local_jvm_executor.hpp"
#include "order/orders.hpp"
#include "order/order_and_nio.hpp"
#include "support/order/executor_run_log.hpp"

using namespace flakescan;
namespace fs = std::filesystem;

namespace {

struct Plant {
  std::string kind, test, partner, cleaner;  // partner: polluter or state-setter
};

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: driver suite.jar runner.jar tests.txt truth.txt max_orders seed\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows as it happens
  std::string jar = argv[1], runner = argv[2];
  auto tests = lines(argv[3]);
  std::vector<Plant> plants;
  for (const auto& l : lines(argv[4])) {
    std::istringstream s(l);
    Plant p;
    s >> p.kind >> p.test >> p.partner >> p.cleaner;
    plants.push_back(p);
  }
  int max_orders = std::stoi(argv[5]);
  std::uint64_t seed = std::stoull(argv[6]);

  fs::path work = fs::temp_directory_path() / ("flakescan-bench-order-" + std::to_string(::getpid()));
  fs::create_directories(work);
  backend::LocalJvmConfig config;
  config.runner_jar = runner;
  config.platform_jars = backend::default_platform_jars("/usr/share/java");
  config.classpath = {jar};
  config.jvm_args = {"-XX:TieredStopAtLevel=1", "-Xshare:auto"};
  config.work_dir = work;
  config.parallelism = 2;
  backend::LocalJvmExecutor executor(config);

  // flakescan: nio (entire-suite, hits confirmed alone), then order.
  core::TechniqueInput input;
  input.tests = tests;
  input.seed = seed;
  input.budget.max_orders = max_orders;
  input.budget.max_runs = 2000;
  input.budget.max_seconds = 1800;
  auto start = std::chrono::steady_clock::now();
  test_support::ExecutorRunLog nio_log(executor);
  auto nio = order::detect_nio(input, nio_log);
  double nio_s = seconds_since(start);
  auto od_start = std::chrono::steady_clock::now();
  test_support::ExecutorRunLog od_log(executor);
  auto od = order::detect_order_dependent(input, od_log);
  double od_s = seconds_since(od_start);
  double total_s = seconds_since(start);
  if (!nio || !od) {
    std::fprintf(stderr, "driver: %s\n", util::describe(!nio ? nio.error() : od.error()).c_str());
    return 1;
  }
  int runs = static_cast<int>(nio_log.made().size() + od_log.made().size());
  std::map<std::string, core::Verdict> verdict;
  for (auto* list : {&*nio, &*od})
    for (const auto& v : *list) {
      auto it = verdict.find(v.test);
      verdict[v.test] = it == verdict.end() ? v : core::merge_verdicts(it->second, v);
    }
  int found = 0;
  std::set<std::string> planted;
  for (const auto& p : plants) {
    planted.insert(p.test);
    const auto& v = verdict[p.test];
    const auto& d = v.evidence.details;
    auto detail = [&](const char* k) { return d.count(k) ? d.at(k) : std::string(); };
    bool ok = false;
    if (p.kind == "nio") ok = v.category == core::Category::nio;
    if (p.kind == "victim")
      ok = v.category == core::Category::order_dependent && v.evidence.role == "victim" &&
           detail("polluters") == p.partner &&
           (p.cleaner.empty() || detail("cleaners").find(p.cleaner) != std::string::npos);
    if (p.kind == "brittle")
      ok = v.category == core::Category::order_dependent && v.evidence.role == "brittle" &&
           detail("state_setters") == p.partner;
    found += ok;
    std::printf("  %-8s %-22s %-6s role=%-8s related=%s%s\n", p.kind.c_str(), p.test.c_str(), ok ? "FOUND" : "missed",
                v.evidence.role.c_str(), detail(p.kind == "brittle" ? "state_setters" : "polluters").c_str(),
                detail("cleaners").empty() ? "" : (" cleaners=" + detail("cleaners")).c_str());
  }
  int false_flaky = 0;
  for (const auto& [t, v] : verdict)
    if (!planted.count(t) && v.verdict == core::VerdictKind::flaky) {
      ++false_flaky;
      std::printf("  unexpected flaky verdict: %s (%s)\n", t.c_str(), v.evidence.reason.c_str());
    }
  std::printf("flakescan: %d/%zu found and minimised, %d JVM runs (nio %zu, order %zu), %.1f s (nio %.1f s, order %.1f s), "
              "%d stable tests called flaky\n",
              found, plants.size(), runs, nio_log.made().size(), od_log.made().size(), total_s, nio_s, od_s, false_flaky);

  // Baseline: plain seeded random orders, as many runs as flakescan made. A planted test
  // counts as found when its outcome differed between two of these orders (detection only:
  // no role, no polluter, no reproducer; NIO tests cannot show up, each runs once per JVM).
  auto base_start = std::chrono::steady_clock::now();
  std::vector<core::RunSpec> specs;
  for (int i = 0; i < runs; ++i) {
    core::RunSpec s;
    s.seed = order::order_seed(seed ^ 0xba5e11eULL, i);
    s.tests = order::random_order(tests, s.seed);
    s.technique = "baseline";
    s.purpose = "baseline random order " + std::to_string(i + 1);
    specs.push_back(std::move(s));
  }
  test_support::ExecutorRunLog base_log(executor);
  auto base = base_log.run_all(specs);
  if (!base) {
    std::fprintf(stderr, "driver: %s\n", util::describe(base.error()).c_str());
    return 1;
  }
  std::map<std::string, std::pair<bool, bool>> seen;  // test -> (passed, failed)
  for (const auto& r : *base)
    for (size_t i = 0; i < r.spec.tests.size(); ++i) {
      auto o = r.report.outcome_at(i);
      auto& s = seen[r.spec.tests[i]];
      s.first |= o == core::Outcome::pass;
      s.second |= core::is_failure(o);
    }
  int base_found = 0;
  for (const auto& p : plants) base_found += seen[p.test].first && seen[p.test].second;
  std::printf("baseline: %d/%zu detected (outcome changed, not minimised), %d JVM runs, %.1f s\n", base_found,
              plants.size(), runs, seconds_since(base_start));
  std::printf("RESULT order_detection found=%d/%zu runs=%d baseline_found=%d/%zu baseline_runs=%d seconds=%.1f\n", found,
              plants.size(), runs, base_found, plants.size(), runs, total_s);
  fs::remove_all(work);
  return 0;
}
