#include "classfile/bytecode.hpp"

#include <array>
#include <bit>
#include <cstdio>

namespace flakescan::classfile {

namespace {

struct OpInfo {
  const char* name = nullptr;  // nullptr: not an instruction
  std::uint8_t length = 0;     // 0: variable
  std::int8_t pops = 0;        // slots; -1: depends on the operand
  std::int8_t pushes = 0;
};

constexpr std::array<OpInfo, 256> make_table() {
  std::array<OpInfo, 256> t{};
#define OP(code, name, length, pops, pushes) t[code] = OpInfo{#name, length, pops, pushes};
#include "classfile/opcodes.def"
#undef OP
  return t;
}

constexpr std::array<OpInfo, 256> ops = make_table();

namespace op {
inline constexpr std::uint8_t iconst_m1 = 0x02, iconst_5 = 0x08, lconst_0 = 0x09, lconst_1 = 0x0a,
                              fconst_0 = 0x0b, fconst_2 = 0x0d, dconst_0 = 0x0e, dconst_1 = 0x0f,
                              bipush = 0x10, sipush = 0x11, ldc = 0x12, ldc_w = 0x13, ldc2_w = 0x14,
                              iload = 0x15, aload = 0x19, aload_0 = 0x2a, aload_3 = 0x2d, istore = 0x36,
                              astore = 0x3a, astore_0 = 0x4b, astore_3 = 0x4e, dup = 0x59, swap = 0x5f,
                              iinc = 0x84, ifeq = 0x99, jsr = 0xa8, ret = 0xa9, tableswitch = 0xaa,
                              lookupswitch = 0xab, ireturn = 0xac, return_ = 0xb1, getstatic = 0xb2,
                              putstatic = 0xb3, getfield = 0xb4, putfield = 0xb5, invokevirtual = 0xb6,
                              invokespecial = 0xb7, invokestatic = 0xb8, invokeinterface = 0xb9,
                              invokedynamic = 0xba, athrow = 0xbf, checkcast = 0xc0, wide = 0xc4,
                              multianewarray = 0xc5, ifnull = 0xc6, ifnonnull = 0xc7, goto_w = 0xc8,
                              jsr_w = 0xc9;
}

std::int32_t s4(ByteView b, std::size_t at) {
  return static_cast<std::int32_t>((std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
                                   (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]});
}
std::uint16_t u2(ByteView b, std::size_t at) { return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]); }
std::int16_t s2(ByteView b, std::size_t at) { return static_cast<std::int16_t>(u2(b, at)); }

std::unexpected<util::Error> malformed_at(std::size_t offset, const std::string& what) {
  return util::fail(util::Errc::malformed, what + " at code offset " + std::to_string(offset));
}

}  // namespace

std::string opcode_name(std::uint8_t opcode) {
  if (ops[opcode].name) return ops[opcode].name;
  char buf[16];
  std::snprintf(buf, sizeof buf, "opcode 0x%02x", opcode);
  return buf;
}

