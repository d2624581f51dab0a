#include "shuffling_jdk_fixture.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "util/process.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace flakescan::test_support {

namespace {

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The JDK the tests run on: `java` on PATH, followed to its real file.
fs::path real_java() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    fs::path candidate = fs::path(dir) / "java";
    if (::access(candidate.c_str(), X_OK) == 0) return fs::canonical(candidate);
  }
  FAIL("no java on PATH");
  return {};
}

// flock on a file of its own, released when the descriptor closes (also if the holder dies).
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    REQUIRE(fd_ >= 0);
    REQUIRE(::flock(fd_, LOCK_EX) == 0);
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

// Reusable: made by this Prepare jar from this JDK, and not older than either.
bool fresh(const fs::path& dir, const fs::path& java_home) {
  std::error_code ec;
  const fs::path json = dir / "prepared.json";
  if (!fs::is_regular_file(json, ec)) return false;
  auto info = nlohmann::json::parse(read_all(json), nullptr, false);
  if (!info.is_object() || info.value("java_home", "") != java_home.string()) return false;
  const auto made = fs::last_write_time(json, ec);
  return made > fs::last_write_time(SHUFFLING_JDK_JAR, ec) && made > fs::last_write_time(java_home / "lib" / "modules", ec);
}

Prepared prepare_shared() {
  const fs::path java = real_java();
  const fs::path java_home = java.parent_path().parent_path();
  const fs::path dir = fs::path(FLAKESCAN_BINARY_DIR) / "tests" / "shuffling-jdk-prepared";
  fs::create_directories(dir.parent_path());
  FileLock lock(dir.string() + ".lock");
  if (!fresh(dir, java_home)) {
    Ran prepare = run({java.string(), "-cp", std::string(SHUFFLING_JDK_JAR) + ":" + ASM_JAR,
                       "io.flakescan.shufflingjdk.Prepare", "--out", dir.string()},
                      900s);
    INFO(prepare.output);
    REQUIRE(prepare.exit_code == 0);
  }
  Prepared p;
  p.dir = dir;
  p.info = nlohmann::json::parse(read_all(dir / "prepared.json"));
  p.plain_java = (java_home / "bin" / "java").string();
  p.image_java = (dir / "image" / "bin" / "java").string();
  return p;
}

// "a,b,c" split at commas.
std::vector<std::string> split(const std::string& order) {
  std::vector<std::string> out;
  if (order.empty()) return out;
  std::stringstream in(order);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

}  // namespace

const Prepared& prepared() {
  static const Prepared p = prepare_shared();
  return p;
}

Ran run(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
  TempDir dir;
  const fs::path out = dir.path() / "output";
  auto child = util::Child::spawn({.argv = argv, .stdout_path = out.string()});
  REQUIRE(child);
  auto status = child->wait(std::chrono::steady_clock::now() + timeout);
  REQUIRE(status);
  Ran ran;
  ran.exit_code = status->exited ? status->code : -1;
  ran.output = read_all(out);
  return ran;
}

FamiliesRun families(const std::vector<std::string>& java, const std::vector<std::string>& args) {
  std::vector<std::string> argv = java;
  argv.insert(argv.end(), {"-cp", FAMILIES_JAR, "io.flakescan.shufflingcheck.Families"});
  argv.insert(argv.end(), args.begin(), args.end());
  FamiliesRun r;
  r.ran = run(argv);
  std::stringstream lines(r.ran.output);
  for (std::string line; std::getline(lines, line);) {
    std::stringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "probe") {
      std::string name, scope, phase, order;
      words >> name >> scope >> phase >> order;
      r.probes[name][phase] = {scope, order};
    } else if (kind == "drain") {
      std::string name, json;
      words >> name;
      std::getline(words >> std::ws, json);
      r.drains[name] = nlohmann::json::parse(json, nullptr, false);
    } else if (kind == "check") {
      std::string name, verdict;
      words >> name;
      std::getline(words >> std::ws, verdict);
      r.checks[name] = verdict;
    } else if (kind == "done") {
      r.done = true;
    }
  }
  return r;
}

std::vector<std::string> image_java() { return {prepared().image_java}; }

std::vector<std::string> patched_java() {
  return {prepared().plain_java, "--patch-module", "java.base=" + (prepared().dir / "patch").string()};
}

std::vector<std::string> plain_java() { return {prepared().plain_java}; }

std::vector<std::string> elements(const std::string& order) {
  auto out = split(order);
  std::sort(out.begin(), out.end());
  return out;
}

TempDir::TempDir() {
  static std::atomic<int> next{0};
  path_ = fs::temp_directory_path() /
          ("flakescan-shuffling-jdk-it-" + std::to_string(::getpid()) + "-" + std::to_string(next++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace flakescan::test_support
