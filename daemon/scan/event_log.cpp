#include "scan/event_log.hpp"

namespace flakescan::scan {

void EventLog::append(std::string type, std::string data) {
  std::lock_guard lock(mutex_);
  if (closed_) return;
  events_.push_back({next_seq_++, std::move(type), std::move(data)});
  if (events_.size() > capacity_) events_.pop_front();
}

std::vector<ScanEvent> EventLog::since(std::uint64_t after, size_t max) const {
  std::lock_guard lock(mutex_);
  std::vector<ScanEvent> out;
  for (const auto& e : events_) {
    if (e.seq <= after) continue;
    out.push_back(e);
    if (out.size() >= max) break;
  }
  return out;
}

void EventLog::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  closed_cv_.notify_all();
}

bool EventLog::wait_closed(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return closed_cv_.wait_for(lock, timeout, [&] { return closed_; });
}

bool EventLog::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

}  // namespace flakescan::scan
