#include "looper_trace/message_recorder.hpp"

#include <algorithm>

namespace flakescan::looper_trace {

MessageRecorder::MessageRecorder(LooperSession& session, std::string test) : session_(session) {
  trace_.test = std::move(test);
}

util::Result<void> MessageRecorder::start(core::Deadline deadline) {
  const auto& hook = session_.hook();
  auto bp = session_.vm().set_breakpoint({.class_name = hook.dispatch_class, .method = hook.dispatch_method,
                                          .signature = hook.dispatch_signature, .line = 0,
                                          .suspend = core::SuspendMode::thread}, deadline);
  if (!bp) return std::unexpected(bp.error());
  dispatch_bp_ = *bp;
  auto start = session_.vm().set_breakpoint({.class_name = "java.lang.Thread", .method = "start", .signature = "()V",
                                             .line = 0, .suspend = core::SuspendMode::thread}, deadline);
  if (!start) return std::unexpected(start.error());
  start_bp_ = *start;
  return {};
}

double MessageRecorder::now_ms() const {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - origin_).count();
}

int MessageRecorder::thread_index(core::ThreadRef thread, core::Deadline deadline) {
  auto it = threads_.find(thread.id);
  if (it != threads_.end()) return it->second;
  int index = int(trace_.threads.size());
  auto started = started_in_.find(thread.id);
  trace_.threads.push_back({session_.role_of(thread), session_.thread_name(thread, deadline),
                            started == started_in_.end() ? -1 : started->second});
  threads_[thread.id] = index;
  return index;
}

util::Result<std::optional<size_t>> MessageRecorder::on_send(const core::VmEvent& event, int statement_line,
                                                             core::Deadline deadline) {
  if (!session_.started()) return std::optional<size_t>{};
  auto& vm = session_.vm();
  auto queue = vm.this_object(event.thread, 0, deadline);
  if (!queue) return std::unexpected(queue.error());
  auto args = vm.arguments(event.thread, 0, deadline);
  if (!args) return std::unexpected(args.error());
  if (args->size() < 2) return util::fail(util::Errc::unsupported, "the enqueue hook has no (message, when) arguments");
  auto frames = vm.stack(event.thread, 0, deadline);
  if (!frames) return std::unexpected(frames.error());
  const double at = now_ms();

  Message m;
  m.sender = thread_index(event.thread, deadline);
  m.when = (*args)[1].integer;
  m.sent_at_ms = at;
  m.identity.statement_line = statement_line;
  m.identity.role = trace_.threads[size_t(m.sender)].role;
  m.identity.stack = stable_stack(*frames);
  m.identity.occurrence = occurrences_.next(m.identity.role, m.identity.stack);
  auto delayed = std::find_if(frames->begin(), frames->end(), [](const core::Frame& f) {
    return f.class_name == "android.os.Handler" && f.method == "sendMessageDelayed";
  });
  if (delayed != frames->end()) {
    auto outer = vm.arguments(event.thread, int(delayed - frames->begin()), deadline);
    if (outer && outer->size() >= 2) {
      m.delay_ms = std::max<std::int64_t>(0, (*outer)[1].integer);
      uptime_base_ = double(m.when - m.delay_ms) - at;
    }
  } else if (m.when != 0 && uptime_base_) {
    m.delay_ms = std::max<std::int64_t>(0, m.when - std::int64_t(*uptime_base_ + at));
  }
  if (*queue == session_.main_queue() && session_.main_thread())
    m.handler = thread_index(session_.main_thread(), deadline);
  else if (auto known = queue_thread_.find(queue->id); known != queue_thread_.end())
    m.handler = known->second;
  size_t index = trace_.messages.size();
  trace_.messages.push_back(std::move(m));
  queue_of_.push_back(queue->id);
  if (!(*args)[0].object) return std::optional<size_t>{index};
  pending_[(*args)[0].object.id] = index;
  return std::optional<size_t>{index};
}

util::Result<void> MessageRecorder::on_thread_start(const core::VmEvent& event, core::Deadline deadline) {
  if (!session_.started()) return {};
  auto started = session_.vm().this_object(event.thread, 0, deadline);
  if (!started) return std::unexpected(started.error());
  int in = -1;
  if (auto d = dispatching_.find(event.thread.id); d != dispatching_.end()) in = int(d->second);
  else if (auto s = started_in_.find(event.thread.id); s != started_in_.end()) in = s->second;
  if (in >= 0) started_in_[started->id] = in;  // a thread's id is its Thread object's id
  started_.push_back(core::ThreadRef{started->id});
  return {};
}

util::Result<bool> MessageRecorder::started_threads_busy(core::Deadline deadline) {
  for (auto thread : started_) {
    auto status = session_.vm().thread_status(thread, deadline);
    if (!status) {
      if (status.error().code == util::Errc::disconnected) return std::unexpected(status.error());
      continue;  // collected: it has ended
    }
    switch (status->state) {
      case core::ThreadState::running:
      case core::ThreadState::sleeping:
      case core::ThreadState::unknown: return true;
      default: break;
    }
  }
  return false;
}

bool MessageRecorder::main_queue_dispatched() const {
  for (size_t i = 0; i < trace_.messages.size(); ++i)
    if (queue_of_[i] == session_.main_queue().id && !trace_.messages[i].dispatched_at_ms) return false;
  return true;
}

util::Result<std::optional<size_t>> MessageRecorder::on_dispatch(const core::VmEvent& event, core::Deadline deadline) {
  auto args = session_.vm().arguments(event.thread, 0, deadline);
  if (!args) return std::unexpected(args.error());
  if (args->empty() || !(*args)[0].object) return std::optional<size_t>{};
  auto it = pending_.find((*args)[0].object.id);
  if (it == pending_.end()) return std::optional<size_t>{};
  size_t index = it->second;
  pending_.erase(it);
  int thread = thread_index(event.thread, deadline);
  auto& m = trace_.messages[index];
  m.handler = thread;
  m.dispatched_at_ms = now_ms();
  dispatching_[event.thread.id] = index;
  queue_thread_[queue_of_[index]] = thread;
  return std::optional<size_t>{index};
}

MessageTrace MessageRecorder::finish() {
  for (size_t i = 0; i < trace_.messages.size(); ++i) {
    auto& m = trace_.messages[i];
    if (m.handler >= 0) continue;
    if (auto known = queue_thread_.find(queue_of_[i]); known != queue_thread_.end()) m.handler = known->second;
  }
  return trace_;
}

}  // namespace flakescan::looper_trace
