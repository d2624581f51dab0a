#pragma once
// core::Vm: the debugger controller every state-inspecting technique drives (docs/jdwp.md:
// "a debugger session on the process that runs them"). Techniques see classes, methods,
// lines, threads and values; never packets, ids sizes or sockets. The implementation is
// jdwp::JdwpVm (daemon/jdwp/jdwp_vm.hpp), the same for HotSpot (local backend) and ART
// (adb backend, `jdwp:<pid>`).
//
// Threading and blocking policy
//   * Every call blocks the calling thread until the VM answered or `deadline` passed
//     (Errc::timeout). Call it from a technique's worker thread, never from an io thread.
//   * Calls may come from several threads at once; each is one or a few JDWP requests.
//   * Once the VM is gone (exit, crash, kill, socket closed) every call, including ones
//     already waiting, fails promptly with Errc::disconnected; next_event() first delivers
//     the vm_death / disconnected event, then fails with Errc::disconnected.
//
// Events
//   Events come out of one bounded queue, in the order the VM sent them, through
//   next_event(). A breakpoint with SuspendMode::thread leaves the hitting thread suspended
//   (SuspendMode::all: every thread); the technique resumes it with resume(thread) or
//   resume_all() when it is done looking. A technique that stops calling next_event() while
//   events keep coming eventually stalls the VM (back-pressure), never loses events.
//   Internal bookkeeping events (class prepares for deferred breakpoints) are consumed
//   inside and not delivered unless asked for with watch().
//
// Names
//   Classes are Java binary names: "com.example.Outer$Inner", "java.util.HashMap".
//   Method signatures are JNI descriptors: "(Landroid/os/Message;J)Z"; empty means "the
//   only method of that name" (ambiguous overloads are Errc::invalid_argument).
//
// Typical uses
//   Event-order exploration (issue 5):
//     set_breakpoint({.class_name = test_class, .method = "testX", .line = L}) for each line
//     of the test method (lines(test_class, "testX")); a method-entry breakpoint on
//     {.class_name = "android.os.MessageQueue", .method = "enqueueMessage",
//      .signature = "(Landroid/os/Message;J)Z"}; on each hit read stack(thread) (the
//     posting thread's (class, method, line) frames), this_object()/arguments() for the
//     queue and the Message, get_field(queue, "mMessages"); suspend(poster) and watch
//     thread_status(testing_thread).state == ThreadState::waiting/monitor.
//   Order-dependent repair (ODRepair):
//     loaded_classes(); walk_statics(class, bounds) before the victim in the failing and
//     passing orders; diff the graphs; set_static_field(class, field, value) to restore a
//     value; invoke_static / invoke_method (on a thread suspended at a breakpoint) to run
//     reset methods and candidate cleaners.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util/error.hpp"

namespace flakescan::core {

using Deadline = std::chrono::steady_clock::time_point;

inline Deadline deadline_in(std::chrono::milliseconds ms) { return std::chrono::steady_clock::now() + ms; }

struct ThreadRef {
  std::uint64_t id = 0;  // runtime id: stable within one VM session only
  explicit operator bool() const { return id != 0; }
  friend auto operator<=>(const ThreadRef&, const ThreadRef&) = default;
};

struct ObjectRef {
  std::uint64_t id = 0;  // 0 is null
  explicit operator bool() const { return id != 0; }
  friend auto operator<=>(const ObjectRef&, const ObjectRef&) = default;
};

// A Java value. References carry the object id and a coarse kind so that a walker knows
// whether it is a string or an array without asking the VM.
struct Value {
  enum class Kind { void_, boolean, byte_, char_, short_, int_, long_, float_, double_, object, string, array, null };
  Kind kind = Kind::void_;
  std::int64_t integer = 0;  // boolean (0/1), byte, char, short, int, long
  double floating = 0;       // float, double
  ObjectRef object;          // object, string, array

