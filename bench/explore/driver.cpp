// bench/explore driver: for every example of examples/android-style/expectations.json,
// `explore` with strategy maxdiff and with strategy flakescanner against rerun-N and the
// noise mode (rerun-N under stress-ng), side by side. Found: maxdiff / flakescanner found a
// failing schedule (flaky, category concurrency; for flakescanner on an example with a
// racing line, that line); rerun / noise: flaky. Twins: any flaky verdict is a false one.
// Usage: driver RUNNER_JAR CLASSPATH_FILE EXPECTATIONS RERUNS NOISE_RUNS [TRACE_DIR]
// (RERUNS / NOISE_RUNS 0: skip that baseline; TRACE_DIR: also write each test's trace).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "backend/local_jvm/local_jvm_executor.hpp"
#include "backend/local_jvm/local_tools.hpp"
#include "event_order/explore.hpp"
#include "integration/event_order/local_run_log.hpp"
#include "rerun/rerun.hpp"
#include "looper_trace/statement_tracer.hpp"
#include "support/classpath_file.hpp"

namespace fs = std::filesystem;
using namespace flakescan;
using Clock = std::chrono::steady_clock;

namespace {

struct Row {
  bool found = false;
  int runs = 0;
  double seconds = 0;
  std::string note;
};

template <class Fn>
Row measure(test_support::LocalRunLog& log, const std::string& test, Fn technique, const std::string& racing,
            core::ExploreStrategy strategy = core::ExploreStrategy::maxdiff, bool needs_schedule = false) {
  Row row;
  size_t before = log.recorded().size();
  auto started = Clock::now();
  core::TechniqueInput input;
  input.tests = {test};
  input.strategy = strategy;
  auto verdicts = technique(input, log);
  row.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  row.runs = int(log.recorded().size() - before);
  if (!verdicts) {  // a technique that could not work is not a technique that found nothing
    std::fprintf(stderr, "bench/explore: the technique failed on %s: %s\n", test.c_str(), verdicts.error().message.c_str());
    std::exit(1);
  }
  if (verdicts->empty()) {
    row.note = "no verdict";
    return row;
  }
  const auto& v = (*verdicts)[0];
  row.found = v.verdict == core::VerdictKind::flaky && (!needs_schedule || v.category == core::Category::concurrency);
  if (v.verdict == core::VerdictKind::flaky && !row.found) row.note = "flaky without a schedule; ";
  auto line = v.evidence.details.find("racing_line");
  if (!racing.empty() && line != v.evidence.details.end()) {
    row.note += "racing " + line->second + (line->second == racing ? "" : " (expected " + racing + ")");
    row.found = row.found && line->second == racing;
  }
  auto to = v.evidence.details.find("delayed_to_statement");
  if (to != v.evidence.details.end()) row.note += ", delayed to " + to->second;
  if (auto round = v.evidence.details.find("order_round"); round != v.evidence.details.end())
    row.note += "order " + round->second;
  if (v.verdict != core::VerdictKind::flaky && racing.empty() && !needs_schedule) row.note = std::string(core::verdict_name(v.verdict));
  if (!row.found && !racing.empty() && row.note.empty()) row.note = v.evidence.reason.substr(0, 120);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: driver RUNNER_JAR CLASSPATH_FILE EXPECTATIONS RERUNS NOISE_RUNS [TRACE_DIR]\n");
    return 2;
  }
  backend::LocalJvmConfig config;
  config.runner_jar = argv[1];
  config.platform_jars = backend::default_platform_jars("/usr/share/java");
  config.classpath = test_support::classpath_file(argv[2]);
  config.work_dir = fs::temp_directory_path() / ("flakescan-explore-bench-" + std::to_string(::getpid()));
  config.parallelism = 2;
  nlohmann::json expectations = nlohmann::json::parse(std::ifstream(argv[3]));
  const int reruns = std::atoi(argv[4]), noise_runs = std::atoi(argv[5]);
  backend::LocalJvmExecutor executor(config);
  test_support::LocalRunLog log(executor, 2);

  if (argc > 6) {  // record traces for the unit tests' fixtures
    fs::create_directories(argv[6]);
    for (const auto& t : expectations["tests"]) {
      std::string test = t["id"];
      looper_trace::StatementTrace tr;
      core::RunSpec spec;
      spec.tests = {test};
      spec.technique = "trace";
      auto run = log.run_debugged(spec, [&](core::Vm& vm) { return looper_trace::trace_statements(vm, test, {}, tr); });
      if (!run) {
        std::fprintf(stderr, "%s: %s\n", test.c_str(), run.error().message.c_str());
        continue;
      }
      tr.outcome = run->report.outcome_at(0);
      std::string file = test.substr(test.rfind('.') + 1);
      file[file.find('#')] = '.';
      std::ofstream(fs::path(argv[6]) / (file + ".trace")) << looper_trace::format_trace(tr);
    }
  }

