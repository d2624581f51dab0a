// Instruction lengths on hand-made bytecode (switch padding at each alignment, wide), refusal
// of malformed bytecode, and what the walk reports on the javac-compiled fixture.
#include <catch2/catch.hpp>

#include <algorithm>

#include "classfile/bytecode.hpp"
#include "fixture.hpp"

using namespace flakescan;
using namespace flakescan::classfile;
using flakescan::classfile::test::fixture_class;
using flakescan::classfile::test::method;

namespace {

void put_s4(Bytes& b, std::int32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> shift));
}

// `nops` nops, then a tableswitch over [low, high] whose targets all jump back to 0, then return.
Bytes with_tableswitch(int nops, std::int32_t low, std::int32_t high) {
  Bytes b(static_cast<std::size_t>(nops), 0x00);
  std::int32_t at = nops;
  b.push_back(0xaa);
  while (b.size() % 4 != 0) b.push_back(0);
  put_s4(b, -at);
  put_s4(b, low);
  put_s4(b, high);
  for (std::int64_t i = low; i <= high; ++i) put_s4(b, -at);
  b.push_back(0xb1);
  return b;
}

Bytes with_lookupswitch(int nops, std::vector<std::int32_t> keys) {
  Bytes b(static_cast<std::size_t>(nops), 0x00);
  std::int32_t at = nops;
  b.push_back(0xab);
  while (b.size() % 4 != 0) b.push_back(0);
  put_s4(b, -at);
  put_s4(b, static_cast<std::int32_t>(keys.size()));
  for (auto k : keys) {
    put_s4(b, k);
    put_s4(b, -at);
  }
  b.push_back(0xb1);
  return b;
}

void require_malformed_code(const Bytes& code, std::string_view mentions) {
  auto decoded = decode_instructions(code);
  REQUIRE_FALSE(decoded);
  CHECK(decoded.error().code == util::Errc::malformed);
  CHECK_THAT(decoded.error().message, Catch::Contains(std::string(mentions)));
}

const MethodCall* find_call(const MethodSummary& s, std::string_view name) {
  for (const MethodCall& c : s.calls)
    if (c.method.name == name) return &c;
  return nullptr;
}

bool has_string(const MethodSummary& s, std::string_view text) {
  return std::any_of(s.constants.begin(), s.constants.end(),
                     [&](const LoadedConstant& c) { return c.kind == ConstantKind::string && c.text == text; });
}
bool has_int(const MethodSummary& s, std::int64_t v, ConstantKind kind = ConstantKind::integer) {
  return std::any_of(s.constants.begin(), s.constants.end(),
                     [&](const LoadedConstant& c) { return c.kind == kind && c.int_value == v; });
}

MethodSummary summary_of(const ClassFile& c, std::string_view name) {
  auto s = summarize(c, *method(c, name).code);
  if (!s) FAIL(s.error().message);
  return *s;
}

}  // namespace

TEST_CASE("decode_instructions: switch padding at every alignment", "[bytecode]") {
  for (int nops = 0; nops < 4; ++nops) {
    INFO("nops " << nops);
    int pad = (4 - (nops + 1) % 4) % 4;
    auto table = decode_instructions(with_tableswitch(nops, -1, 2));
    REQUIRE(table);
    REQUIRE(table->size() == static_cast<std::size_t>(nops) + 2);
    CHECK((*table)[nops].opcode == 0xaa);
    CHECK((*table)[nops].length == static_cast<std::uint32_t>(1 + pad + 12 + 4 * 4));
    CHECK(table->back().opcode == 0xb1);

    auto lookup = decode_instructions(with_lookupswitch(nops, {-5, 7, 100000}));
    REQUIRE(lookup);
    REQUIRE(lookup->size() == static_cast<std::size_t>(nops) + 2);
    CHECK((*lookup)[nops].length == static_cast<std::uint32_t>(1 + pad + 8 + 3 * 8));
    auto empty = decode_instructions(with_lookupswitch(nops, {}));
    REQUIRE(empty);
    CHECK((*empty)[nops].length == static_cast<std::uint32_t>(1 + pad + 8));
  }
}

TEST_CASE("decode_instructions: fixed lengths and wide", "[bytecode]") {
  // iconst_0, istore 200 (wide), wide iinc 200 300, aload_0, invokeinterface #1 1 0, goto -12, return
  Bytes code{0x03, 0xc4, 0x36, 0x00, 0xc8, 0xc4, 0x84, 0x00, 0xc8, 0x01, 0x2c,
             0x2a, 0xb9, 0x00, 0x01, 0x01, 0x00, 0xa7, 0xff, 0xf4, 0xb1};
  auto decoded = decode_instructions(code);
  if (!decoded) FAIL(decoded.error().message);
  REQUIRE(decoded->size() == 7);
  CHECK((*decoded)[1].wide);
  CHECK((*decoded)[1].opcode == 0x36);
  CHECK((*decoded)[1].length == 4);
  CHECK((*decoded)[2].opcode == 0x84);
  CHECK((*decoded)[2].length == 6);
  CHECK((*decoded)[4].length == 5);
  CHECK((*decoded)[5].offset == 17);
  CHECK(opcode_name(0xb9) == "invokeinterface");
  CHECK(opcode_name(0xca) == "opcode 0xca");
}

