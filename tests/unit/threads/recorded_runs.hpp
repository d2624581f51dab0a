#pragma once
// The recorded runner streams of tests/fixtures/threads/, read the way the local backend
// reads a run's results file (backend/local_jvm/runner_results.hpp).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "backend/local_jvm/runner_results.hpp"

namespace threads_test {

inline std::string fixture_text(const std::string& name) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/threads/" + name, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fixture whose name says "killed" is a JVM killed at the run deadline, as the local backend
// reports it; the others exited normally.
inline flakescan::core::RunReport recorded_report(const std::string& name, const std::string& test) {
  auto stream = flakescan::backend::parse_run_stream(fixture_text(name), 1);
  REQUIRE(stream);
  flakescan::core::RunReport report;
  bool killed = name.find("killed") != std::string::npos;
  std::string end = killed ? "was killed at the 40 s deadline" : "exited with status 0";
  if (killed) report.infra_reason = "the JVM " + end;
  flakescan::backend::assemble_report(*stream, {test}, end, report);
  return report;
}

inline flakescan::core::ThreadSchedule recorded_record(const std::string& name, const std::string& test) {
  auto report = recorded_report(name, test);
  REQUIRE(report.results.size() == 1);
  REQUIRE(report.results[0].threads);
  return *report.results[0].threads;
}

inline const std::string counter = "example.threads.CounterTest#counts";
inline const std::string transfer = "example.threads.TransferTest#transfers";
inline const std::string plain = "example.threads.PlainTest#adds";

}  // namespace threads_test
