#pragma once
// A daemon's pulse in its store. Every `interval_seconds` it writes that it is alive and marks
// interrupted the unfinished scans of daemons that have not beaten for `stale_seconds` (killed,
// never restarted), so that a shared store does not keep a dead runner's scans "running"
// forever, and no daemon ever touches the scans of one that is alive. Store calls run on the
// heartbeat's own thread, never on the network threads.
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "store/store.hpp"

namespace flakescan::app {

// HOST:DATA_DIR: the same daemon restarted gets the same name, two daemons on two runners do not.
std::string default_daemon_id(const std::filesystem::path& data_dir);

class Heartbeat {
 public:
  static constexpr int interval_seconds = 10;
  static constexpr int stale_seconds = 60;

  Heartbeat(store::Store& store, std::string daemon_id);
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  void loop();
  store::Store& store_;
  std::string id_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace flakescan::app
