#include "backend/local_jvm/spare_jvms.hpp"

#include <algorithm>

#include "util/log.hpp"

namespace flakescan::backend {

namespace {
constexpr int give_up_after_failures = 3;
}

SpareJvms::SpareJvms(int capacity) : capacity_(std::size_t(std::max(1, capacity))), keeper_([this] { keep(); }) {}

SpareJvms::~SpareJvms() { stop(); }

void SpareJvms::stop() {
  std::deque<SpareJvm> dropped;
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    dropped.swap(spares_);
  }
  wake_.notify_all();
  if (keeper_.joinable() && keeper_.get_id() != std::this_thread::get_id()) keeper_.join();
  // Each util::Child kills its process group and reaps it as it goes out of scope here.
}

bool SpareJvms::wants_spare() const {
  return start_ && spares_.size() < capacity_ && failed_in_a_row_ < give_up_after_failures;
}

std::optional<SpareJvm> SpareJvms::take(const std::string& key, Start start) {
  std::vector<SpareJvm> dropped;  // killed outside the lock, as they go out of scope
  std::optional<SpareJvm> out;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return std::nullopt;
    ask_for(key, std::move(start), dropped);
    while (!spares_.empty() && !out) {
      SpareJvm spare = std::move(spares_.front());
      spares_.pop_front();
      if (spare.key != key || spare.child.has_exited()) {
        util::logger("backend")->debug("spare runner JVM {} dropped: {}", spare.child.pid(),
                                       spare.key != key ? "started for another launch" : "it died while waiting");
        dropped.push_back(std::move(spare));
        continue;
      }
      out = std::move(spare);
    }
  }
  wake_.notify_one();
  return out;
}

void SpareJvms::ask_for(const std::string& key, Start start, std::vector<SpareJvm>& dropped) {
  if (key != key_) {
    for (auto& s : spares_) dropped.push_back(std::move(s));
    spares_.clear();
    key_ = key;
    failed_in_a_row_ = 0;
  }
  start_ = std::move(start);
  ++asks_;
}

void SpareJvms::prime(const std::string& key, Start start) {
  std::vector<SpareJvm> dropped;  // killed outside the lock, as they go out of scope
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    ask_for(key, std::move(start), dropped);
  }
  wake_.notify_one();
}

std::vector<pid_t> SpareJvms::pids() const {
  std::lock_guard lock(mutex_);
  std::vector<pid_t> out;
  for (const auto& s : spares_) out.push_back(s.child.pid());
  return out;
}

void SpareJvms::keep() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopped_ || wants_spare(); });
    if (stopped_) return;
    Start start = start_;
    const std::string key = key_;
    const std::uint64_t ask = asks_;
    lock.unlock();
    auto spare = start();  // spawns the JVM (and may first make the class data archive)
    lock.lock();
    if (!spare) {
      ++failed_in_a_row_;
      util::logger("backend")->warn("a spare runner JVM could not be started ({} in a row): {}", failed_in_a_row_,
                                    spare.error().message);
      continue;
    }
    failed_in_a_row_ = 0;
    if (stopped_ || key != key_ || spare->key != key) {
      // The launch changed while it started (a new key, or the archive appeared): it fits no
      // run; no more are started until a run asks with the key it needs now (a run that asked
      // while it started has done so already).
      if (!stopped_ && key == key_ && ask == asks_) start_ = nullptr;
      lock.unlock();
      { SpareJvm unused = std::move(*spare); }  // killed and reaped as it goes
      lock.lock();
      continue;
    }
    spares_.push_back(std::move(*spare));
  }
}

}  // namespace flakescan::backend
