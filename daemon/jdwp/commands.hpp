#pragma once
// One codec struct per JDWP command (the list, with numbers, is protocol.def). Each has a
// Request and a Reply; each of those lists its wire layout once in `fields`, which both
// encodes and decodes (wire.hpp). Layouts follow the JDWP specification, in field order:
//
//   VirtualMachine.Version reply:   string description | int major | int minor | string vm_version | string vm_name
//   ReferenceType.Methods reply:    int n | n x (methodID | string name | string signature | int modifiers)
//   Method.LineTable reply:         long start | long end | int n | n x (long code_index | int line)
//   ClassType.InvokeMethod request: classID | threadID | methodID | int n | n x tagged value | int options
//   ArrayReference.GetValues reply: byte tag | int n | n x (untagged value if primitive tag, else tagged)
//   ...
// Requests that carry untagged values (ClassType/ObjectReference.SetValues) are encode-only:
// their value types live in the class file, not on the wire.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "jdwp/wire.hpp"

namespace flakescan::jdwp {

enum class Command : std::uint16_t {
#define JDWP_COMMAND(set, set_id, cmd, cmd_id, type) set##_##cmd = (set_id << 8) | cmd_id,
#include "jdwp/protocol.def"
#undef JDWP_COMMAND
};
inline constexpr std::uint8_t command_set_of(Command c) { return static_cast<std::uint16_t>(c) >> 8; }
inline constexpr std::uint8_t command_number_of(Command c) { return static_cast<std::uint16_t>(c) & 0xff; }

enum class SuspendPolicy : std::uint8_t { none = 0, event_thread = 1, all = 2 };

enum class ThreadStatus : std::int32_t { zombie = 0, running = 1, sleeping = 2, monitor = 3, wait = 4 };
inline constexpr std::int32_t suspend_status_suspended = 1;

enum class InvokeOptions : std::int32_t { none = 0, single_threaded = 1, nonvirtual = 2 };

struct Empty {
  template <class A, class S>
  static void fields(A&, S&) {}
};

// ---- VirtualMachine -------------------------------------------------------------------------

struct VmVersion {
  static constexpr Command id = Command::VirtualMachine_Version;
  using Request = Empty;
  struct Reply {
    std::string description;
    std::int32_t jdwp_major = 0, jdwp_minor = 0;
    std::string vm_version, vm_name;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.description, s.jdwp_major, s.jdwp_minor, s.vm_version, s.vm_name); }
  };
};

struct ClassRef {  // refTypeTag + referenceTypeID
  TypeTag tag = TypeTag::class_;
  ReferenceTypeId type;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.tag, s.type); }
};

struct VmClassesBySignature {
  static constexpr Command id = Command::VirtualMachine_ClassesBySignature;
  struct Request {
    std::string signature;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.signature); }
  };
  struct Class {
    TypeTag tag = TypeTag::class_;
    ReferenceTypeId type;
    std::int32_t status = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.tag, s.type, s.status); }
  };
  struct Reply {
    std::vector<Class> classes;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.classes); }
  };
};

struct VmAllClasses {
  static constexpr Command id = Command::VirtualMachine_AllClasses;
  using Request = Empty;
  struct Class {
    TypeTag tag = TypeTag::class_;
    ReferenceTypeId type;
    std::string signature;
    std::int32_t status = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.tag, s.type, s.signature, s.status); }
  };
  struct Reply {
    std::vector<Class> classes;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.classes); }
  };
};

struct VmAllClassesWithGeneric {
  static constexpr Command id = Command::VirtualMachine_AllClassesWithGeneric;
  using Request = Empty;
  struct Class {
    TypeTag tag = TypeTag::class_;
    ReferenceTypeId type;
    std::string signature, generic_signature;
    std::int32_t status = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.tag, s.type, s.signature, s.generic_signature, s.status); }
  };
  struct Reply {
    std::vector<Class> classes;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.classes); }
  };
};

struct ObjectList {
  std::vector<ObjectId> objects;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.objects); }
};
struct TypeList {
  std::vector<ReferenceTypeId> types;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.types); }
};
struct OneObject {
  ObjectId object;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.object); }
};
struct OneType {
  ReferenceTypeId type;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.type); }
};
struct OneString {
  std::string value;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.value); }
};
struct OneInt {
  std::int32_t value = 0;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.value); }
};
struct OneBool {
  bool value = false;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.value); }
};
struct TaggedObject {  // tagged-objectID: tag byte + objectID
  Value value;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.value); }
};
struct ValueList {
  std::vector<Value> values;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.values); }
};