TEST_CASE("decode_instructions: malformed bytecode", "[bytecode]") {
  require_malformed_code({0xca}, "opcode 0xca is not an instruction at code offset 0");
  require_malformed_code({0x00, 0xfe}, "at code offset 1");
  require_malformed_code({0x11, 0x00}, "truncated sipush");
  require_malformed_code({0xc4}, "truncated wide");
  require_malformed_code({0xc4, 0x00, 0x00, 0x01}, "wide before nop");
  require_malformed_code({0xc4, 0x84, 0x00, 0x01, 0x00}, "truncated wide iinc");
  require_malformed_code({0xa7, 0x00, 0x10}, "goto target outside the code");
  require_malformed_code({0xa7, 0xff, 0xff}, "goto target outside the code");
  require_malformed_code(with_tableswitch(0, 3, 2), "low > high");
  require_malformed_code(with_lookupswitch(1, {7, 5}), "not sorted");

  Bytes table = with_tableswitch(2, 0, 3);
  for (std::size_t n = 3; n + 1 < table.size(); ++n) {
    INFO("prefix " << n);
    require_malformed_code(Bytes(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(n)), "tableswitch");
  }
  Bytes lookup = with_lookupswitch(0, {1, 2});
  for (std::size_t n = 1; n + 1 < lookup.size(); ++n) {
    INFO("prefix " << n);
    require_malformed_code(Bytes(lookup.begin(), lookup.begin() + static_cast<std::ptrdiff_t>(n)), "lookupswitch");
  }
  // A huge table count must be refused, not allocated.
  Bytes huge{0xaa, 0, 0, 0};
  put_s4(huge, 0);
  put_s4(huge, INT32_MIN);
  put_s4(huge, INT32_MAX);
  require_malformed_code(huge, "truncated tableswitch table");
  Bytes many{0xab, 0, 0, 0};
  put_s4(many, 0);
  put_s4(many, INT32_MAX);
  require_malformed_code(many, "truncated lookupswitch table");
  Bytes negative{0xab, 0, 0, 0};
  put_s4(negative, 0);
  put_s4(negative, -1);
  require_malformed_code(negative, "npairs < 0");
}

TEST_CASE("summarize: javac's switches and wide iinc", "[bytecode]") {
  ClassFile c = fixture_class("registry.Registry");
  auto has_op = [](const MethodSummary& s, std::uint8_t op, bool wide = false) {
    return std::any_of(s.instructions.begin(), s.instructions.end(),
                       [&](const Instruction& i) { return i.opcode == op && i.wide == wide; });
  };
  MethodSummary dense = summary_of(c, "dense");
  CHECK(has_op(dense, 0xaa));
  for (auto s : {"one", "two", "three", "four", "many"}) CHECK(has_string(dense, s));
  MethodSummary sparse = summary_of(c, "sparse");
  CHECK(has_op(sparse, 0xab));
  CHECK(has_string(sparse, "thousand"));
  MethodSummary bump = summary_of(c, "bump");
  CHECK(has_op(bump, 0x84, true));
}

TEST_CASE("summarize: field accesses in reset() and the singleton", "[bytecode]") {
  ClassFile c = fixture_class("registry.Registry");
  MethodSummary reset = summary_of(c, "reset");
  std::vector<std::string> put_statics;
  for (const FieldAccess& f : reset.fields)
    if (f.op == FieldOp::put_static) put_statics.push_back(f.field.name);
  CHECK(put_statics == std::vector<std::string>{"counter", "instance"});
  const MethodCall* clear = find_call(reset, "clear");
  REQUIRE(clear);
  CHECK(clear->op == CallOp::interface_);
  CHECK(clear->method == MemberRef{"java/util/Map", "clear", "()V"});
  REQUIRE(clear->receiver_field);
  const FieldAccess& receiver = reset.fields[*clear->receiver_field];
  CHECK(receiver.op == FieldOp::get_static);
  CHECK(receiver.field == MemberRef{"registry/Registry", "REGISTRY", "Ljava/util/Map;"});

  MethodSummary get_instance = summary_of(c, "getInstance");
  bool writes = false;
  for (const FieldAccess& f : get_instance.fields)
    writes = writes || (f.op == FieldOp::put_static && f.field.name == "instance" &&
                        f.field.descriptor == "Lregistry/Registry;");
  CHECK(writes);
  const MethodCall* ctor = find_call(get_instance, "<init>");
  REQUIRE(ctor);
  CHECK(ctor->op == CallOp::special);
  CHECK(ctor->method.owner == "registry/Registry");
}

