// The class-file parser on a javac-compiled fixture and on hand-made and damaged bytes:
// every prefix of a real class file, every single-byte change, random bytes.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "classfile/bytecode.hpp"
#include "classfile/classfile.hpp"
#include "classfile/classpath.hpp"
#include "fixture.hpp"

using namespace flakescan;
using namespace flakescan::classfile;
using flakescan::classfile::test::fixture_bytes;
using flakescan::classfile::test::fixture_class;

namespace {

void put_u2(Bytes& b, unsigned v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}
void put_utf8(Bytes& b, std::string_view s) {
  b.push_back(1);
  put_u2(b, static_cast<unsigned>(s.size()));
  b.insert(b.end(), s.begin(), s.end());
}

// class A extends java/lang/Object, nothing else; `extra` constants are appended to the
// pool (as #5...) with `extra_count` slots.
Bytes minimal_class(const Bytes& extra = {}, unsigned extra_count = 0, unsigned major = 61) {
  Bytes b{0xCA, 0xFE, 0xBA, 0xBE, 0, 0};
  put_u2(b, major);
  put_u2(b, 5 + extra_count);
  put_utf8(b, "A");
  b.insert(b.end(), {7, 0, 1});
  put_utf8(b, "java/lang/Object");
  b.insert(b.end(), {7, 0, 3});
  b.insert(b.end(), extra.begin(), extra.end());
  put_u2(b, 0x21);
  put_u2(b, 2);
  put_u2(b, 4);
  put_u2(b, 0);  // interfaces
  put_u2(b, 0);  // fields
  put_u2(b, 0);  // methods
  put_u2(b, 0);  // attributes
  return b;
}

void require_malformed(const Bytes& b, std::string_view mentions = {}) {
  auto parsed = parse_class(b);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().code == util::Errc::malformed);
  if (!mentions.empty()) CHECK_THAT(parsed.error().message, Catch::Contains(std::string(mentions)));
}

// A successful parse of damaged bytes must still be safe to walk.
void walk_all(const ClassFile& c) {
  for (const Member& m : c.methods)
    if (m.code) (void)summarize(c, *m.code);
}

}  // namespace

TEST_CASE("parse_class: the fixture's header, pool, fields and methods", "[classfile]") {
  ClassFile c = fixture_class("registry.Registry");
  CHECK(c.name == "registry/Registry");
  CHECK(c.super_name == "java/lang/Object");
  CHECK(c.major_version == 61);
  CHECK(c.interfaces.empty());
  CHECK((c.access_flags & access::public_) != 0);

  const Member* registry = c.find_field("REGISTRY");
  REQUIRE(registry);
  CHECK(registry->descriptor == "Ljava/util/Map;");
  CHECK(registry->is_static());
  CHECK((registry->access_flags & access::final_) != 0);
  const Member* instance = c.find_field("instance");
  REQUIRE(instance);
  CHECK(instance->descriptor == "Lregistry/Registry;");
  CHECK((instance->access_flags & access::private_) != 0);
  const Member* limit = c.find_field("LIMIT");
  REQUIRE(limit);
  REQUIRE(limit->constant_value != 0);
  CHECK(c.constant(limit->constant_value)->tag == ConstantTag::integer);
  CHECK(c.constant(limit->constant_value)->int_value == 4242);
  CHECK(c.find_field("counter"));

  for (auto name : {"<init>", "<clinit>", "getInstance", "reset", "register", "registerDefaults", "dense", "sparse",
                    "scale", "ratio", "bump", "lazy", "lambda$lazy$0"}) {
    INFO(name);
    const Member* m = c.find_method(name);
    REQUIRE(m);
    REQUIRE(m->code);
    CHECK_FALSE(m->code->bytecode.empty());
  }
  CHECK(c.find_method("reset", "()V"));
  CHECK_FALSE(c.find_method("reset", "(I)V"));
  CHECK(c.find_method("register")->descriptor == "(Ljava/lang/String;I)V");
  // A lambda needs the BootstrapMethods attribute; -g adds SourceFile.
  bool bootstrap = false;
  for (const Attribute& a : c.attributes) bootstrap = bootstrap || a.name == "BootstrapMethods";
  CHECK(bootstrap);
}

