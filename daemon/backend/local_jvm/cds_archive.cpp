#include "backend/local_jvm/cds_archive.hpp"

#include <functional>
#include <sstream>
#include <unistd.h>

#include "util/log.hpp"

namespace flakescan::backend {

namespace fs = std::filesystem;

CdsArchive::CdsArchive(fs::path dir, const std::string& java, const std::vector<std::string>& jvm_args,
                       const std::vector<std::string>& jars, Maker make)
    : dir_(std::move(dir)), make_(std::move(make)) {
  if (dir_.empty()) return;
  std::ostringstream key;
  key << java << '\n';
  for (const auto& a : jvm_args) key << a << '\n';
  for (const auto& entry : jars) {
    key << entry;
    std::error_code ec;
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

CdsArchive::Use CdsArchive::for_run() {
  Use use;
  if (dir_.empty()) return use;
  std::error_code ec;
  std::lock_guard lock(mutex_);
  if (!fs::is_regular_file(archive_, ec) && failed_ < 2 && make_) {
    fs::create_directories(dir_, ec);
    fs::path dump = archive_.string() + "." + std::to_string(::getpid()) + "-" + std::to_string(++attempts_) + ".tmp";
    bool made = make_(dump) && fs::is_regular_file(dump, ec) && fs::file_size(dump, ec) > 0;
    if (made) fs::rename(dump, archive_, ec);
    if (!made || ec) {
      fs::remove(dump, ec);
      ++failed_;
      util::logger("backend")->info("no runner class data archive from the warm-up JVM ({} of 2 attempts)", failed_);
    } else {
      util::logger("backend")->info("runner class data archive written: {}", archive_.string());
    }
  }
  if (fs::is_regular_file(archive_, ec)) use.jvm_args = {"-XX:SharedArchiveFile=" + archive_.string()};
  return use;
}

std::optional<CdsArchive::Use> CdsArchive::if_ready() {
  if (dir_.empty()) return Use{};
  // The archive is published whole, by rename (ours or another daemon's sharing the folder):
  // once its name is there it is usable, even while for_run() still holds the lock.
  std::error_code ec;
  if (fs::is_regular_file(archive_, ec)) return Use{.jvm_args = {"-XX:SharedArchiveFile=" + archive_.string()}};
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return std::nullopt;  // for_run() holds it while the warm-up JVM runs
  if (failed_ >= 2 || !make_) return Use{};
  return std::nullopt;
}

void CdsArchive::start_making() {
  if (dir_.empty() || !make_) return;
  std::lock_guard lock(start_mutex_);
  if (maker_.joinable()) return;
  maker_ = std::thread([this] { (void)for_run(); });
}

void CdsArchive::finish_making() {
  std::lock_guard lock(start_mutex_);
  if (maker_.joinable()) maker_.join();
}

}  // namespace flakescan::backend
