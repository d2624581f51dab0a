#pragma once
// Runs the probe program (src/threadsprobe/Probe.java) under the threads agent for a range of
// seeds and reads the schedule records it prints (threads_agent_test.cpp and
// collections_and_pools_test.cpp). A JVM that does not end within the deadline fails the case.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "util/process.hpp"

namespace threads_probe {

using nlohmann::json;
using namespace std::chrono_literals;

struct ProbeRun {
  long seed = 0;
  bool failed = false;
  std::string error;
  std::string at;  // the error's first frame in the probe's scenarios
  json record;
};

inline std::vector<ProbeRun> probe(const std::string& scenario, const std::string& strategy, int first, int last,
                                   const std::vector<std::string>& properties = {}, const std::string& replay_file = "") {
  std::vector<std::string> argv{"java", "-javaagent:" THREADS_AGENT_JAR};
  argv.insert(argv.end(), properties.begin(), properties.end());
  for (std::string a : {"-cp", THREADS_PROBE_JAR, "threadsprobe.Probe"}) argv.push_back(a);
  argv.push_back(scenario);
  argv.push_back(strategy);
  argv.push_back(std::to_string(first));
  argv.push_back(std::to_string(last));
  if (!replay_file.empty()) argv.push_back(replay_file);
  auto out = flakescan::util::run_capture(argv, 60s);
  INFO(scenario << " " << strategy << " seeds " << first << ".." << last);
  REQUIRE(out);
  std::vector<ProbeRun> runs;
  std::istringstream lines(*out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    json j = json::parse(line);
    runs.push_back({j.at("seed").get<long>(), j.at("outcome") == "fail", j.value("error", ""), j.value("at", ""), j.at("record")});
  }
  REQUIRE(runs.size() == static_cast<std::size_t>(last - first + 1));
  return runs;
}

inline std::size_t count_failed(const std::vector<ProbeRun>& runs) {
  std::size_t n = 0;
  for (const auto& r : runs) n += r.failed ? 1 : 0;
  return n;
}

inline std::filesystem::path temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() /
              ("flakescan-threads-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path;
}

// PCT's k (steps) near the length of these small programs, as the daemon sets it from a first run.
inline const std::vector<std::string> pct_steps{"-Dflakescan.threads.steps=16"};

}  // namespace threads_probe