  static Value of_bool(bool b) { return {Kind::boolean, b ? 1 : 0, 0, {}}; }
  static Value of_int(std::int32_t v) { return {Kind::int_, v, 0, {}}; }
  static Value of_long(std::int64_t v) { return {Kind::long_, v, 0, {}}; }
  static Value of_double(double v) { return {Kind::double_, 0, v, {}}; }
  static Value of_object(ObjectRef o) { return {o ? Kind::object : Kind::null, 0, 0, o}; }
  static Value null() { return {Kind::null, 0, 0, {}}; }
  bool is_reference() const { return kind == Kind::object || kind == Kind::string || kind == Kind::array; }
  friend bool operator==(const Value&, const Value&) = default;
};

// One stack frame as techniques see it. line is -1 when the class has no line table.
struct Frame {
  std::string class_name;  // "com.example.FooTest"
  std::string method;      // "testLoad"
  std::string signature;   // "()V"
  int line = -1;
  friend bool operator==(const Frame&, const Frame&) = default;
};

enum class ThreadState { zombie, running, sleeping, monitor, waiting, unknown };
const char* thread_state_name(ThreadState state);

struct ThreadStatus {
  ThreadState state = ThreadState::unknown;
  bool suspended = false;  // suspended by the debugger (any suspend count > 0)
};

struct ThreadInfo {
  ThreadRef thread;
  std::string name;
};

enum class SuspendMode { none, thread, all };

// A breakpoint. line == 0: method entry (first instruction); line > 0: that source line
// (the first code index of the line). An empty `method` with line > 0 means "whichever
// method of the class holds that line". Classes not loaded yet are fine: the breakpoint is
// installed when the class is prepared, before any of its code runs.
struct BreakpointSpec {
  std::string class_name;
  std::string method;
  std::string signature;
  int line = 0;
  SuspendMode suspend = SuspendMode::thread;
  ThreadRef only_thread;  // fire only on this thread (0: any)
  int count = 0;          // 0: every hit; n > 0: only the n-th hit, then expire
};

// Other events a technique can ask for; class_pattern is a JDWP ClassMatch pattern
// ("com.example.*", "*.Foo"), empty for all classes.
enum class WatchKind { class_prepare, thread_start, thread_death, method_entry, method_exit, monitor_wait, monitor_waited, exception };
struct WatchSpec {
  WatchKind kind = WatchKind::thread_start;
  std::string class_pattern;
  SuspendMode suspend = SuspendMode::none;
  ThreadRef only_thread;
};

using RequestHandle = std::int32_t;  // handle of a breakpoint or a watch; > 0

enum class EventKind {
  vm_start, vm_death, disconnected, breakpoint, class_prepare, thread_start, thread_death,
  method_entry, method_exit, monitor_wait, monitor_waited, exception, single_step,
};
const char* event_kind_name(EventKind kind);

struct VmEvent {
  EventKind kind = EventKind::vm_start;
  RequestHandle handle = 0;  // the breakpoint or watch that produced it (0 for vm_* events)
  ThreadRef thread;
  Frame frame;               // where it happened (breakpoint, step, method_*, monitor_*, exception)
  std::string class_name;    // class_prepare
  ObjectRef object;          // monitor_* (the monitor), exception (the throwable)
  bool suspended = false;    // whether this event left the thread (or the VM) suspended
  // Events the VM reports together (two breakpoints on one line, a breakpoint and a step)
  // share one suspension and one set id: resume once per set, not once per event.
  std::uint64_t set_id = 0;
};

struct StaticField {
  std::string name;
  std::string signature;  // JNI type: "I", "Ljava/util/Map;"
  bool is_final = false;
  Value value;
};

// Bounds of an object-graph walk. Objects past a bound are listed but not expanded, and
// the node is marked truncated, so two walks under the same bounds are comparable.
struct GraphBounds {
  int max_depth = 6;             // edges from a root
  int max_objects = 5000;        // nodes expanded in one walk
  int max_array_elements = 256;  // elements read per array
  int max_string_length = 1024;  // characters kept per string
};

struct HeapNode {
  enum class Kind { object, array, string };
  ObjectRef id;
  Kind kind = Kind::object;
  std::string class_name;                                // "java.util.HashMap", "int[]"
  std::string text;                                      // strings (cut to the bound)
  std::vector<std::pair<std::string, Value>> fields;     // instance fields, superclasses' too
  std::vector<Value> elements;                           // arrays (up to the bound)
  std::int32_t length = 0;                               // arrays: full length
  bool truncated = false;                                // not (fully) expanded
};

// Nodes keyed by object id: shared objects and cycles appear once.
struct HeapGraph {
  std::vector<std::pair<std::string, Value>> roots;  // "pkg.Class.field" -> value
  std::map<std::uint64_t, HeapNode> nodes;
  bool truncated = false;  // some bound was hit
};

struct InvokeResult {
  Value result;         // void_ for void methods
  ObjectRef exception;  // the thrown exception, 0 when it returned normally
};

class Vm {
 public:
  virtual ~Vm() = default;

  // "OpenJDK 64-Bit Server VM 17.0.15" and the like.
  virtual std::string description() const = 0;
  virtual bool alive() const = 0;

  // ---- breakpoints and events -----------------------------------------------------------
  virtual util::Result<RequestHandle> set_breakpoint(const BreakpointSpec& spec, Deadline deadline) = 0;
  virtual util::Result<RequestHandle> watch(const WatchSpec& spec, Deadline deadline) = 0;
  // Removes a breakpoint or a watch (and a breakpoint still waiting for its class).
  virtual util::Result<void> clear(RequestHandle handle, Deadline deadline) = 0;
  // The next event; Errc::timeout at the deadline, Errc::disconnected after the end.
  virtual util::Result<VmEvent> next_event(Deadline deadline) = 0;