TEST_CASE("parse_class: long and double constants take two slots", "[classfile]") {
  ClassFile c = fixture_class("registry.Registry");
  bool seen_long = false, seen_double = false;
  for (std::size_t i = 1; i < c.pool.size(); ++i) {
    const Constant& k = c.pool[i];
    if (k.tag == ConstantTag::long_ || k.tag == ConstantTag::double_) {
      REQUIRE(i + 1 < c.pool.size());
      CHECK(c.pool[i + 1].tag == ConstantTag::unusable);
      CHECK(c.constant(static_cast<std::uint16_t>(i + 1)) == nullptr);
    }
    if (k.tag == ConstantTag::long_ && k.int_value == 9876543210LL) seen_long = true;
    if (k.tag == ConstantTag::double_ && k.float_value == 2.5e10) seen_double = true;
  }
  CHECK(seen_long);
  CHECK(seen_double);
}

TEST_CASE("parse_class: modified UTF-8 becomes UTF-8 (NUL, surrogate pairs)", "[classfile]") {
  ClassFile c = fixture_class("registry.Registry");
  const std::string expected = std::string("nul") + '\0' + "-\xF0\x9F\x98\x80";
  bool found = false;
  for (const Constant& k : c.pool) found = found || (k.tag == ConstantTag::utf8 && k.text == expected);
  CHECK(found);

  Bytes bad;
  bad.insert(bad.end(), {1, 0, 1, 0x00});  // a raw 0 byte is not modified UTF-8
  require_malformed(minimal_class(bad, 1), "modified UTF-8");
  bad = {1, 0, 2, 0xC3};  // truncated two-byte form
  bad.push_back('x');
  require_malformed(minimal_class(bad, 1), "modified UTF-8");
  bad = {1, 0, 4, 0xF0, 0x9F, 0x98, 0x80};  // 4-byte forms are not allowed
  require_malformed(minimal_class(bad, 1), "modified UTF-8");
}

TEST_CASE("parse_class: a minimal hand-made class", "[classfile]") {
  auto parsed = parse_class(minimal_class());
  REQUIRE(parsed);
  CHECK(parsed->name == "A");
  CHECK(parsed->super_name == "java/lang/Object");
  CHECK(parsed->pool.size() == 5);
}

TEST_CASE("parse_class: every prefix of a real class file is malformed", "[classfile]") {
  for (const char* name : {"registry.Registry", "registry.Cache"}) {
    Bytes whole = fixture_bytes(name);
    REQUIRE(parse_class(whole));
    for (std::size_t n = 0; n < whole.size(); ++n) {
      auto parsed = parse_class(ByteView(whole.data(), n));
      if (parsed || parsed.error().code != util::Errc::malformed) {
        FAIL_CHECK(name << " prefix of " << n << " bytes was not refused as malformed");
        break;
      }
    }
  }
  auto empty = parse_class(ByteView{});
  REQUIRE_FALSE(empty);
  CHECK_THAT(empty.error().message, Catch::Contains("truncated magic") && Catch::Contains("at byte 0"));
}

TEST_CASE("parse_class: trailing bytes, bad magic, versions, size limit", "[classfile]") {
  Bytes b = minimal_class();
  b.push_back(0);
  require_malformed(b, "1 trailing bytes");
  b = minimal_class();
  b[3] = 0xBF;
  require_malformed(b, "bad magic at byte 0");
  require_malformed(minimal_class({}, 0, 66), "major_version 66");
  require_malformed(minimal_class({}, 0, 44), "major_version 44");
  CHECK(parse_class(minimal_class({}, 0, 45)));
  CHECK(parse_class(minimal_class({}, 0, 65)));
  auto big = parse_class(minimal_class(), Limits{.max_class_bytes = 10});
  REQUIRE_FALSE(big);
  CHECK(big.error().code == util::Errc::too_large);
}