util::Result<std::vector<Instruction>> decode_instructions(ByteView code) {
  std::vector<Instruction> out;
  const std::int64_t size = static_cast<std::int64_t>(code.size());
  auto branch_ok = [&](std::int64_t from, std::int64_t delta) { return from + delta >= 0 && from + delta < size; };
  for (std::int64_t pos = 0; pos < size;) {
    Instruction ins;
    ins.offset = static_cast<std::uint32_t>(pos);
    ins.opcode = code[pos];
    const OpInfo& info = ops[ins.opcode];
    if (!info.name) return malformed_at(pos, opcode_name(ins.opcode) + " is not an instruction");
    std::int64_t length = info.length;
    std::int64_t left = size - pos;
    if (ins.opcode == op::tableswitch || ins.opcode == op::lookupswitch) {
      std::int64_t pad = (4 - (pos + 1) % 4) % 4;
      std::int64_t header = 1 + pad + (ins.opcode == op::tableswitch ? 12 : 8);
      if (header > left) return malformed_at(pos, "truncated " + opcode_name(ins.opcode));
      std::size_t at = static_cast<std::size_t>(pos + 1 + pad);
      std::vector<std::int32_t> targets{s4(code, at)};
      if (ins.opcode == op::tableswitch) {
        std::int64_t low = s4(code, at + 4), high = s4(code, at + 8);
        if (low > high) return malformed_at(pos, "tableswitch low > high");
        length = header + 4 * (high - low + 1);
        if (length > left) return malformed_at(pos, "truncated tableswitch table");
        for (std::int64_t i = 0; i <= high - low; ++i) targets.push_back(s4(code, at + 12 + 4 * i));
      } else {
        std::int64_t pairs = s4(code, at + 4);
        if (pairs < 0) return malformed_at(pos, "lookupswitch npairs < 0");
        length = header + 8 * pairs;
        if (length > left) return malformed_at(pos, "truncated lookupswitch table");
        for (std::int64_t i = 0; i < pairs; ++i) {
          if (i > 0 && s4(code, at + 8 + 8 * i) <= s4(code, at + 8 * i))
            return malformed_at(pos, "lookupswitch keys not sorted");
          targets.push_back(s4(code, at + 12 + 8 * i));
        }
      }
      for (std::int32_t t : targets)
        if (!branch_ok(pos, t)) return malformed_at(pos, opcode_name(ins.opcode) + " target outside the code");
    } else if (ins.opcode == op::wide) {
      if (left < 2) return malformed_at(pos, "truncated wide");
      ins.opcode = code[pos + 1];
      ins.wide = true;
      bool local = (ins.opcode >= op::iload && ins.opcode <= op::aload) ||
                   (ins.opcode >= op::istore && ins.opcode <= op::astore) || ins.opcode == op::ret;
      if (ins.opcode == op::iinc) {
        length = 6;
      } else if (local) {
        length = 4;
      } else {
        return malformed_at(pos, "wide before " + opcode_name(ins.opcode));
      }
      if (length > left) return malformed_at(pos, "truncated wide " + opcode_name(ins.opcode));
    } else if (length > left) {
      return malformed_at(pos, "truncated " + opcode_name(ins.opcode));
    } else if ((ins.opcode >= op::ifeq && ins.opcode <= op::jsr) || ins.opcode == op::ifnull ||
               ins.opcode == op::ifnonnull) {
      if (!branch_ok(pos, s2(code, pos + 1))) return malformed_at(pos, opcode_name(ins.opcode) + " target outside the code");
    } else if (ins.opcode == op::goto_w || ins.opcode == op::jsr_w) {
      if (!branch_ok(pos, s4(code, pos + 1))) return malformed_at(pos, opcode_name(ins.opcode) + " target outside the code");
    } else if (ins.opcode == op::invokeinterface && code[pos + 4] != 0) {
      return malformed_at(pos, "invokeinterface with a non-zero fourth byte");
    } else if (ins.opcode == op::invokedynamic && (code[pos + 3] != 0 || code[pos + 4] != 0)) {
      return malformed_at(pos, "invokedynamic with non-zero third and fourth bytes");
    }
    ins.length = static_cast<std::uint32_t>(length);
    out.push_back(ins);
    pos += length;
  }
  return out;
}

namespace {

// The straight-line operand-stack model: one entry per slot, each the index of the field
// access that produced it, or `none`.
class Stack {
 public:
  static constexpr std::ptrdiff_t none = -1;

  void push(std::ptrdiff_t tag, int slots = 1) {
    for (int i = 0; i < slots; ++i) slots_.push_back(tag);
  }
  // Popping an empty stack (code after a jump, a handler's exception) yields `none`.
  std::ptrdiff_t pop(int slots = 1) {
    std::ptrdiff_t tag = none;
    for (int i = 0; i < slots; ++i) {
      if (slots_.empty()) return none;
      tag = slots_.back();
      slots_.pop_back();
    }
    return tag;
  }
  // dup family: copies the top `copy` slots below the `skip` slots under them.
  void duplicate(int copy, int skip) {
    std::vector<std::ptrdiff_t> top;
    for (int i = 0; i < copy + skip; ++i) top.push_back(pop());
    for (int i = copy - 1; i >= 0; --i) slots_.push_back(top[i]);
    for (int i = copy + skip - 1; i >= 0; --i) slots_.push_back(top[i]);
  }
  void swap() {
    std::ptrdiff_t a = pop(), b = pop();
    push(a);
    push(b);
  }
  void clear() { slots_.clear(); }

