#include "app/heartbeat.hpp"

#include <unistd.h>

#include "util/log.hpp"

namespace flakescan::app {

std::string default_daemon_id(const std::filesystem::path& data_dir) {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host[0] ? host : "localhost") + ":" + data_dir.string();
}

Heartbeat::Heartbeat(store::Store& store, std::string daemon_id)
    : store_(store), id_(std::move(daemon_id)), thread_([this] { loop(); }) {}

Heartbeat::~Heartbeat() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Heartbeat::loop() {
  auto log = util::logger("store");
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(interval_seconds), [this] { return stopping_; })) {
    lock.unlock();
    if (auto beat = store_.heartbeat(id_); !beat) log->warn("heartbeat: {}", util::describe(beat.error()));
    if (auto n = store_.interrupt_abandoned(stale_seconds); n && *n > 0)
      log->warn("{} scans of daemons silent for {} s marked interrupted", *n, stale_seconds);
    lock.lock();
  }
}

}  // namespace flakescan::app
