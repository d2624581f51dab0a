#pragma once
// LooperSession: what tracing and scheduling share about one test JVM under the debugger,
// using only Android's names (so the same code works on ART):
//   * the hook: a method-entry breakpoint on the configured enqueue method (default
//     android.os.MessageQueue.enqueueMessage(Landroid/os/Message;J)Z), thread-suspending;
//   * a line breakpoint on every line of the test method (set when its class is prepared);
//   * the main queue (Looper.sMainLooper.mQueue) and main thread (.mThread), read when the
//     test method starts (every test gets a new main looper);
//   * the testing thread: the one that hits the test method's lines;
//   * the end of the test: the first of the end markers the testing thread enters after the
//     test method started: JUnit 4's RunNotifier.fireTestFinished (AndroidJUnitRunner and the
//     Vintage engine report every test through it) and Thread.setName (MainLooperRule-style
//     rules rename the testing thread after the test). Method-entry breakpoints on the
//     testing thread only, much cheaper than method-exit events; a marker class that is
//     never loaded costs nothing;
//   * on request (watch_main_next, the message scheduler only): method entry of
//     MessageQueue.next() on the main thread, the point where the main looper has handled
//     its last message and asks for the next one. ThreadOnly: other loopers' calls never
//     reach the debugger.
// Policy: every breakpoint suspends only its thread; the session never resumes a thread on
// its own except class-prepare stops; callers decide when threads go on.
#include <optional>
#include <string>
#include <vector>

#include "core/vm.hpp"
#include "looper_trace/identity.hpp"
#include "util/error.hpp"

namespace flakescan::looper_trace {

struct EndMarker {
  std::string class_name;
  std::string method;
};

struct HookConfig {
  std::string class_name = "android.os.MessageQueue";
  std::string method = "enqueueMessage";
  std::string signature = "(Landroid/os/Message;J)Z";
  std::string looper_class = "android.os.Looper";
  // The dispatch step (message traces, docs/explore.md, strategy maxdiff): Handler.dispatchMessage.
  std::string dispatch_class = "android.os.Handler";
  std::string dispatch_method = "dispatchMessage";
  std::string dispatch_signature = "(Landroid/os/Message;)V";
  // The end of a message's handling: the looper's next call of MessageQueue.next() (the
  // hook's class); Looper.loop() asks for a message only after the previous one returned.
  std::string next_method = "next";
  std::string next_signature = "()Landroid/os/Message;";
  std::vector<EndMarker> end_markers = {{"java.lang.Thread", "setName"},
                                        {"org.junit.runner.notification.RunNotifier", "fireTestFinished"}};
};

// "pkg.Class#method" -> class and method.
struct TestMethod {
  std::string class_name;
  std::string method;
  static util::Result<TestMethod> parse(const std::string& test);
};

class LooperSession {
 public:
  enum class Kind { line, hook, end_of_test, main_next, vm_end, other };

  LooperSession(core::Vm& vm, TestMethod test, HookConfig hook);

  // On a VM suspended at start: hook breakpoint, wait for the test class, line breakpoints.
  // Leaves the VM running.
  util::Result<void> start(core::Deadline deadline);

  Kind classify(const core::VmEvent& event) const;
  const std::vector<int>& lines() const { return lines_; }
  int statement_index(int line) const;  // position of the line in lines(), -1 if none

  // First line of the test method: learns the testing thread, the main looper's queue and
  // thread, and arms the end-of-test breakpoint.
  util::Result<void> on_test_started(core::ThreadRef testing, core::Deadline deadline);
  bool started() const { return bool(testing_); }
  core::ThreadRef testing() const { return testing_; }
  core::ThreadRef main_thread() const { return main_thread_; }
  core::ObjectRef main_queue() const { return main_queue_; }
  // The thread's role once the test started (main, testing, or any other: background).
  Role role_of(core::ThreadRef thread) const;
  const HookConfig& hook() const { return hook_; }
  // After on_test_started: a thread-suspending method-entry breakpoint on the queue's
  // next() for the main thread only; its stops classify as Kind::main_next.
  util::Result<void> watch_main_next(core::Deadline deadline);
  // At the first end-of-test stop, the testing thread still suspended there: clears the end
  // markers and next(), so that none of them fires while the debugger detaches. A stop that
  // fires as the VM handles Dispose can leave its thread suspended for good (seen under
  // stress-ng: the testing thread at RunNotifier.fireTestFinished, the second marker, until
  // the run's deadline); next() fires at the end of every main-thread message.
  util::Result<void> on_test_ended(core::Deadline deadline);

  // At a hook stop: the posting thread's role, or nullopt when the queue is not the main one.
  util::Result<std::optional<Role>> role_at_hook(core::ThreadRef thread, core::Deadline deadline);
  util::Result<std::vector<std::string>> posting_stack(core::ThreadRef thread, core::Deadline deadline);
  std::string thread_name(core::ThreadRef thread, core::Deadline deadline);

  // The main queue has no due message: no message, or the looper blocked in next().
  util::Result<bool> main_queue_idle(core::Deadline deadline);
  // The testing thread is in Object.wait / park or blocked on a monitor.
  util::Result<bool> testing_waiting(core::Deadline deadline);

  // Resumes the event's thread if the event left it suspended (once per event set); class
  // prepare and VMStart suspend every thread and are resumed VM-wide.
  util::Result<void> resume(const core::VmEvent& event, core::Deadline deadline);
  // Notified (no suspension) when `thread` leaves the hook method; clear() it afterwards.
  util::Result<core::RequestHandle> watch_hook_exit(core::ThreadRef thread, core::Deadline deadline);
  bool is_hook_exit(const core::VmEvent& event, core::RequestHandle watch) const;
  core::Vm& vm() { return vm_; }

 private:
  core::Vm& vm_;
  TestMethod test_;
  HookConfig hook_;
  std::vector<int> lines_;
  core::RequestHandle prepare_watch_ = 0;
  core::RequestHandle hook_bp_ = 0;
  core::RequestHandle next_bp_ = 0;
  std::vector<core::RequestHandle> end_bps_;
  std::vector<core::RequestHandle> line_bps_;
  core::ThreadRef testing_;
  core::ObjectRef main_queue_;
  core::ThreadRef main_thread_;
  std::uint64_t last_resumed_set_ = 0;
};

}  // namespace flakescan::looper_trace