 private:
  std::vector<std::ptrdiff_t> slots_;
};

bool ends_flow(std::uint8_t opcode) {
  return opcode == 0xa7 /* goto */ || opcode == op::goto_w || opcode == op::ret || opcode == op::tableswitch ||
         opcode == op::lookupswitch || (opcode >= op::ireturn && opcode <= op::return_) || opcode == op::athrow;
}

// Walks a method's instructions once, in order, with the stack and locals model, and notes
// what summarize() reports: field accesses, calls (with the field their receiver came from)
// and loaded constants.
class Summarizer {
 public:
  Summarizer(const ClassFile& owner, ByteView code, MethodSummary& out) : owner_(owner), b_(code), out_(out) {}

  util::Result<void> step(const Instruction& ins) {
    if (auto r = model(ins); !r) return r;
    if (ends_flow(ins.opcode)) stack_.clear();
    return {};
  }

 private:
  util::Result<void> model(const Instruction& ins);
  util::Result<void> field_access(const Instruction& ins);
  util::Result<void> method_call(const Instruction& ins);
  util::Result<void> load_constant(const Instruction& ins);
  void other(const Instruction& ins);

  static std::unexpected<util::Error> bad(const Instruction& ins, const std::string& what) {
    return malformed_at(ins.offset, opcode_name(ins.opcode) + ": " + what);
  }
  std::ptrdiff_t& local(std::size_t index) {
    if (index >= locals_.size()) locals_.resize(index + 1, Stack::none);
    return locals_[index];
  }

