#include "looper_trace/looper_session.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace flakescan::looper_trace {

using namespace std::chrono_literals;
using util::Errc;

util::Result<TestMethod> TestMethod::parse(const std::string& test) {
  auto hash = test.find('#');
  if (hash == std::string::npos || hash == 0 || hash + 1 == test.size())
    return util::fail(Errc::invalid_argument, "not a method-level test id: " + test);
  return TestMethod{test.substr(0, hash), test.substr(hash + 1)};
}

LooperSession::LooperSession(core::Vm& vm, TestMethod test, HookConfig hook)
    : vm_(vm), test_(std::move(test)), hook_(std::move(hook)) {}

util::Result<void> LooperSession::start(core::Deadline deadline) {
  auto hook = vm_.set_breakpoint({.class_name = hook_.class_name, .method = hook_.method, .signature = hook_.signature,
                                  .line = 0, .suspend = core::SuspendMode::thread}, deadline);
  if (!hook) return std::unexpected(hook.error());
  hook_bp_ = *hook;
  auto watch = vm_.watch({.kind = core::WatchKind::class_prepare, .class_pattern = test_.class_name,
                          .suspend = core::SuspendMode::all}, deadline);
  if (!watch) return std::unexpected(watch.error());
  prepare_watch_ = *watch;
  // A VM attached late (a device's runner waiting for the debugger) may have loaded the
  // test class already; a VM launched suspended has not.
  auto lines = vm_.lines(test_.class_name, test_.method, "", deadline);
  if (!lines && lines.error().code != Errc::not_found) return std::unexpected(lines.error());
  if (!lines) {
    if (auto r = vm_.resume_all(deadline); !r) return r;
    while (true) {
      auto ev = vm_.next_event(deadline);
      if (!ev) return std::unexpected(ev.error());
      if (ev->kind == core::EventKind::vm_death || ev->kind == core::EventKind::disconnected)
        return util::fail(Errc::process, "the JVM ended before " + test_.class_name + " was loaded");
      if (ev->kind == core::EventKind::class_prepare && ev->handle == prepare_watch_) break;
      if (auto r = resume(*ev, deadline); !r) return r;  // a hook hit before the test class: not ours
    }
    lines = vm_.lines(test_.class_name, test_.method, "", deadline);
    if (!lines) return std::unexpected(lines.error());
  }
  (void)vm_.clear(prepare_watch_, deadline);
  if (lines->empty())
    return util::fail(Errc::unsupported, test_.class_name + "." + test_.method + " has no line table (compile with -g)");
  lines_ = *lines;
  for (int line : lines_) {
    auto bp = vm_.set_breakpoint({.class_name = test_.class_name, .method = test_.method, .line = line,
                                  .suspend = core::SuspendMode::thread}, deadline);
    if (!bp) return std::unexpected(bp.error());
    line_bps_.push_back(*bp);
  }
  return vm_.resume_all(deadline);
}

LooperSession::Kind LooperSession::classify(const core::VmEvent& event) const {
  switch (event.kind) {
    case core::EventKind::vm_death:
    case core::EventKind::disconnected: return Kind::vm_end;
    case core::EventKind::breakpoint:
      if (event.handle == hook_bp_) return Kind::hook;
      if (next_bp_ && event.handle == next_bp_) return Kind::main_next;
      if (std::find(end_bps_.begin(), end_bps_.end(), event.handle) != end_bps_.end()) return Kind::end_of_test;
      if (std::find(line_bps_.begin(), line_bps_.end(), event.handle) != line_bps_.end()) return Kind::line;
      return Kind::other;
    default: return Kind::other;
  }
}

int LooperSession::statement_index(int line) const {
  auto it = std::find(lines_.begin(), lines_.end(), line);
  return it == lines_.end() ? -1 : int(it - lines_.begin());
}

util::Result<void> LooperSession::on_test_started(core::ThreadRef testing, core::Deadline deadline) {
  testing_ = testing;
  auto statics = vm_.static_fields(hook_.looper_class, deadline);
  if (!statics) return std::unexpected(statics.error());
  auto main = std::find_if(statics->begin(), statics->end(), [](const core::StaticField& f) { return f.name == "sMainLooper"; });
  if (main == statics->end() || !main->value.object)
    return util::fail(Errc::not_found, "no main looper while the test runs (" + hook_.looper_class + ".sMainLooper is null)");
  auto queue = vm_.get_field(main->value.object, "mQueue", deadline);
  if (!queue) return std::unexpected(queue.error());
  auto thread = vm_.get_field(main->value.object, "mThread", deadline);
  if (!thread) return std::unexpected(thread.error());
  main_queue_ = queue->object;
  main_thread_ = core::ThreadRef{thread->object.id};
  for (const auto& marker : hook_.end_markers) {
    auto end = vm_.set_breakpoint({.class_name = marker.class_name, .method = marker.method, .line = 0,
                                   .suspend = core::SuspendMode::thread, .only_thread = testing}, deadline);
    if (!end) return std::unexpected(end.error());
    end_bps_.push_back(*end);
  }
  return {};
}