TEST_CASE("summarize: map calls, receivers through a local, literals", "[bytecode]") {
  ClassFile c = fixture_class("registry.Registry");
  MethodSummary defaults = summary_of(c, "registerDefaults");
  int puts = 0;
  for (const MethodCall& call : defaults.calls) {
    if (call.method.name != "put") continue;
    ++puts;
    CHECK(call.method.owner == "java/util/Map");
    REQUIRE(call.receiver_field);
    CHECK(defaults.fields[*call.receiver_field].field.name == "REGISTRY");
  }
  CHECK(puts == 3);
  for (auto s : {"alpha", "beta", "gamma"}) CHECK(has_string(defaults, s));
  CHECK(has_int(defaults, 100));     // bipush
  CHECK(has_int(defaults, 1000));    // sipush
  CHECK(has_int(defaults, 100000));  // ldc Integer
  const MethodCall* value_of = find_call(defaults, "valueOf");
  REQUIRE(value_of);
  CHECK(value_of->op == CallOp::static_);
  CHECK_FALSE(value_of->receiver_field);

  MethodSummary lookup = summary_of(c, "lookup");
  CHECK(has_int(lookup, -1));  // iconst_m1
  const MethodCall* get = find_call(lookup, "get");
  REQUIRE(get);
  REQUIRE(get->receiver_field);
  const MethodCall* int_value = find_call(lookup, "intValue");
  REQUIRE(int_value);
  CHECK_FALSE(int_value->receiver_field);  // the receiver came from get(), not from a field

  MethodSummary scale = summary_of(c, "scale");
  CHECK(has_int(scale, 9876543210LL, ConstantKind::long_));
  CHECK(std::any_of(scale.constants.begin(), scale.constants.end(), [](const LoadedConstant& k) {
    return k.kind == ConstantKind::double_ && k.float_value == 2.5e10;
  }));
  MethodSummary ratio = summary_of(c, "ratio");
  CHECK(std::any_of(ratio.constants.begin(), ratio.constants.end(), [](const LoadedConstant& k) {
    return k.kind == ConstantKind::float_ && k.float_value == 1.25;
  }));
}

TEST_CASE("summarize: a lambda is an invokedynamic and a method of its own", "[bytecode]") {
  ClassFile c = fixture_class("registry.Registry");
  MethodSummary lazy = summary_of(c, "lazy");
  REQUIRE(lazy.calls.size() == 1);
  CHECK(lazy.calls[0].op == CallOp::dynamic);
  CHECK(lazy.calls[0].method.owner.empty());
  CHECK(lazy.calls[0].method.name == "get");
  CHECK(lazy.calls[0].method.descriptor == "()Ljava/util/function/Supplier;");
  CHECK(has_string(summary_of(c, "lambda$lazy$0"), "from-lambda"));
}

TEST_CASE("summarize: every method of the fixture walks", "[bytecode]") {
  for (const char* name : {"registry.Registry", "registry.Cache"}) {
    ClassFile c = fixture_class(name);
    for (const Member& m : c.methods) {
      if (!m.code) continue;
      INFO(name << "." << m.name);
      auto s = summarize(c, *m.code);
      if (!s) FAIL(s.error().message);
      std::uint32_t next = 0;
      for (const Instruction& i : s->instructions) {
        CHECK(i.offset == next);
        next += i.length;
      }
      CHECK(next == m.code->bytecode.size());
    }
  }
}

TEST_CASE("summarize: operands naming the wrong constant are malformed", "[bytecode]") {
  ClassFile c = fixture_class("registry.Registry");
  Code code;
  code.bytecode = {0xb2, 0x00, 0x01, 0xb1};  // getstatic #1: a Methodref or a Utf8, not a Fieldref
  REQUIRE(c.pool[1].tag != ConstantTag::fieldref);
  auto s = summarize(c, code);
  REQUIRE_FALSE(s);
  CHECK(s.error().code == util::Errc::malformed);
  CHECK_THAT(s.error().message, Catch::Contains("getstatic") && Catch::Contains("at code offset 0"));
  code.bytecode = {0x12, 0x00, 0xb1};  // ldc #0
  CHECK_FALSE(summarize(c, code));
  code.bytecode = {0xb8, 0xff, 0xff, 0xb1};  // invokestatic out of range
  CHECK_FALSE(summarize(c, code));
}
