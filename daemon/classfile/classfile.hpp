#pragma once
// A pure parser of JVM class files (JVM spec chapter 4): bytes in, structs out. No I/O, no
// logs. Untrusted input: every read is bounds-checked, every constant-pool reference is
// checked for range and kind before the parse succeeds, and anything that can never be a
// class file is refused with Errc::malformed saying what was wrong and at which byte offset.
//
// Layout (big-endian; u1/u2/u4 = 1/2/4 bytes):
//   +-------------+-------+-------+----------+------------------------------+
//   | magic       | minor | major | cp_count | cp_info[cp_count - 1]        |
//   | u4 CAFEBABE | u2    | u2    | u2       | tag u1 + body (by tag)       |
//   +-------------+-------+-------+----------+------------------------------+
//   | access u2 | this u2 | super u2 | n u2 | interfaces u2[n]              |
//   +-----------+---------+----------+------+-------------------------------+
//   | n u2 | field_info[n]  | n u2 | method_info[n] | n u2 | attribute[n]   |
//   +------+----------------+------+----------------+------+----------------+
//   field_info / method_info: access u2, name u2, descriptor u2, n u2, attribute[n]
//   attribute: name u2, length u4, info[length]
//   Code: max_stack u2, max_locals u2, code_length u4, code[code_length],
//         n u2, {start_pc, end_pc, handler_pc, catch_type: u2}[n], n u2, attribute[n]
// Constant pool indices start at 1; Long and Double take two slots (the second unusable).
// Names stay in the class file's internal form: "java/util/Map", "(Ljava/lang/String;)V".
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::classfile {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

inline constexpr std::uint32_t magic = 0xCAFEBABE;
inline constexpr std::uint16_t min_major_version = 45;  // JDK 1.0.2
inline constexpr std::uint16_t max_major_version = 65;  // Java 21

enum class ConstantTag : std::uint8_t {
  unusable = 0,  // slot 0, and the slot after a Long or Double
  utf8 = 1,
  integer = 3,
  float_ = 4,
  long_ = 5,
  double_ = 6,
  class_ = 7,
  string = 8,
  fieldref = 9,
  methodref = 10,
  interface_methodref = 11,
  name_and_type = 12,
  method_handle = 15,
  method_type = 16,
  dynamic = 17,
  invoke_dynamic = 18,
  module = 19,
  package = 20,
};

std::string_view tag_name(ConstantTag tag) noexcept;

// One constant-pool slot. Which members mean something depends on the tag:
//   utf8: text (converted from modified UTF-8 to UTF-8).
//   integer, long_: int_value.        float_, double_: float_value.
//   class_, string, method_type, module, package: first = the Utf8 index.
//   fieldref, methodref, interface_methodref: first = class, second = name_and_type.
//   name_and_type: first = name, second = descriptor (both Utf8).
//   method_handle: reference_kind (1..9), first = the referenced member's ref.
//   dynamic, invoke_dynamic: first = bootstrap method attr index, second = name_and_type.
struct Constant {
  ConstantTag tag = ConstantTag::unusable;
  std::string text;
  std::int64_t int_value = 0;
  double float_value = 0;
  std::uint16_t first = 0;
  std::uint16_t second = 0;
  std::uint8_t reference_kind = 0;
};

struct Attribute {
  std::string name;
  Bytes info;
};

struct ExceptionHandler {
  std::uint16_t start_pc = 0;
  std::uint16_t end_pc = 0;
  std::uint16_t handler_pc = 0;
  std::uint16_t catch_type = 0;  // a Class constant, 0 = any
};

struct Code {
  std::uint16_t max_stack = 0;
  std::uint16_t max_locals = 0;
  Bytes bytecode;
  std::vector<ExceptionHandler> handlers;
  std::vector<Attribute> attributes;  // LineNumberTable, StackMapTable, ... kept raw
};

namespace access {
inline constexpr std::uint16_t public_ = 0x0001;
inline constexpr std::uint16_t private_ = 0x0002;
inline constexpr std::uint16_t protected_ = 0x0004;
inline constexpr std::uint16_t static_ = 0x0008;
inline constexpr std::uint16_t final_ = 0x0010;
inline constexpr std::uint16_t synchronized_ = 0x0020;  // methods; ACC_SUPER on classes
inline constexpr std::uint16_t volatile_ = 0x0040;      // fields; ACC_BRIDGE on methods
inline constexpr std::uint16_t transient_ = 0x0080;     // fields; ACC_VARARGS on methods
inline constexpr std::uint16_t native_ = 0x0100;
inline constexpr std::uint16_t interface_ = 0x0200;
inline constexpr std::uint16_t abstract_ = 0x0400;
inline constexpr std::uint16_t strict_ = 0x0800;
inline constexpr std::uint16_t synthetic_ = 0x1000;
inline constexpr std::uint16_t annotation_ = 0x2000;
inline constexpr std::uint16_t enum_ = 0x4000;
inline constexpr std::uint16_t module_ = 0x8000;
}  // namespace access

// A field or a method.
struct Member {
  std::uint16_t access_flags = 0;
  std::string name;
  std::string descriptor;
  std::vector<Attribute> attributes;  // all of them, Code included, raw
  std::optional<Code> code;           // methods with a body
  std::uint16_t constant_value = 0;   // fields: the ConstantValue attribute's index, 0 = none

  bool is_static() const { return (access_flags & access::static_) != 0; }
};

// A Fieldref / Methodref / InterfaceMethodref resolved to names.
struct MemberRef {
  std::string owner;  // internal class name, or an array descriptor ("[I") for clone()
  std::string name;
  std::string descriptor;
  friend bool operator==(const MemberRef&, const MemberRef&) = default;
};

struct ClassFile {
  std::uint16_t minor_version = 0;
  std::uint16_t major_version = 0;
  std::vector<Constant> pool;  // indexed as in the file; pool[0] unusable
  std::uint16_t access_flags = 0;
  std::string name;                       // this_class
  std::optional<std::string> super_name;  // none only for java/lang/Object and module-info
  std::vector<std::string> interfaces;
  std::vector<Member> fields;
  std::vector<Member> methods;
  std::vector<Attribute> attributes;

  // nullptr if `index` is out of range or unusable.
  const Constant* constant(std::uint16_t index) const;
  // Checked lookups: Errc::malformed when the index is out of range or of another kind.
  util::Result<std::string_view> utf8(std::uint16_t index) const;
  util::Result<std::string_view> class_name(std::uint16_t index) const;  // a Class constant
  util::Result<MemberRef> member_ref(std::uint16_t index) const;         // any of the three refs

  const Member* find_field(std::string_view name) const;
  // The first method called `name`, or the one with `descriptor` when given.
  const Member* find_method(std::string_view name, std::string_view descriptor = {}) const;
};

// The types of the annotations a class or member carries where the JVM keeps them at run time
// (RuntimeVisibleAnnotations), as descriptors: "Lorg/junit/Before;". Errors: malformed.
util::Result<std::vector<std::string>> annotation_types(const ClassFile& owner, const std::vector<Attribute>& attributes);

struct Limits {
  std::size_t max_class_bytes = 64u << 20;  // bigger input: Errc::too_large
};

// Parses one class file; the input must be consumed exactly.
// Errors: malformed (with what and the byte offset), too_large.
util::Result<ClassFile> parse_class(ByteView data, const Limits& limits = {});

// Descriptor helpers. "Ljava/util/Map;" -> "java/util/Map"; "[I" -> "[I"; "I" -> nullopt.
std::optional<std::string> descriptor_class(std::string_view field_descriptor);
// A field descriptor (or "V") as a Java type, nested classes with `$`: "I" -> "int",
// "[Ljava/lang/String;" -> "java.lang.String[]", "Lpkg/Outer$In;" -> "pkg.Outer$In". Anything
// that is not a descriptor comes back as it is.
std::string java_type_name(std::string_view descriptor);
// Argument values and return of a method descriptor, counted in operand-stack slots (long
// and double count two); nullopt for a malformed descriptor.
struct DescriptorSlots {
  int arguments = 0;
  int result = 0;
};
std::optional<DescriptorSlots> method_slots(std::string_view method_descriptor);
// Slots of one field descriptor: 1, 2 for J and D; nullopt when malformed.
std::optional<int> field_slots(std::string_view field_descriptor);

}  // namespace flakescan::classfile
