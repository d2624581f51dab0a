#pragma once
// The EventRequest and Event command sets: requests with their modifiers, and the
// composite event packets the VM sends on its own.
//
// EventRequest.Set request:  byte kind | byte suspend_policy | int n | n x modifier
//   modifier: byte mod_kind | payload by kind (Count: int; ThreadOnly: threadID;
//   ClassOnly: referenceTypeID; ClassMatch/ClassExclude/SourceNameMatch: string;
//   LocationOnly: location; ExceptionOnly: referenceTypeID bool bool; FieldOnly:
//   referenceTypeID fieldID; Step: threadID int size int depth; InstanceOnly: objectID;
//   Conditional: int)
// Event.Composite (command 64/100, sent by the VM):
//   byte suspend_policy | int n | n x (byte kind | int request_id | payload by kind)
//   VMStart, ThreadStart, ThreadDeath: threadID
//   SingleStep, Breakpoint, MethodEntry, MethodExit: threadID location
//   MethodExitWithReturnValue: threadID location value
//   MonitorContendedEnter(ed): threadID tagged-object location
//   MonitorWait: threadID tagged-object location long timeout
//   MonitorWaited: threadID tagged-object location bool timed_out
//   Exception: threadID location tagged-object catch_location
//   ClassPrepare: threadID byte ref_type_tag referenceTypeID string signature int status
//   ClassUnload: string signature
//   FieldAccess: threadID location byte tag referenceTypeID fieldID tagged-object
//   FieldModification: as FieldAccess, then value
//   VMDeath: nothing
// An unknown kind makes the whole packet malformed (its size is unknowable): the session
// drops that one packet and goes on.
#include <cstdint>
#include <string>
#include <vector>

#include "jdwp/commands.hpp"

namespace flakescan::jdwp {

enum class EventKind : std::uint8_t {
  single_step = 1, breakpoint = 2, frame_pop = 3, exception = 4, user_defined = 5,
  thread_start = 6, thread_death = 7, class_prepare = 8, class_unload = 9, class_load = 10,
  field_access = 20, field_modification = 21, exception_catch = 30, method_entry = 40,
  method_exit = 41, method_exit_with_return_value = 42, monitor_contended_enter = 43,
  monitor_contended_entered = 44, monitor_wait = 45, monitor_waited = 46, vm_start = 90,
  vm_death = 99, vm_disconnected = 100,
};
const char* event_kind_name(EventKind kind);

enum class ModKind : std::uint8_t {
  count = 1, conditional = 2, thread_only = 3, class_only = 4, class_match = 5,
  class_exclude = 6, location_only = 7, exception_only = 8, field_only = 9, step = 10,
  instance_only = 11, source_name_match = 12,
};

enum class StepSize : std::int32_t { min = 0, line = 1 };
enum class StepDepth : std::int32_t { into = 0, over = 1, out = 2 };

// One modifier; only the members its kind uses are on the wire.
struct Modifier {
  ModKind kind = ModKind::count;
  std::int32_t count = 0;         // count, conditional (expression id)
  ObjectId object;                // thread_only, step (thread), instance_only
  ReferenceTypeId type;           // class_only, exception_only, field_only
  std::string pattern;            // class_match, class_exclude, source_name_match
  Location location;              // location_only
  bool caught = false, uncaught = false;  // exception_only
  FieldId field;                  // field_only
  std::int32_t step_size = 0, step_depth = 0;  // step

  static Modifier count_of(std::int32_t n) { Modifier m; m.kind = ModKind::count; m.count = n; return m; }
  static Modifier thread_only(ObjectId t) { Modifier m; m.kind = ModKind::thread_only; m.object = t; return m; }
  static Modifier class_only(ReferenceTypeId c) { Modifier m; m.kind = ModKind::class_only; m.type = c; return m; }
  static Modifier class_match(std::string p) { Modifier m; m.kind = ModKind::class_match; m.pattern = std::move(p); return m; }
  static Modifier class_exclude(std::string p) { Modifier m; m.kind = ModKind::class_exclude; m.pattern = std::move(p); return m; }
  static Modifier location_only(Location l) { Modifier m; m.kind = ModKind::location_only; m.location = l; return m; }
  static Modifier instance_only(ObjectId o) { Modifier m; m.kind = ModKind::instance_only; m.object = o; return m; }
  static Modifier step(ObjectId t, StepSize size, StepDepth depth) {
    Modifier m; m.kind = ModKind::step; m.object = t;
    m.step_size = static_cast<std::int32_t>(size); m.step_depth = static_cast<std::int32_t>(depth);
    return m;
  }

  static void fields(Writer& w, const Modifier& m);
  static void fields(Reader& r, Modifier& m);
  friend bool operator==(const Modifier&, const Modifier&) = default;
};

struct ErSet {
  static constexpr Command id = Command::EventRequest_Set;
  struct Request {
    EventKind kind = EventKind::breakpoint;
    SuspendPolicy suspend = SuspendPolicy::event_thread;
    std::vector<Modifier> modifiers;
    static void fields(Writer& w, const Request& s);
    static void fields(Reader& r, Request& s);
  };
  using Reply = OneInt;  // the request id
};
struct ErClear {
  static constexpr Command id = Command::EventRequest_Clear;
  struct Request {
    EventKind kind = EventKind::breakpoint;
    std::int32_t request_id = 0;
    static void fields(Writer& w, const Request& s);
    static void fields(Reader& r, Request& s);
  };
  using Reply = Empty;
};
struct ErClearAllBreakpoints { static constexpr Command id = Command::EventRequest_ClearAllBreakpoints; using Request = Empty; using Reply = Empty; };

// One event of a composite; only the members its kind uses are on the wire.
struct Event {
  EventKind kind = EventKind::vm_death;
  std::int32_t request_id = 0;
  ObjectId thread;
  Location location;
  Value object;             // monitor, exception, field owner (tagged-objectID)
  Value value;              // return value, new field value
  Location catch_location;  // exception
  std::int64_t timeout = 0;  // monitor_wait
  bool timed_out = false;    // monitor_waited
  TypeTag type_tag = TypeTag::class_;  // class_prepare, field_*
  ReferenceTypeId type;
  std::string signature;     // class_prepare, class_unload
  std::int32_t status = 0;   // class_prepare
  FieldId field;             // field_*

  static void fields(Writer& w, const Event& e);
  static void fields(Reader& r, Event& e);
  friend bool operator==(const Event&, const Event&) = default;
};

struct EventSet {
  SuspendPolicy suspend = SuspendPolicy::none;
  std::vector<Event> events;
  static void fields(Writer& w, const EventSet& s);
  static void fields(Reader& r, EventSet& s);
};

struct EvComposite {
  static constexpr Command id = Command::Event_Composite;
  using Request = EventSet;  // sent by the VM, as a command packet
  using Reply = Empty;       // never sent
};

}  // namespace flakescan::jdwp
