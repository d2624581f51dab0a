// adb benchmark: (1) `am instrument -r` parsing throughput on the recorded transcripts;
// (2) run throughput of the device executor against the fake adb server: R runs of T tests
// each, from 3 threads onto 3 fake devices (each run: host:transport + shell,v2 round trip,
// streamed output, parse, map). Prints figures and `RESULT adb key=value ...` last.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "backend/adb/adb_executor.hpp"
#include "backend/adb/instrumentation_output.hpp"
#include "support/fake_adb/apk_builder.hpp"
#include "support/fake_adb/fake_adb_server.hpp"
#include "support/fake_adb/transcript.hpp"

using namespace flakescan;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  int parse_rounds = argc > 1 ? std::atoi(argv[1]) : 2000;
  int runs = argc > 2 ? std::atoi(argv[2]) : 600;
  int tests_per_run = 5;

  // 1. Parser.
  std::string text;
  for (auto f : {"adam_log_4.input", "adam_log_8.input", "adam_log_10.input"}) text += test::read_fixture(std::string("instrumentation/") + f);
  std::size_t tests_seen = 0;
  auto t0 = Clock::now();
  for (int i = 0; i < parse_rounds; ++i) {
    backend::adb::InstrumentationParser p;
    for (std::size_t off = 0; off < text.size(); off += 4096) p.feed(std::string_view(text).substr(off, 4096), double(off));
    tests_seen += p.finish(0).tests.size();
  }
  double parse_s = std::chrono::duration<double>(Clock::now() - t0).count();
  double mb_s = double(text.size()) * parse_rounds / parse_s / 1e6;
  std::printf("parser: %d x %zu bytes in %.3f s: %.1f MB/s, %.0f tests/s (%zu tests)\n", parse_rounds, text.size(),
              parse_s, mb_s, double(tests_seen) / parse_s, tests_seen);

  // 2. Executor against the fake server.
  test::FakeAdbServer fake;
  for (auto s : {"emulator-5554", "emulator-5556", "emulator-5558"}) fake.add_device({s});
  fake.on_shell([](const std::string&, const std::string& cmd) -> std::optional<test::FakeReply> {
    if (!cmd.starts_with("am instrument")) return std::nullopt;
    std::vector<test::ScriptedTest> tests;
    for (const auto& id : test::instrumented_tests(cmd)) {
      auto hash = id.find('#');
      tests.push_back({id.substr(0, hash), id.substr(hash + 1)});
    }
    test::FakeReply r;
    r.out = test::transcript(tests);
    return r;
  });
  std::string dir = std::filesystem::temp_directory_path() / "flakescan-adb-bench";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/app.apk", std::ios::binary) << test::build_apk("com.example.app");
  std::ofstream(dir + "/test.apk", std::ios::binary) << test::build_apk("com.example.app.test");
  backend::adb::AdbBackendConfig config;
  config.servers = {*adb_protocol::ServerAddress::parse(fake.address())};
  config.app_apk = dir + "/app.apk";
  config.test_apk = dir + "/test.apk";
  auto exec = backend::adb::make_adb_executor(config);
  if (!exec) {
    std::fprintf(stderr, "%s\n", exec.error().message.c_str());
    return 1;
  }
  core::RunSpec spec;
  for (int k = 0; k < tests_per_run; ++k) spec.tests.push_back("demo.BenchTest#t" + std::to_string(k));
  core::CancelFlag cancel{false};
  (void)(*exec)->run(spec, cancel);  // installs on one device outside the timing
  std::atomic<int> next{0}, passed{0};
  std::vector<double> latencies(runs);
  auto t1 = Clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < 3; ++w)
    threads.emplace_back([&] {
      for (int i; (i = next++) < runs;) {
        auto s = Clock::now();
        auto r = (*exec)->run(spec, cancel);
        latencies[i] = std::chrono::duration<double, std::milli>(Clock::now() - s).count();
        if (r && r->results.size() == std::size_t(tests_per_run) && r->results.back().outcome == core::Outcome::pass) ++passed;
      }
    });
  for (auto& t : threads) t.join();
  double run_s = std::chrono::duration<double>(Clock::now() - t1).count();
  std::sort(latencies.begin(), latencies.end());
  double p50 = latencies[latencies.size() / 2], p99 = latencies[latencies.size() * 99 / 100];
  std::printf("executor: %d runs x %d tests on 3 fake devices in %.2f s: %.0f runs/s, latency p50 %.2f ms p99 %.2f ms, %d correct\n",
              runs, tests_per_run, run_s, runs / run_s, p50, p99, passed.load());
  std::printf("RESULT adb parse_mb_s=%.1f runs_per_s=%.0f run_p50_ms=%.2f run_p99_ms=%.2f correct=%d/%d\n", mb_s, runs / run_s,
              p50, p99, passed.load(), runs);
  return passed == runs ? 0 : 1;
}
