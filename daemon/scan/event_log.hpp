#pragma once
// The progress events of one scan, kept in memory for its server-sent-events stream:
// scan state changes, run started/finished, verdicts. Append-only; readers ask for the
// events after the last sequence number they saw, so a slow reader never blocks a writer
// and a reader that reconnects (Last-Event-ID) resumes where it left off. Bounded: past
// `capacity` events the oldest are dropped, and a reader asking for them gets what is left.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace flakescan::scan {

struct ScanEvent {
  std::uint64_t seq = 0;
  std::string type;  // "state", "run_started", "run_finished", "verdict", "progress"
  std::string data;  // JSON text
};

class EventLog {
 public:
  explicit EventLog(size_t capacity = 100000) : capacity_(capacity) {}

  void append(std::string type, std::string data);
  // Events with seq > after, at most `max` of them.
  std::vector<ScanEvent> since(std::uint64_t after, size_t max = 1000) const;
  // Marks the log complete: no event will follow.
  void close();
  bool closed() const;
  // Blocks until close() (the scan ended) or `timeout`; true when closed.
  bool wait_closed(std::chrono::milliseconds timeout) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable closed_cv_;
  std::deque<ScanEvent> events_;
  std::uint64_t next_seq_ = 1;
  size_t capacity_;
  bool closed_ = false;
};

}  // namespace flakescan::scan
