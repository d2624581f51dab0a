// JdwpVm's event path: event sets from the session become core::VmEvents, on the thread
// that read them (io thread or a waiting caller) when the caches answer, otherwise on the
// pump thread (policy in jdwp_vm.hpp).
#include "jdwp/jdwp_vm.hpp"

#include "util/log.hpp"

namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

namespace {

auto log() {
  static auto logger = util::logger("jdwp");
  return logger;
}

// The kind a technique sees for a JDWP event kind; nullopt for kinds it never sees.
std::optional<core::EventKind> core_kind(EventKind kind) {
  switch (kind) {
    case EventKind::vm_start: return core::EventKind::vm_start;
    case EventKind::vm_death: return core::EventKind::vm_death;
    case EventKind::thread_start: return core::EventKind::thread_start;
    case EventKind::thread_death: return core::EventKind::thread_death;
    case EventKind::class_prepare: return core::EventKind::class_prepare;
    case EventKind::breakpoint: return core::EventKind::breakpoint;
    case EventKind::single_step: return core::EventKind::single_step;
    case EventKind::method_entry: return core::EventKind::method_entry;
    case EventKind::method_exit: case EventKind::method_exit_with_return_value: return core::EventKind::method_exit;
    case EventKind::monitor_wait: case EventKind::monitor_contended_enter: return core::EventKind::monitor_wait;
    case EventKind::monitor_waited: case EventKind::monitor_contended_entered: return core::EventKind::monitor_waited;
    case EventKind::exception: return core::EventKind::exception;
    default: return std::nullopt;
  }
}

// Whether events of this kind carry a location (and an object) to resolve.
bool located(EventKind kind) {
  switch (kind) {
    case EventKind::breakpoint: case EventKind::single_step: case EventKind::method_entry: case EventKind::method_exit:
    case EventKind::method_exit_with_return_value: case EventKind::monitor_wait: case EventKind::monitor_waited:
    case EventKind::monitor_contended_enter: case EventKind::monitor_contended_entered: case EventKind::exception:
      return true;
    default:
      return false;
  }
}

// The kinds the reading thread translates by itself (no request, no wait); the pump does the rest.
bool fast_kind(EventKind kind) {
  switch (kind) {
    case EventKind::vm_start: case EventKind::vm_death: case EventKind::thread_start: case EventKind::thread_death:
    case EventKind::breakpoint: case EventKind::single_step: case EventKind::method_entry:
      return true;
    default:
      return false;
  }
}

}  // namespace

// ---- events -------------------------------------------------------------------------------

// The pump's way in (may block while the queue is full; only the pump calls it, and the
// pump never holds the reading role while it waits here).
void JdwpVm::push_event(core::VmEvent event) {
  {
    std::unique_lock lock(events_mutex_);
    events_cv_.wait(lock, [&] { return events_.size() < options_.event_queue_capacity || ended_; });
    events_.push_back(std::move(event));
  }
  events_cv_.notify_all();
  client_->wake_reader();  // the technique may be reading the socket in next_event()
}

void JdwpVm::arm() {
  // Under the lock: the destructor sets stopping_ before it lets go of the client, and a
  // queued event set handed out while the session closes must not re-arm a dying client.
  std::lock_guard lock(slow_mutex_);
  if (stopping_) return;
  // No deadline: the waiter lives as long as the session (no timer armed per event set).
  client_->async_next_event(Clock::time_point::max(),
                            [this](util::Result<EventSet> set) { on_event_set(std::move(set)); });
}

std::optional<core::Frame> JdwpVm::resolve_cached(const Location& location) {
  std::lock_guard lock(mutex_);
  auto sig = signatures_.find(location.class_id.value);
  auto methods = methods_.find(location.class_id.value);
  auto table = line_tables_.find({location.class_id.value, location.method.value});
  if (sig == signatures_.end() || methods == methods_.end() || table == line_tables_.end()) return std::nullopt;
  core::Frame frame;
  frame.class_name = java_name(sig->second);
  for (const auto& m : methods->second) {
    if (m.id == location.method) {
      frame.method = m.name;
      frame.signature = m.signature;
    }
  }
  std::int64_t best = -1;
  for (const auto& l : table->second.lines) {
    if (l.code_index <= static_cast<std::int64_t>(location.index) && l.code_index >= best) {
      best = l.code_index;
      frame.line = l.line;
    }
  }
  return frame;
}

// The reading thread's path: only what needs no request and no wait.
std::optional<std::vector<core::VmEvent>> JdwpVm::translate_fast(const EventSet& set) {
  std::vector<core::VmEvent> out;
  const std::uint64_t set_id = next_set_id_++;
  for (const auto& e : set.events) {
    core::VmEvent v;
    v.set_id = set_id;
    v.thread.id = e.thread.value;
    v.suspended = set.suspend != SuspendPolicy::none;
    if (e.request_id != 0) {
      std::lock_guard lock(mutex_);
      auto it = by_jdwp_.find(e.request_id);
      if (it == by_jdwp_.end()) return std::nullopt;
      v.handle = it->second;
    }
    if (!fast_kind(e.kind)) return std::nullopt;
    v.kind = *core_kind(e.kind);
    if (located(e.kind)) {
      auto frame = resolve_cached(e.location);
      if (!frame) return std::nullopt;
      v.frame = std::move(*frame);
    }
    out.push_back(std::move(v));
  }
  return out;
}

