#pragma once
// The shuffling JDK of this machine's JDK, for the tests: prepared once per build tree and
// shared. ctest runs each test case in a process of its own, so the prepared folder lives in
// the build tree under a file lock (the first process prepares, the others wait and reuse it),
// and it is reused while it is newer than the Prepare jar and the JDK's lib/modules. Plus runs
// of the probe program (tests/fixtures/shuffling_jdk, io.flakescan.shufflingcheck.Families),
// parsed line by line.
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace flakescan::test_support {

struct Prepared {
  std::filesystem::path dir;   // patch/, image/, prepared.json
  nlohmann::json info;         // prepared.json
  std::string plain_java;      // <java_home>/bin/java of the JDK it was made from
  std::string image_java;      // dir/image/bin/java
};

// Prepares on first use in this process (or waits for another process that does); a failed
// preparation fails the calling test with Prepare's output.
const Prepared& prepared();

struct Ran {
  int exit_code = -1;  // -1: killed by a signal or at the deadline
  std::string output;  // stdout and stderr together
};

Ran run(const std::vector<std::string>& argv, std::chrono::seconds timeout = std::chrono::seconds(300));

struct ProbeOrder {
  std::string scope;  // "jdk": the same in every JVM of the JDK; "jvm": only within one JVM
  std::string order;
};

struct FamiliesRun {
  Ran ran;
  std::map<std::string, std::map<std::string, ProbeOrder>> probes;  // name -> phase -> order
  std::map<std::string, nlohmann::json> drains;                      // name -> drain() after its call
  std::map<std::string, std::string> checks;                         // name -> "ok" or "FAIL why"
  bool done = false;
};

// java: the launcher and its options; args: Families' own ("--seed", "1", ...).
FamiliesRun families(const std::vector<std::string>& java, const std::vector<std::string>& args = {});

std::vector<std::string> image_java();
std::vector<std::string> patched_java();  // the plain JDK with --patch-module java.base=<dir>/patch
std::vector<std::string> plain_java();

// An order's elements, sorted: the same contents in any order compare equal.
std::vector<std::string> elements(const std::string& order);

// A fresh folder of its own, removed with its contents at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace flakescan::test_support