  int flaky = 0, md_found = 0, md_runs = 0, fs_found = 0, fs_runs = 0, rerun_found = 0, rerun_runs = 0, noise_found = 0;
  int md_twins = 0, fs_twins = 0, both_found = 0, md_runs_both = 0, fs_runs_both = 0;
  double md_seconds = 0, fs_seconds = 0, rerun_seconds = 0, noise_seconds = 0, slowest = 0;
  std::string slowest_test;
  std::printf("| test | flaky | maxdiff: found, runs, s | flakescanner: found, runs, s | rerun-%d: found, runs, s | "
              "noise-%d: found, runs, s | notes (maxdiff / flakescanner) |\n",
              reruns, noise_runs);
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const auto& t : expectations["tests"]) {
    std::string test = t["id"];
    bool is_flaky = t["flaky"];
    // Examples whose failure needs messages swapped have no racing statement.
    std::string racing = is_flaky && t.contains("racing_line") ? std::to_string(int(t["racing_line"])) : "";
    Row m = measure(log, test, event_order::explore_technique(), "", core::ExploreStrategy::maxdiff, is_flaky);
    Row f = measure(log, test, event_order::explore_technique(), racing, core::ExploreStrategy::flakescanner, is_flaky);
    md_runs += m.runs;
    md_seconds += m.seconds;
    fs_runs += f.runs;
    fs_seconds += f.seconds;
    for (const auto& [row, name] : {std::pair{&m, "maxdiff"}, std::pair{&f, "flakescanner"}})
      if (row->seconds > slowest) {
        slowest = row->seconds;
        slowest_test = test.substr(test.rfind('.') + 1) + " (" + name + ")";
      }
    Row r, n;
    if (is_flaky) {
      ++flaky;
      md_found += m.found;
      fs_found += f.found;
      if (m.found && f.found) {
        ++both_found;
        md_runs_both += m.runs;
        fs_runs_both += f.runs;
      }
      if (reruns > 0) {
        r = measure(log, test, [&](core::TechniqueInput in, core::RunLog& l) {
          in.budget.runs_per_test = reruns;
          return rerun::run_rerun(in, l);
        }, "");
        rerun_found += r.found;
        rerun_runs += r.runs;
        rerun_seconds += r.seconds;
      }
      if (noise_runs > 0) {
        n = measure(log, test, [&](core::TechniqueInput in, core::RunLog& l) {
          in.budget.runs_per_test = noise_runs;
          in.budget.max_seconds = 600;
          in.tools = std::make_shared<backend::LocalTools>();  // the load comes from the Tools the scan hands over
          return event_order::run_noise(in, l);
        }, "");
        noise_found += n.found;
        noise_seconds += n.seconds;
      }
    } else {
      md_twins += m.found;
      fs_twins += f.found;
    }
    auto cell = [](const Row& x, bool ran) {
      char buf[96];
      if (!ran) return std::string("-");
      std::snprintf(buf, sizeof buf, "%s, %d, %.1f", x.found ? "yes" : "no", x.runs, x.seconds);
      return std::string(buf);
    };
    std::printf("| %s | %s | %s | %s | %s | %s | %s / %s |\n", test.substr(test.rfind('.') + 1).c_str(),
                is_flaky ? "yes" : "twin", cell(m, true).c_str(), cell(f, true).c_str(), cell(r, is_flaky && reruns > 0).c_str(),
                cell(n, is_flaky && noise_runs > 0).c_str(), m.note.c_str(), f.note.c_str());
    std::fflush(stdout);
  }
  fs::remove_all(config.work_dir);
  std::printf("twins called flaky: maxdiff %d, flakescanner %d; seconds: maxdiff %.1f, flakescanner %.1f, rerun %.1f, noise %.1f\n",
              md_twins, fs_twins, md_seconds, fs_seconds, rerun_seconds, noise_seconds);
  // Scheduling runs: every run but the one traced run per test (the seed compares those).
  const int md_sched = md_runs_both - both_found, fs_sched = fs_runs_both - both_found;
  const double sched_ratio = fs_sched > 0 ? double(md_sched) / fs_sched : 0.0;
  std::printf("on the %d examples both find: maxdiff %d runs, flakescanner %d runs (ratio %.2f); scheduling runs %d vs %d "
              "(ratio %.2f; goal <= 0.67); slowest: %s %.1f s\n",
              both_found, md_runs_both, fs_runs_both, fs_runs_both ? double(md_runs_both) / fs_runs_both : 0.0, md_sched,
              fs_sched, sched_ratio, slowest_test.c_str(), slowest);
  std::printf("RESULT explore found=%d/%d runs=%d fs_found=%d/%d fs_runs=%d rerun_found=%d/%d rerun_runs=%d noise_found=%d/%d "
              "seconds=%.0f fs_seconds=%.0f twins_flagged=%d fs_twins_flagged=%d both_runs_ratio=%.2f sched_runs_ratio=%.2f "
              "max_test_seconds=%.0f\n",
              md_found, flaky, md_runs, fs_found, flaky, fs_runs, rerun_found, flaky, rerun_runs, noise_found, flaky, md_seconds,
              fs_seconds, md_twins, fs_twins, fs_runs_both ? double(md_runs_both) / fs_runs_both : 0.0, sched_ratio, slowest);
  return 0;
}