util::Result<void> LooperSession::watch_main_next(core::Deadline deadline) {
  if (!main_thread_) return util::fail(Errc::invalid_argument, "the main thread is known only once the test started");
  auto bp = vm_.set_breakpoint({.class_name = hook_.class_name, .method = hook_.next_method,
                                .signature = hook_.next_signature, .line = 0, .suspend = core::SuspendMode::thread,
                                .only_thread = main_thread_}, deadline);
  if (!bp) return std::unexpected(bp.error());
  next_bp_ = *bp;
  return {};
}

util::Result<void> LooperSession::on_test_ended(core::Deadline deadline) {
  auto handles = std::exchange(end_bps_, {});
  if (next_bp_) handles.push_back(std::exchange(next_bp_, 0));
  for (auto handle : handles)
    if (auto r = vm_.clear(handle, deadline); !r) return r;
  return {};
}

util::Result<std::optional<Role>> LooperSession::role_at_hook(core::ThreadRef thread, core::Deadline deadline) {
  if (!main_queue_) return std::optional<Role>{};
  auto self = vm_.this_object(thread, 0, deadline);
  if (!self) return std::unexpected(self.error());
  if (*self != main_queue_) return std::optional<Role>{};
  return std::optional<Role>{role_of(thread)};
}

Role LooperSession::role_of(core::ThreadRef thread) const {
  if (thread == main_thread_) return Role::main;
  if (thread == testing_) return Role::testing;
  return Role::background;
}

util::Result<std::vector<std::string>> LooperSession::posting_stack(core::ThreadRef thread, core::Deadline deadline) {
  auto frames = vm_.stack(thread, 0, deadline);
  if (!frames) return std::unexpected(frames.error());
  return stable_stack(*frames);
}

std::string LooperSession::thread_name(core::ThreadRef thread, core::Deadline deadline) {
  auto all = vm_.threads(deadline);
  if (!all) return "";
  for (const auto& t : *all)
    if (t.thread == thread) return t.name;
  return "";
}

util::Result<bool> LooperSession::main_queue_idle(core::Deadline deadline) {
  if (!main_queue_) return true;
  auto head = vm_.get_field(main_queue_, "mMessages", deadline);
  if (!head) return std::unexpected(head.error());
  if (!head->object) return true;
  auto blocked = vm_.get_field(main_queue_, "mBlocked", deadline);
  if (!blocked) return std::unexpected(blocked.error());
  return blocked->integer != 0;  // waiting in next() with a message queued: none is due
}

util::Result<bool> LooperSession::testing_waiting(core::Deadline deadline) {
  if (!testing_) return false;
  auto status = vm_.thread_status(testing_, deadline);
  if (!status) return std::unexpected(status.error());
  return status->state == core::ThreadState::waiting || status->state == core::ThreadState::monitor;
}

util::Result<void> LooperSession::resume(const core::VmEvent& event, core::Deadline deadline) {
  if (!event.suspended) return {};
  if (event.set_id != 0 && event.set_id == last_resumed_set_) return {};
  last_resumed_set_ = event.set_id;
  // Class-prepare stops and the agent's VMStart (suspend=y) suspend every thread.
  if (event.kind == core::EventKind::class_prepare || event.kind == core::EventKind::vm_start)
    return vm_.resume_all(deadline);
  return vm_.resume(event.thread, deadline);
}

util::Result<core::RequestHandle> LooperSession::watch_hook_exit(core::ThreadRef thread, core::Deadline deadline) {
  return vm_.watch({.kind = core::WatchKind::method_exit, .class_pattern = hook_.class_name,
                    .suspend = core::SuspendMode::none, .only_thread = thread}, deadline);
}

bool LooperSession::is_hook_exit(const core::VmEvent& event, core::RequestHandle watch) const {
  return event.kind == core::EventKind::method_exit && event.handle == watch && event.frame.method == hook_.method;
}

}  // namespace flakescan::looper_trace