  const ClassFile& owner_;
  const ByteView b_;
  MethodSummary& out_;
  Stack stack_;
  std::vector<std::ptrdiff_t> locals_;
};

util::Result<void> Summarizer::model(const Instruction& ins) {
  const std::size_t at = ins.offset;
  const std::uint8_t o = ins.opcode;
  if (o >= op::getstatic && o <= op::putfield) return field_access(ins);
  if (o >= op::invokevirtual && o <= op::invokedynamic) return method_call(ins);
  if (o == op::ldc || o == op::ldc_w || o == op::ldc2_w) return load_constant(ins);
  if (o == op::dup || (o > op::dup && o < op::swap)) {
    static constexpr int copy[] = {1, 1, 1, 2, 2, 2};
    static constexpr int skip[] = {0, 1, 2, 0, 1, 2};
    stack_.duplicate(copy[o - op::dup], skip[o - op::dup]);
  } else if (o == op::swap) {
    stack_.swap();
  } else if (o == op::aload || (o >= op::aload_0 && o <= op::aload_3)) {
    std::size_t index = o != op::aload ? o - op::aload_0 : ins.wide ? u2(b_, at + 2) : b_[at + 1];
    stack_.push(local(index));
  } else if (o == op::astore || (o >= op::astore_0 && o <= op::astore_3)) {
    std::size_t index = o != op::astore ? o - op::astore_0 : ins.wide ? u2(b_, at + 2) : b_[at + 1];
    local(index) = stack_.pop();
  } else if (o == op::checkcast) {
    stack_.push(stack_.pop());  // the same reference
  } else if (o == op::multianewarray) {
    std::uint8_t dims = b_[at + 3];
    if (dims == 0) return bad(ins, "zero dimensions");
    stack_.pop(dims);
    stack_.push(Stack::none);
  } else {
    other(ins);
  }
  return {};
}

util::Result<void> Summarizer::field_access(const Instruction& ins) {
  const std::uint8_t o = ins.opcode;
  std::uint16_t index = u2(b_, ins.offset + 1);
  const Constant* k = owner_.constant(index);
  if (!k || k->tag != ConstantTag::fieldref) return bad(ins, "constant #" + std::to_string(index) + " is not a Fieldref");
  auto ref = owner_.member_ref(index);
  if (!ref) return bad(ins, ref.error().message);
  auto slots = field_slots(ref->descriptor);
  if (!slots) return bad(ins, "bad field descriptor \"" + ref->descriptor + "\"");
  FieldOp fop = o == op::getstatic   ? FieldOp::get_static
                : o == op::putstatic ? FieldOp::put_static
                : o == op::getfield  ? FieldOp::get_field
                                     : FieldOp::put_field;
  auto tag = static_cast<std::ptrdiff_t>(out_.fields.size());
  out_.fields.push_back(FieldAccess{ins.offset, fop, std::move(*ref)});
  switch (fop) {
    case FieldOp::get_static: stack_.push(tag, *slots); break;
    case FieldOp::put_static: stack_.pop(*slots); break;
    case FieldOp::get_field: stack_.pop(); stack_.push(tag, *slots); break;
    case FieldOp::put_field: stack_.pop(*slots); stack_.pop(); break;
  }
  return {};
}

util::Result<void> Summarizer::method_call(const Instruction& ins) {
  const std::uint8_t o = ins.opcode;
  std::uint16_t index = u2(b_, ins.offset + 1);
  const Constant* k = owner_.constant(index);
  MethodCall call;
  call.offset = ins.offset;
  if (o == op::invokedynamic) {
    if (!k || k->tag != ConstantTag::invoke_dynamic) return bad(ins, "constant #" + std::to_string(index) + " is not an InvokeDynamic");
    const Constant* nat = owner_.constant(k->second);
    if (!nat || nat->tag != ConstantTag::name_and_type) return bad(ins, "no NameAndType");
    auto name = owner_.utf8(nat->first);
    auto descriptor = owner_.utf8(nat->second);
    if (!name || !descriptor) return bad(ins, "bad NameAndType");
    call.op = CallOp::dynamic;
    call.method = MemberRef{"", std::string(*name), std::string(*descriptor)};
  } else {
    bool ok_kind = k && (o == op::invokeinterface ? k->tag == ConstantTag::interface_methodref
                                                  : (k->tag == ConstantTag::methodref ||
                                                     // invokespecial/invokestatic may name interface methods (Java 8+)
                                                     (o != op::invokevirtual && k->tag == ConstantTag::interface_methodref)));
    if (!ok_kind) return bad(ins, "constant #" + std::to_string(index) + " is not a method ref");
    auto ref = owner_.member_ref(index);
    if (!ref) return bad(ins, ref.error().message);
    call.op = o == op::invokevirtual   ? CallOp::virtual_
              : o == op::invokespecial ? CallOp::special
              : o == op::invokestatic  ? CallOp::static_
                                       : CallOp::interface_;
    call.method = std::move(*ref);
  }
  auto slots = method_slots(call.method.descriptor);
  if (!slots) return bad(ins, "bad method descriptor \"" + call.method.descriptor + "\"");
  stack_.pop(slots->arguments);
  if (o != op::invokestatic && o != op::invokedynamic) {
    std::ptrdiff_t receiver = stack_.pop();
    if (receiver != Stack::none) call.receiver_field = static_cast<std::size_t>(receiver);
  }
  stack_.push(Stack::none, slots->result);
  out_.calls.push_back(std::move(call));
  return {};
}

util::Result<void> Summarizer::load_constant(const Instruction& ins) {
  const std::uint8_t o = ins.opcode;
  std::uint16_t index = o == op::ldc ? b_[ins.offset + 1] : u2(b_, ins.offset + 1);
  const Constant* k = owner_.constant(index);
  if (!k) return bad(ins, "constant #" + std::to_string(index) + " is unusable");
  bool wide_value = k->tag == ConstantTag::long_ || k->tag == ConstantTag::double_;
  bool loadable = o == op::ldc2_w ? (wide_value || k->tag == ConstantTag::dynamic)
                                  : (!wide_value && (k->tag == ConstantTag::integer || k->tag == ConstantTag::float_ ||
                                                     k->tag == ConstantTag::string || k->tag == ConstantTag::class_ ||
                                                     k->tag == ConstantTag::method_type ||
                                                     k->tag == ConstantTag::method_handle ||
                                                     k->tag == ConstantTag::dynamic));
  if (!loadable) return bad(ins, "constant #" + std::to_string(index) + " (" + std::string(tag_name(k->tag)) + ") is not loadable here");
  LoadedConstant c;
  c.offset = ins.offset;
  bool report = true;
  switch (k->tag) {
    case ConstantTag::string: {
      auto text = owner_.utf8(k->first);
      if (!text) return bad(ins, text.error().message);
      c.kind = ConstantKind::string;
      c.text = *text;
      break;
    }
    case ConstantTag::integer: c.kind = ConstantKind::integer; c.int_value = k->int_value; break;
    case ConstantTag::long_: c.kind = ConstantKind::long_; c.int_value = k->int_value; break;
    case ConstantTag::float_: c.kind = ConstantKind::float_; c.float_value = k->float_value; break;
    case ConstantTag::double_: c.kind = ConstantKind::double_; c.float_value = k->float_value; break;
    default: report = false; break;  // Class, MethodType, MethodHandle, Dynamic
  }
  if (report) out_.constants.push_back(std::move(c));
  stack_.push(Stack::none, o == op::ldc2_w ? 2 : 1);
  return {};
}

// Every other instruction: the constants it pushes, then its stack effect from the table.
void Summarizer::other(const Instruction& ins) {
  const std::size_t at = ins.offset;
  const std::uint8_t o = ins.opcode;
  const OpInfo& info = ops[o];
  if (o >= op::iconst_m1 && o <= op::iconst_5) {
    out_.constants.push_back(LoadedConstant{ins.offset, ConstantKind::integer, {}, o - 0x03, 0});
  } else if (o == op::lconst_0 || o == op::lconst_1) {
    out_.constants.push_back(LoadedConstant{ins.offset, ConstantKind::long_, {}, o - op::lconst_0, 0});
  } else if (o >= op::fconst_0 && o <= op::fconst_2) {
    out_.constants.push_back(LoadedConstant{ins.offset, ConstantKind::float_, {}, 0, double(o - op::fconst_0)});
  } else if (o == op::dconst_0 || o == op::dconst_1) {
    out_.constants.push_back(LoadedConstant{ins.offset, ConstantKind::double_, {}, 0, double(o - op::dconst_0)});
  } else if (o == op::bipush) {
    out_.constants.push_back(LoadedConstant{ins.offset, ConstantKind::integer, {}, static_cast<std::int8_t>(b_[at + 1]), 0});
  } else if (o == op::sipush) {
    out_.constants.push_back(LoadedConstant{ins.offset, ConstantKind::integer, {}, s2(b_, at + 1), 0});
  }
  // Stores of long/double into a local clobber the reference tag of the slots.
  if (o >= op::istore && o < op::astore) local(ins.wide ? u2(b_, at + 2) : b_[at + 1]) = Stack::none;
  stack_.pop(info.pops);
  stack_.push(Stack::none, info.pushes);
}

}  // namespace

util::Result<MethodSummary> summarize(const ClassFile& owner, const Code& code) {
  auto instructions = decode_instructions(code.bytecode);
  if (!instructions) return std::unexpected(instructions.error());
  MethodSummary out;
  out.instructions = std::move(*instructions);
  Summarizer summarizer(owner, ByteView(code.bytecode), out);
  for (const Instruction& ins : out.instructions)
    if (auto r = summarizer.step(ins); !r) return std::unexpected(r.error());
  return out;
}

}  // namespace flakescan::classfile