  // ---- threads --------------------------------------------------------------------------
  virtual util::Result<std::vector<ThreadInfo>> threads(Deadline deadline) = 0;
  virtual util::Result<ThreadStatus> thread_status(ThreadRef thread, Deadline deadline) = 0;
  // Frames from the top; max_frames <= 0 means all. The thread must be suspended.
  virtual util::Result<std::vector<Frame>> stack(ThreadRef thread, int max_frames, Deadline deadline) = 0;
  // stack() and then resume(): the thread goes on as soon as its frames are read. A VM may
  // send both commands at once (JDWP: one round trip instead of two). The thread has at
  // least max_frames frames, or max_frames <= 0.
  virtual util::Result<std::vector<Frame>> stack_then_resume(ThreadRef thread, int max_frames, Deadline deadline) {
    auto frames = stack(thread, max_frames, deadline);
    if (!frames) return frames;
    if (auto r = resume(thread, deadline); !r) return std::unexpected(r.error());
    return frames;
  }
  virtual util::Result<void> suspend(ThreadRef thread, Deadline deadline) = 0;
  virtual util::Result<void> resume(ThreadRef thread, Deadline deadline) = 0;
  virtual util::Result<void> suspend_all(Deadline deadline) = 0;
  virtual util::Result<void> resume_all(Deadline deadline) = 0;
  // `this` of the frame (null for static methods) and its arguments, from the method's
  // signature (no debug info needed). The thread must be suspended.
  virtual util::Result<ObjectRef> this_object(ThreadRef thread, int frame_index, Deadline deadline) = 0;
  virtual util::Result<std::vector<Value>> arguments(ThreadRef thread, int frame_index, Deadline deadline) = 0;

  // ---- classes, fields, objects -----------------------------------------------------------
  virtual util::Result<std::vector<std::string>> loaded_classes(Deadline deadline) = 0;
  // The loaded classes whose static initialiser has run: a class that is only loaded still
  // holds the default values of its static fields. Default: loaded_classes().
  virtual util::Result<std::vector<std::string>> initialized_classes(Deadline deadline) { return loaded_classes(deadline); }
  // Source lines with code in `method` (any overload when signature is empty), ascending.
  virtual util::Result<std::vector<int>> lines(const std::string& class_name, const std::string& method,
                                               const std::string& signature, Deadline deadline) = 0;
  virtual util::Result<std::vector<StaticField>> static_fields(const std::string& class_name, Deadline deadline) = 0;
  virtual util::Result<void> set_static_field(const std::string& class_name, const std::string& field, const Value& value,
                                              Deadline deadline) = 0;
  // Instance field by name (searching superclasses too).
  virtual util::Result<Value> get_field(ObjectRef object, const std::string& field, Deadline deadline) = 0;
  virtual util::Result<std::string> class_of(ObjectRef object, Deadline deadline) = 0;
  virtual util::Result<std::string> string_value(ObjectRef string, Deadline deadline) = 0;
  // Walks from the given roots (static field values, locals ...) within bounds.
  virtual util::Result<HeapGraph> walk(const std::vector<std::pair<std::string, Value>>& roots, const GraphBounds& bounds,
                                       Deadline deadline) = 0;
  // walk() rooted at every static field of the class ("pkg.Class.field").
  virtual util::Result<HeapGraph> walk_statics(const std::string& class_name, const GraphBounds& bounds, Deadline deadline) = 0;
  // A new java.lang.String in the VM (kept alive until the session ends).
  virtual util::Result<Value> new_string(const std::string& text, Deadline deadline) = 0;

  // ---- invocation -----------------------------------------------------------------------
  // Runs the method on `thread`, which must be suspended by an event (a breakpoint, a step,
  // a method entry): the JVM's rule. Only that thread runs during the call. The thread is
  // suspended again when the call returns.
  virtual util::Result<InvokeResult> invoke_static(const std::string& class_name, const std::string& method,
                                                   const std::string& signature, const std::vector<Value>& arguments,
                                                   ThreadRef thread, Deadline deadline) = 0;
  virtual util::Result<InvokeResult> invoke_method(ObjectRef object, const std::string& method, const std::string& signature,
                                                   const std::vector<Value>& arguments, ThreadRef thread, Deadline deadline) = 0;

  // ---- end --------------------------------------------------------------------------------
  // Lets the VM go on without the debugger (breakpoints cleared, threads resumed).
  virtual util::Result<void> detach(Deadline deadline) = 0;
  // Asks the VM to exit with `code`.
  virtual util::Result<void> exit(int code, Deadline deadline) = 0;
};

}  // namespace flakescan::core