struct VmAllThreads { static constexpr Command id = Command::VirtualMachine_AllThreads; using Request = Empty; using Reply = ObjectList; };
struct VmDispose { static constexpr Command id = Command::VirtualMachine_Dispose; using Request = Empty; using Reply = Empty; };
struct VmIdSizes {
  static constexpr Command id = Command::VirtualMachine_IDSizes;
  using Request = Empty;
  struct Reply {
    IdSizes sizes;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.sizes.field, s.sizes.method, s.sizes.object, s.sizes.reference_type, s.sizes.frame); }
  };
};
struct VmSuspend { static constexpr Command id = Command::VirtualMachine_Suspend; using Request = Empty; using Reply = Empty; };
struct VmResume { static constexpr Command id = Command::VirtualMachine_Resume; using Request = Empty; using Reply = Empty; };
struct VmExit { static constexpr Command id = Command::VirtualMachine_Exit; using Request = OneInt; using Reply = Empty; };
struct VmCreateString { static constexpr Command id = Command::VirtualMachine_CreateString; using Request = OneString; using Reply = OneObject; };
struct VmCapabilities {
  static constexpr Command id = Command::VirtualMachine_Capabilities;
  using Request = Empty;
  struct Reply {  // canWatchFieldModification, canWatchFieldAccess, canGetBytecodes, ...
    std::array<bool, 7> flags{};
    template <class A, class S>
    static void fields(A& a, S& s) { for (auto& f : s.flags) a(f); }
  };
};
struct VmHoldEvents { static constexpr Command id = Command::VirtualMachine_HoldEvents; using Request = Empty; using Reply = Empty; };
struct VmReleaseEvents { static constexpr Command id = Command::VirtualMachine_ReleaseEvents; using Request = Empty; using Reply = Empty; };
struct VmCapabilitiesNew {
  static constexpr Command id = Command::VirtualMachine_CapabilitiesNew;
  using Request = Empty;
  struct Reply {  // the 7 of Capabilities, then canRedefineClasses ... and reserved slots: 32 in all
    std::array<bool, 32> flags{};
    template <class A, class S>
    static void fields(A& a, S& s) { for (auto& f : s.flags) a(f); }
  };
};

// ---- ReferenceType ------------------------------------------------------------------------

struct RtSignature { static constexpr Command id = Command::ReferenceType_Signature; using Request = OneType; using Reply = OneString; };
struct RtFields {
  static constexpr Command id = Command::ReferenceType_Fields;
  using Request = OneType;
  struct Field {
    FieldId field;
    std::string name, signature;
    std::int32_t modifiers = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.field, s.name, s.signature, s.modifiers); }
  };
  struct Reply {
    std::vector<Field> fields_;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.fields_); }
  };
};
struct RtMethods {
  static constexpr Command id = Command::ReferenceType_Methods;
  using Request = OneType;
  struct Method {
    MethodId method;
    std::string name, signature;
    std::int32_t modifiers = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.method, s.name, s.signature, s.modifiers); }
  };
  struct Reply {
    std::vector<Method> methods;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.methods); }
  };
};
struct RtGetValues {
  static constexpr Command id = Command::ReferenceType_GetValues;
  struct Request {
    ReferenceTypeId type;
    std::vector<FieldId> fields_;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.type, s.fields_); }
  };
  using Reply = ValueList;
};
struct RtSourceFile { static constexpr Command id = Command::ReferenceType_SourceFile; using Request = OneType; using Reply = OneString; };
struct RtInterfaces { static constexpr Command id = Command::ReferenceType_Interfaces; using Request = OneType; using Reply = TypeList; };
struct RtClassObject { static constexpr Command id = Command::ReferenceType_ClassObject; using Request = OneType; using Reply = OneObject; };

// ---- ClassType ----------------------------------------------------------------------------

struct CtSuperclass { static constexpr Command id = Command::ClassType_Superclass; using Request = OneType; using Reply = OneType; };
struct FieldValue {  // fieldID + untagged value (encode-only)
  FieldId field;
  UntaggedValue value;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.field, s.value); }
};
struct CtSetValues {
  static constexpr Command id = Command::ClassType_SetValues;
  struct Request {
    ReferenceTypeId type;
    std::vector<FieldValue> values;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.type, s.values); }
  };
  using Reply = Empty;
};
struct InvokeReply {
  Value result;
  Value exception;  // tagged-objectID; null object when no exception was thrown
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.result, s.exception); }
};
struct CtInvokeMethod {
  static constexpr Command id = Command::ClassType_InvokeMethod;
  struct Request {
    ReferenceTypeId type;
    ObjectId thread;
    MethodId method;
    std::vector<Value> arguments;
    std::int32_t options = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.type, s.thread, s.method, s.arguments, s.options); }
  };
  using Reply = InvokeReply;
};
struct CtNewInstance {
  static constexpr Command id = Command::ClassType_NewInstance;
  using Request = CtInvokeMethod::Request;
  using Reply = InvokeReply;  // result is the new object
};

// ---- Method -------------------------------------------------------------------------------

