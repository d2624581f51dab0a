#include "core/vm.hpp"

namespace flakescan::core {

const char* thread_state_name(ThreadState state) {
  switch (state) {
    case ThreadState::zombie: return "zombie";
    case ThreadState::running: return "running";
    case ThreadState::sleeping: return "sleeping";
    case ThreadState::monitor: return "monitor";
    case ThreadState::waiting: return "waiting";
    case ThreadState::unknown: return "unknown";
  }
  return "unknown";
}

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::vm_start: return "vm_start";
    case EventKind::vm_death: return "vm_death";
    case EventKind::disconnected: return "disconnected";
    case EventKind::breakpoint: return "breakpoint";
    case EventKind::class_prepare: return "class_prepare";
    case EventKind::thread_start: return "thread_start";
    case EventKind::thread_death: return "thread_death";
    case EventKind::method_entry: return "method_entry";
    case EventKind::method_exit: return "method_exit";
    case EventKind::monitor_wait: return "monitor_wait";
    case EventKind::monitor_waited: return "monitor_waited";
    case EventKind::exception: return "exception";
    case EventKind::single_step: return "single_step";
  }
  return "unknown";
}

}  // namespace flakescan::core
