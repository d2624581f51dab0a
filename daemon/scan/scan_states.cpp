#include "scan/scan_states.hpp"

#include "util/log.hpp"
#include "util/timestamp.hpp"

namespace flakescan::scan {

bool finished_state(const std::string& s) { return s != "queued" && s != "running"; }

void ScanStates::save(const std::string& id, const std::string& state, const std::string& error) {
  std::lock_guard write(write_mutex_);
  auto saved = store_.set_scan_state(id, state, error);
  if (saved) {
    std::lock_guard lock(mutex_);
    unsaved_.erase(id);
    return;
  }
  util::logger("scan")->error("scan {}: the store did not take its state '{}': {}", id, state, util::describe(saved.error()));
  keep_refused(id, state, error, saved.error());
}

void ScanStates::keep_refused(const std::string& id, const std::string& state, const std::string& error,
                              const util::Error& why) {
  // What a client reads must say why the store holds something else.
  std::string because = "the store could not record this state: " + why.message;
  std::lock_guard lock(mutex_);
  unsaved_[id] = Unsaved{state, error.empty() ? because : error + "; " + because, util::utc_timestamp()};
}

void ScanStates::flush() {
  {
    std::lock_guard lock(mutex_);
    if (unsaved_.empty()) return;  // the usual case: no store write, no wait
  }
  std::lock_guard write(write_mutex_);
  std::map<std::string, Unsaved> pending;
  {
    std::lock_guard lock(mutex_);
    pending = unsaved_;
  }
  for (const auto& [id, u] : pending) {
    if (!store_.set_scan_state(id, u.state, u.error)) return;  // still refused: try at the next read
    std::lock_guard lock(mutex_);
    if (auto it = unsaved_.find(id); it != unsaved_.end() && it->second.state == u.state && it->second.at == u.at)
      unsaved_.erase(it);
  }
}

void ScanStates::overlay(store::ScanRecord& record) {
  std::lock_guard lock(mutex_);
  auto it = unsaved_.find(record.id);
  if (it == unsaved_.end()) return;
  const Unsaved& u = it->second;
  record.state = u.state;
  if (!u.error.empty()) record.error = u.error;
  if (u.state == "running" && record.started_at.empty()) record.started_at = u.at;
  if (finished_state(u.state)) record.finished_at = u.at;
}

}  // namespace flakescan::scan
