#pragma once
// Walks one method's bytecode (JVM spec chapter 6) instruction by instruction and reports
// what reset-method search and literal mining need: field accesses, method calls, constants.
// Pure: no I/O, no logs. Malformed bytecode (unknown opcode, an instruction or a switch table
// running past the end, a branch out of the code, an operand naming the wrong constant) is
// refused with Errc::malformed and the offset.
//
// Instruction shapes whose length is not fixed:
//   tableswitch:  0xaa | 0-3 pad to a 4-byte boundary | default s4 | low s4 | high s4 |
//                 (high - low + 1) x offset s4
//   lookupswitch: 0xab | 0-3 pad | default s4 | npairs s4 | npairs x (match s4, offset s4)
//   wide:         0xc4 | opcode | index u2 [| const s2 for iinc]
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "classfile/classfile.hpp"

namespace flakescan::classfile {

struct Instruction {
  std::uint32_t offset = 0;
  std::uint8_t opcode = 0;  // for `wide`, the widened opcode (iload, iinc, ...)
  bool wide = false;
  std::uint32_t length = 0;  // bytes, including the wide prefix and switch padding
};

// "getstatic"; "opcode 0xca" for codes outside the instruction set.
std::string opcode_name(std::uint8_t opcode);

// Splits bytecode into instructions. Errors: malformed.
util::Result<std::vector<Instruction>> decode_instructions(ByteView bytecode);

enum class FieldOp { get_static, put_static, get_field, put_field };
struct FieldAccess {
  std::uint32_t offset = 0;
  FieldOp op = FieldOp::get_static;
  MemberRef field;
};

enum class CallOp { virtual_, special, static_, interface_, dynamic };
struct MethodCall {
  std::uint32_t offset = 0;
  CallOp op = CallOp::virtual_;
  MemberRef method;  // invokedynamic: owner empty, name and descriptor of the call site
  // For calls with a receiver: the index in MethodSummary::fields of the getstatic/getfield
  // whose value is the receiver, when a straight-line walk of the operand stack (and of
  // reference locals: `Map m = REGISTRY; m.clear();`) can tell. Branches are not followed:
  // after goto, return, athrow and switches the stack is treated as unknown.
  std::optional<std::size_t> receiver_field;
};

enum class ConstantKind { string, integer, long_, float_, double_ };
struct LoadedConstant {
  std::uint32_t offset = 0;
  ConstantKind kind = ConstantKind::integer;
  std::string text;            // string
  std::int64_t int_value = 0;  // integer (ldc, bipush, sipush, iconst_*), long_ (ldc2_w, lconst_*)
  double float_value = 0;      // float_, double_
};

struct MethodSummary {
  std::vector<Instruction> instructions;
  std::vector<FieldAccess> fields;
  std::vector<MethodCall> calls;
  std::vector<LoadedConstant> constants;
};

// Walks `code` of a method of `owner`. Errors: malformed.
util::Result<MethodSummary> summarize(const ClassFile& owner, const Code& code);

}  // namespace flakescan::classfile