void JdwpVm::on_event_set(util::Result<EventSet> set) {
  if (!set && set.error().code == Errc::timeout) {
    arm();
    return;
  }
  if (set) {
    if (auto events = translate_fast(*set)) {
      std::unique_lock lock(events_mutex_);
      if (events_.size() + events->size() <= options_.event_queue_capacity) {
        for (auto& e : *events) events_.push_back(std::move(e));
        lock.unlock();
        events_cv_.notify_all();
        arm();
        return;
      }
    }
  }
  {
    std::lock_guard lock(slow_mutex_);
    slow_.push_back(std::move(set));
  }
  slow_cv_.notify_all();
}

void JdwpVm::pump() {
  for (;;) {
    util::Result<EventSet> set = util::fail(Errc::cancelled, "");
    {
      std::unique_lock lock(slow_mutex_);
      slow_cv_.wait(lock, [&] { return !slow_.empty() || stopping_; });
      if (slow_.empty()) return;
      set = std::move(slow_.front());
      slow_.pop_front();
    }
    if (!set) {
      core::VmEvent end;
      end.kind = core::EventKind::disconnected;
      {
        std::lock_guard lock(events_mutex_);
        events_.push_back(std::move(end));  // past the bound on purpose: it is the last one
        ended_ = true;
      }
      events_cv_.notify_all();
      client_->wake_reader();
      return;
    }
    process(*set);
    arm();
  }
}

void JdwpVm::process(const EventSet& event_set) {
  const EventSet* set = &event_set;
  {
    const Deadline deadline = Clock::now() + std::chrono::seconds(30);
    bool delivered = false;
    std::optional<ObjectId> internal_stop;
    const std::uint64_t set_id = next_set_id_++;
    for (const auto& e : set->events) {
      core::VmEvent out;
      out.set_id = set_id;
      out.thread.id = e.thread.value;
      out.suspended = set->suspend != SuspendPolicy::none;
      const core::RequestHandle handle = handle_for(e.request_id);
      out.handle = handle;
      const auto kind = core_kind(e.kind);
      if (!kind) continue;
      out.kind = *kind;
      if (e.kind == EventKind::class_prepare) {
        out.class_name = java_name(e.signature);
        bool is_breakpoint = false;
        {
          std::lock_guard lock(mutex_);
          auto it = requests_.find(handle);
          is_breakpoint = it != requests_.end() && it->second.breakpoint;
        }
        if (is_breakpoint) {
          // Ours: the prepared class gets the breakpoint; the technique never sees the stop.
          internal_stop = e.thread;
          if (auto ok = install_breakpoint(handle, e.type, deadline); !ok) {
            log()->warn("breakpoint in {} not installed: {}", out.class_name, ok.error().message);
          }
          continue;
        }
      }
      if (located(e.kind)) {
        auto frame = resolve(e.location, deadline);
        if (frame) out.frame = std::move(*frame);
        else log()->debug("cannot resolve an event location: {}", frame.error().message);
        out.object.id = e.object.bits;
      }
      delivered = true;
      push_event(std::move(out));
    }
    // A stop that served only our own bookkeeping is not the technique's to resume.
    if (!delivered && internal_stop && set->suspend != SuspendPolicy::none) {
      util::Result<void> ok;
      if (set->suspend == SuspendPolicy::all) {
        auto r = client_->call<VmResume>({}, deadline);
        if (!r) ok = std::unexpected(r.error());
      } else {
        auto r = client_->call<TrResume>({*internal_stop}, deadline);
        if (!r) ok = std::unexpected(r.error());
      }
      if (!ok) log()->debug("resume after class prepare: {}", ok.error().message);
    }
  }
}

util::Result<core::VmEvent> JdwpVm::next_event(Deadline deadline) {
  std::unique_lock lock(events_mutex_);
  if (events_.empty() && !ended_) {
    // Read the socket on this thread while nobody else does (policy in jdwp_vm.hpp): the
    // set is translated here by on_event_set() and queued, with no hand-off. The queue is
    // empty, so the fast path never finds it full, and the pump never blocks this thread.
    lock.unlock();
    client_->read_until(
        [this] {
          std::lock_guard guard(events_mutex_);
          return !events_.empty() || ended_;
        },
        deadline);
    lock.lock();
  }
  if (!events_cv_.wait_until(lock, deadline, [&] { return !events_.empty() || ended_; })) {
    return fail(Errc::timeout, "no event before the deadline");
  }
  if (events_.empty()) return fail(Errc::disconnected, "the VM session has ended");
  core::VmEvent e = std::move(events_.front());
  events_.pop_front();
  events_cv_.notify_all();
  return e;
}

}  // namespace flakescan::jdwp