TEST_CASE("parse_class: constant-pool damage", "[classfile]") {
  SECTION("unknown tag") { require_malformed(minimal_class({2, 0, 0}, 1), "unknown tag 2"); }
  SECTION("a long in the last slot") {
    require_malformed(minimal_class({5, 0, 0, 0, 0, 0, 0, 0, 1}, 1), "8-byte constant in the last slot");
  }
  SECTION("a long and its unusable second slot") {
    auto parsed = parse_class(minimal_class({5, 0, 0, 0, 0, 0, 0, 0, 7}, 2));
    REQUIRE(parsed);
    CHECK(parsed->pool[5].int_value == 7);
    CHECK(parsed->pool[6].tag == ConstantTag::unusable);
  }
  SECTION("a Class naming an Integer") {
    require_malformed(minimal_class({3, 0, 0, 0, 9, 7, 0, 5}, 2), "constant #6 (Class): name constant #5 is Integer");
  }
  SECTION("a ref whose class is out of range") {
    require_malformed(minimal_class({9, 0, 99, 0, 1}, 1), "class constant #99");
  }
  SECTION("a MethodHandle of kind 10") { require_malformed(minimal_class({15, 10, 0, 1}, 1), "reference_kind 10"); }
  SECTION("this_class not a Class") {
    Bytes b = minimal_class();
    std::size_t this_at = b.size() - 12;  // after access_flags
    b[this_at + 1] = 1;                   // #1 is the Utf8 "A"
    require_malformed(b, "this_class");
  }
  SECTION("a count of 0") {
    Bytes b{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 0};
    require_malformed(b, "constant_pool_count 0");
  }
}

TEST_CASE("parse_class: every single-byte change is refused or parses safely", "[classfile]") {
  Bytes whole = fixture_bytes("registry.Cache");
  std::mt19937 engine(15);
  std::size_t refused = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    Bytes damaged = whole;
    damaged[i] = static_cast<std::uint8_t>(damaged[i] ^ (1u + engine() % 255u));
    auto parsed = parse_class(damaged);
    if (parsed) {
      walk_all(*parsed);
    } else {
      CHECK(parsed.error().code == util::Errc::malformed);
      ++refused;
    }
  }
  CHECK(refused > 0);
}

TEST_CASE("parse_class: random bytes after a valid magic never crash", "[classfile]") {
  std::mt19937 engine(1515);
  for (int round = 0; round < 2000; ++round) {
    Bytes b{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, static_cast<std::uint8_t>(45 + engine() % 21)};
    std::size_t n = engine() % 300;
    for (std::size_t i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(engine()));
    auto parsed = parse_class(b);
    if (parsed) {
      walk_all(*parsed);
    } else {
      CHECK(parsed.error().code == util::Errc::malformed);
    }
  }
}

TEST_CASE("descriptors", "[classfile]") {
  CHECK(descriptor_class("Ljava/util/Map;") == "java/util/Map");
  CHECK(descriptor_class("[I") == "[I");
  CHECK_FALSE(descriptor_class("I"));
  CHECK_FALSE(descriptor_class("L;"));
  CHECK_FALSE(descriptor_class("Ljava/util/Map"));
  CHECK(field_slots("J") == 2);
  CHECK(field_slots("[J") == 1);
  CHECK_FALSE(field_slots("V"));
  auto slots = method_slots("(JLjava/lang/String;[DI)D");
  REQUIRE(slots);
  CHECK(slots->arguments == 5);
  CHECK(slots->result == 2);
  CHECK(method_slots("()V")->result == 0);
  CHECK_FALSE(method_slots("(V)V"));
  CHECK_FALSE(method_slots("()"));
  CHECK_FALSE(method_slots("(I"));
  CHECK_FALSE(method_slots("()VV"));
}

TEST_CASE("read_class_bytes: directories of the classpath", "[classfile]") {
  std::vector<std::filesystem::path> classpath{"/nonexistent-flakescan-dir", FLAKESCAN_CLASSFILE_FIXTURE_DIR};
  auto dotted = read_class_bytes(classpath, "registry.Registry");
  auto slashed = read_class_bytes(classpath, "registry/Registry");
  REQUIRE(dotted);
  REQUIRE(slashed);
  CHECK(*dotted == *slashed);
  CHECK(read_class_bytes(classpath, "registry.Missing").error().code == util::Errc::not_found);
  CHECK(read_class_bytes(classpath, "").error().code == util::Errc::invalid_argument);
  CHECK(read_class_bytes(classpath, "/etc/passwd").error().code == util::Errc::invalid_argument);
  CHECK(read_class_bytes(classpath, "registry.Registry", Limits{.max_class_bytes = 16}).error().code ==
        util::Errc::too_large);
}
