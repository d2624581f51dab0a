#include "backend/local_jvm/shuffling_jdk.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "util/log.hpp"
#include "util/process.hpp"

namespace flakescan::backend {

namespace fs = std::filesystem;
using util::Errc;

namespace {

struct Fnv64 {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // a separator, so "ab"+"c" differs from "a"+"bc"
  }
};

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The java launcher's real file, found on PATH when it is a bare name.
fs::path real_java(const std::string& java) {
  std::error_code ec;
  if (java.find('/') != std::string::npos) return fs::weakly_canonical(java, ec);
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    fs::path candidate = fs::path(dir) / java;
    if (::access(candidate.c_str(), X_OK) == 0) return fs::weakly_canonical(candidate, ec);
  }
  return java;
}

// Identifies the JDK and the Prepare program: a different JDK update or a rebuilt jar with
// other bytes gets a folder of its own.
std::string cache_key(const fs::path& java, const fs::path& jar) {
  Fnv64 key;
  key.add(java.string());
  const fs::path home = java.parent_path().parent_path();
  key.add(read_all(home / "release"));
  std::error_code ec;
  key.add(std::to_string(fs::file_size(home / "lib" / "modules", ec)));
  key.add(std::to_string(fs::last_write_time(home / "lib" / "modules", ec).time_since_epoch().count()));
  key.add(read_all(jar));
  std::ostringstream name;
  name << "jdk-" << std::hex << std::setw(16) << std::setfill('0') << key.h;
  return name.str();
}

// flock on a file of its own: held by one process at a time, released when the fd closes
// (also when the holder dies).
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_;
};

util::Result<ShufflingJava> read_prepared(const fs::path& dir, const std::string& java) {
  auto j = nlohmann::json::parse(read_all(dir / "prepared.json"), nullptr, false);
  if (!j.is_object()) return util::fail(Errc::malformed, "the shuffling JDK in " + dir.string() + " has no readable prepared.json");
  auto text = [&](const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string(); };
  ShufflingJava out;
  const std::string image = text("image");
  out.image = !image.empty() && ::access((dir / image).c_str(), X_OK) == 0;
  if (out.image) {
    out.java = (dir / image).string();
  } else {
    out.java = java;
    out.jvm_args = {"--patch-module", "java.base=" + (dir / (text("patch_dir").empty() ? "patch" : text("patch_dir"))).string()};
  }
  out.description = "Java " + text("java_version") + " (" + text("java_home") + "), " +
                    (out.image ? "a jlinked image with class data sharing" : "--patch-module (no class data sharing)");
  return out;
}

}  // namespace

fs::path default_shuffling_jdk_cache() {
  if (const char* d = std::getenv("FLAKESCAN_CACHE_DIR"); d && *d) return fs::path(d) / "shuffling-jdk";
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "flakescan" / "shuffling-jdk";
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : "/tmp") / ".cache" / "flakescan" / "shuffling-jdk";
}

util::Result<ShufflingJava> ShufflingJdk::get() {
  std::lock_guard lock(mutex_);
  if (!result_) result_ = prepare();
  return *result_;
}

util::Result<ShufflingJava> ShufflingJdk::prepare() {
  static auto log = util::logger("backend");
  std::error_code ec;
  if (!fs::is_regular_file(config_.prepare_jar, ec))
    return util::fail(Errc::unsupported, "this flakescan has no shuffling-JDK program (" + config_.prepare_jar.string() + ")");
  for (const auto& jar : config_.asm_jars)
    if (!fs::is_regular_file(jar, ec))
      return util::fail(Errc::unsupported, "the shuffling JDK needs ASM (Debian package libasm-java): " + jar + " is missing");
  const fs::path java = real_java(config_.java);
  const std::string key = cache_key(java, config_.prepare_jar);
  const fs::path dir = config_.cache_dir / key;
  fs::create_directories(config_.cache_dir, ec);
  if (ec) return util::fail(Errc::io, "cannot create " + config_.cache_dir.string() + ": " + ec.message());
  FileLock lock(config_.cache_dir / (key + ".lock"));
  if (!lock.held()) return util::fail(Errc::io, "cannot lock " + (config_.cache_dir / (key + ".lock")).string());
  if (fs::is_regular_file(dir / "prepared.json", ec)) return read_prepared(dir, config_.java);

  const fs::path work = config_.cache_dir / (key + ".tmp-" + std::to_string(::getpid()));
  const fs::path output = config_.cache_dir / (key + ".log");
  fs::remove_all(work, ec);
  std::string cp = config_.prepare_jar.string();
  for (const auto& jar : config_.asm_jars) cp += ":" + jar;
  log->info("preparing the shuffling JDK for {} in {} (once per JDK on this machine)", java.string(), dir.string());
  auto started = std::chrono::steady_clock::now();
  auto child = util::Child::spawn({.argv = {config_.java, "-cp", cp, "io.flakescan.shufflingjdk.Prepare", "--out", work.string()},
                                   .stdout_path = output.string()});
  if (!child) return std::unexpected(child.error());
  auto status = child->wait(started + std::chrono::seconds(config_.prepare_timeout_s));
  if (!status) return std::unexpected(status.error());
  if (!status->success() || !fs::is_regular_file(work / "prepared.json", ec)) {
    std::string said = read_all(output);
    if (said.size() > 1500) said = said.substr(said.size() - 1500);
    fs::remove_all(work, ec);
    return util::fail(Errc::process, "the shuffling JDK could not be prepared for " + java.string() + ": Prepare " +
                                         status->describe() + (said.empty() ? "" : "; it said:\n" + said));
  }
  fs::rename(work, dir, ec);
  if (ec) return util::fail(Errc::io, "cannot move the shuffling JDK into " + dir.string() + ": " + ec.message());
  log->info("shuffling JDK ready in {:.1f} s", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return read_prepared(dir, config_.java);
}

}  // namespace flakescan::backend