struct MethodRef {
  ReferenceTypeId type;
  MethodId method;
  template <class A, class S>
  static void fields(A& a, S& s) { a(s.type, s.method); }
};
struct MLineTable {
  static constexpr Command id = Command::Method_LineTable;
  using Request = MethodRef;
  struct Line {
    std::int64_t code_index = 0;
    std::int32_t line = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.code_index, s.line); }
  };
  struct Reply {
    std::int64_t start = 0, end = 0;
    std::vector<Line> lines;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.start, s.end, s.lines); }
  };
};
struct MVariableTable {
  static constexpr Command id = Command::Method_VariableTable;
  using Request = MethodRef;
  struct Slot {
    std::int64_t code_index = 0;
    std::string name, signature;
    std::int32_t length = 0, slot = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.code_index, s.name, s.signature, s.length, s.slot); }
  };
  struct Reply {
    std::int32_t arg_count = 0;
    std::vector<Slot> slots;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.arg_count, s.slots); }
  };
};
struct MBytecodes {
  static constexpr Command id = Command::Method_Bytecodes;
  using Request = MethodRef;
  struct Reply {
    Bytes bytecodes;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.bytecodes); }
  };
};

// ---- ObjectReference / StringReference / ArrayReference ----------------------------------

struct OrReferenceType { static constexpr Command id = Command::ObjectReference_ReferenceType; using Request = OneObject; using Reply = ClassRef; };
struct OrGetValues {
  static constexpr Command id = Command::ObjectReference_GetValues;
  struct Request {
    ObjectId object;
    std::vector<FieldId> fields_;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.object, s.fields_); }
  };
  using Reply = ValueList;
};
struct OrSetValues {
  static constexpr Command id = Command::ObjectReference_SetValues;
  struct Request {
    ObjectId object;
    std::vector<FieldValue> values;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.object, s.values); }
  };
  using Reply = Empty;
};
struct OrInvokeMethod {
  static constexpr Command id = Command::ObjectReference_InvokeMethod;
  struct Request {
    ObjectId object;
    ObjectId thread;
    ReferenceTypeId type;
    MethodId method;
    std::vector<Value> arguments;
    std::int32_t options = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.object, s.thread, s.type, s.method, s.arguments, s.options); }
  };
  using Reply = InvokeReply;
};
struct OrDisableCollection { static constexpr Command id = Command::ObjectReference_DisableCollection; using Request = OneObject; using Reply = Empty; };
struct OrEnableCollection { static constexpr Command id = Command::ObjectReference_EnableCollection; using Request = OneObject; using Reply = Empty; };
struct OrIsCollected { static constexpr Command id = Command::ObjectReference_IsCollected; using Request = OneObject; using Reply = OneBool; };
struct SrValue { static constexpr Command id = Command::StringReference_Value; using Request = OneObject; using Reply = OneString; };
struct ArLength { static constexpr Command id = Command::ArrayReference_Length; using Request = OneObject; using Reply = OneInt; };

struct ArrayRegion {
  Tag tag = Tag::int_;
  std::vector<Value> values;
  static void fields(Writer& w, const ArrayRegion& s);
  static void fields(Reader& r, ArrayRegion& s);
};
struct ArGetValues {
  static constexpr Command id = Command::ArrayReference_GetValues;
  struct Request {
    ObjectId array;
    std::int32_t first = 0, length = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.array, s.first, s.length); }
  };
  using Reply = ArrayRegion;
};

// ---- ThreadReference / StackFrame -------------------------------------------------------

struct TrName { static constexpr Command id = Command::ThreadReference_Name; using Request = OneObject; using Reply = OneString; };
struct TrSuspend { static constexpr Command id = Command::ThreadReference_Suspend; using Request = OneObject; using Reply = Empty; };
struct TrResume { static constexpr Command id = Command::ThreadReference_Resume; using Request = OneObject; using Reply = Empty; };
struct TrStatus {
  static constexpr Command id = Command::ThreadReference_Status;
  using Request = OneObject;
  struct Reply {
    std::int32_t thread_status = 0, suspend_status = 0;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.thread_status, s.suspend_status); }
  };
};
struct TrFrames {
  static constexpr Command id = Command::ThreadReference_Frames;
  struct Request {
    ObjectId thread;
    std::int32_t start = 0, length = -1;  // -1: all remaining frames
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.thread, s.start, s.length); }
  };
  struct Frame {
    FrameId frame;
    Location location;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.frame, s.location); }
  };
  struct Reply {
    std::vector<Frame> frames;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.frames); }
  };
};
struct TrFrameCount { static constexpr Command id = Command::ThreadReference_FrameCount; using Request = OneObject; using Reply = OneInt; };
struct TrSuspendCount { static constexpr Command id = Command::ThreadReference_SuspendCount; using Request = OneObject; using Reply = OneInt; };

struct SfGetValues {
  static constexpr Command id = Command::StackFrame_GetValues;
  struct Slot {
    std::int32_t slot = 0;
    Tag tag = Tag::int_;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.slot, s.tag); }
  };
  struct Request {
    ObjectId thread;
    FrameId frame;
    std::vector<Slot> slots;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.thread, s.frame, s.slots); }
  };
  using Reply = ValueList;
};
struct SfThisObject {
  static constexpr Command id = Command::StackFrame_ThisObject;
  struct Request {
    ObjectId thread;
    FrameId frame;
    template <class A, class S>
    static void fields(A& a, S& s) { a(s.thread, s.frame); }
  };
  using Reply = TaggedObject;
};

}  // namespace flakescan::jdwp
