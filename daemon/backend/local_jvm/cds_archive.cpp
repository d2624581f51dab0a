#include "backend/local_jvm/cds_archive.hpp"

#include <functional>
#include <sstream>
#include <unistd.h>

#include "util/log.hpp"

namespace flakescan::backend {

namespace fs = std::filesystem;

CdsArchive::CdsArchive(fs::path dir, const std::string& java, const std::vector<std::string>& jvm_args,
                       const std::vector<std::string>& classpath)
    : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  std::ostringstream key;
  key << java << '\n';
  for (const auto& a : jvm_args) key << a << '\n';
  for (const auto& entry : classpath) {
    key << entry;
    std::error_code ec;
    if (not_dumpable_.empty() && fs::is_directory(entry, ec) && !fs::is_empty(entry, ec))
      not_dumpable_ = "the classpath holds the class directory " + entry + " (HotSpot archives only jars)";
    if (fs::is_regular_file(entry, ec)) {
      auto size = fs::file_size(entry, ec);
      auto mtime = fs::last_write_time(entry, ec).time_since_epoch().count();
      key << ' ' << size << ' ' << mtime;
    }
    key << '\n';
  }
  std::ostringstream name;
  name << "runner-" << std::hex << std::hash<std::string>{}(key.str()) << ".jsa";
  archive_ = dir_ / name.str();
}

CdsArchive::Use CdsArchive::for_run(bool debugged) {
  Use use;
  if (dir_.empty() || !not_dumpable_.empty()) return use;
  std::error_code ec;
  if (fs::is_regular_file(archive_, ec)) {
    use.jvm_args = {"-XX:SharedArchiveFile=" + archive_.string()};
    return use;
  }
  if (debugged) return use;
  std::lock_guard lock(mutex_);
  if (dumping_ || failed_dumps_ >= 2) return use;
  fs::create_directories(dir_, ec);
  if (ec) return use;
  dumping_ = true;
  use.dumping = archive_.string() + "." + std::to_string(::getpid()) + "-" + std::to_string(++dumps_) + ".tmp";
  use.jvm_args = {"-XX:ArchiveClassesAtExit=" + use.dumping.string()};
  return use;
}

void CdsArchive::finished(const Use& use, bool exited) {
  if (use.dumping.empty()) return;
  std::error_code ec;
  bool made = exited && fs::is_regular_file(use.dumping, ec) && fs::file_size(use.dumping, ec) > 0;
  if (made) fs::rename(use.dumping, archive_, ec);
  if (!made || ec) fs::remove(use.dumping, ec);
  std::lock_guard lock(mutex_);
  dumping_ = false;
  if (made && !ec) {
    util::logger("backend")->info("runner class data archive written: {}", archive_.string());
  } else {
    ++failed_dumps_;
    util::logger("backend")->info("no runner class data archive from that run ({} of 2 attempts)", failed_dumps_);
  }
}

}  // namespace flakescan::backend
