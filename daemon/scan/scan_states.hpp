#pragma once
// Scan states the store refused (disk full, read-only file system).
//
// Policy and invariants:
// - a refused state is kept here, with why, and laid over what the store returns, so a scan
//   never looks `running` after it ended;
// - it is written again at the next read (flush) and forgotten once the store takes it, unless
//   a newer state replaced it meanwhile;
// - writes of states are serialised (write_mutex_, taken before mutex_): a retried older state
//   never lands after a newer one. mutex_ guards only `unsaved_` and is taken last.
#include <map>
#include <mutex>
#include <string>

#include "store/store.hpp"
#include "util/error.hpp"

namespace flakescan::scan {

// queued and running are the states of a scan that has not ended.
bool finished_state(const std::string& state);

class ScanStates {
 public:
  explicit ScanStates(store::Store& store) : store_(store) {}

  // Writes a scan's state, or keeps it (and logs why) when the store refuses it.
  void save(const std::string& id, const std::string& state, const std::string& error = {});
  // Keeps a state that the caller's own write could not store (`why`: the store's error).
  void keep_refused(const std::string& id, const std::string& state, const std::string& error, const util::Error& why);
  // Retries the states the store refused.
  void flush();
  // Lays what is still unsaved over `record`.
  void overlay(store::ScanRecord& record);

 private:
  struct Unsaved {
    std::string state, error, at;
  };

  store::Store& store_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::map<std::string, Unsaved> unsaved_;  // by scan id
};

}  // namespace flakescan::scan
