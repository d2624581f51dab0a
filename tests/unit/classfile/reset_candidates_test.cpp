// Reset-method search and literal mining (ODRepair, docs/repair.md) on the fixture.
#include <catch2/catch.hpp>

#include <algorithm>

#include "classfile/reset_candidates.hpp"
#include "fixture.hpp"

using namespace flakescan;
using namespace flakescan::classfile;
using flakescan::classfile::test::fixture_class;

namespace {

std::vector<ClassFile> fixture_classes() {
  return {fixture_class("registry.Registry"), fixture_class("registry.Cache")};
}

const ResetCandidate* find(const std::vector<ResetCandidate>& list, std::string_view cls, std::string_view method) {
  for (const ResetCandidate& c : list)
    if (c.class_name == cls && c.method_name == method) return &c;
  return nullptr;
}

std::vector<std::string> names(const std::vector<ResetCandidate>& list) {
  std::vector<std::string> out;
  for (const ResetCandidate& c : list) out.push_back(c.class_name + "." + c.method_name);
  return out;
}

template <class T>
bool contains(const std::vector<T>& list, const T& v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

}  // namespace

TEST_CASE("is_mutator_name", "[reset]") {
  for (auto n : {"clear", "put", "putAll", "putIfAbsent", "remove", "removeIf", "add", "addAll", "set", "setValue",
                 "reset", "resetAll", "register", "registerListener", "unregister", "unregisterAll", "computeIfAbsent",
                 "merge", "replaceAll", "retainAll", "set2"})
    CHECK(is_mutator_name(n));
  for (auto n : {"get", "address", "settings", "resetting", "puts", "size", "clearly", "contains", ""})
    CHECK_FALSE(is_mutator_name(n));
}

TEST_CASE("find_reset_candidates: the static map", "[reset]") {
  auto classes = fixture_classes();
  auto found = find_reset_candidates(classes, {"registry/Registry", "REGISTRY", "Ljava/util/Map;"});
  if (!found) FAIL(found.error().message);
  INFO(Catch::Detail::stringify(names(*found)));

  const ResetCandidate* reset = find(*found, "registry/Registry", "reset");
  REQUIRE(reset);
  CHECK(reset->method_descriptor == "()V");
  CHECK_FALSE(reset->writes_field());  // REGISTRY is final: reset() clears it
  REQUIRE(reset->sites.size() == 1);
  CHECK(reset->sites[0].kind == ResetKind::mutates_field);
  CHECK(reset->sites[0].call == MemberRef{"java/util/Map", "clear", "()V"});

  const ResetCandidate* reg = find(*found, "registry/Registry", "register");
  REQUIRE(reg);
  REQUIRE(reg->sites.size() == 1);
  CHECK(reg->sites[0].kind == ResetKind::mutates_field);
  CHECK(reg->sites[0].call.name == "put");

  const ResetCandidate* defaults = find(*found, "registry/Registry", "registerDefaults");
  REQUIRE(defaults);
  CHECK(defaults->sites.size() == 3);  // through the local `m`
  for (const ResetSite& s : defaults->sites) CHECK(s.kind == ResetKind::mutates_field);

  const ResetCandidate* flush = find(*found, "registry/Cache", "flush");
  REQUIRE(flush);
  REQUIRE(flush->sites.size() == 1);
  CHECK(flush->sites[0].kind == ResetKind::mutates_field_type);

  CHECK_FALSE(find(*found, "registry/Registry", "lookup"));     // get is no mutator
  CHECK_FALSE(find(*found, "registry/Registry", "<clinit>"));   // cannot be called
  CHECK_FALSE(find(*found, "registry/Cache", "unrelated"));     // StringBuilder.append
  CHECK(found->size() == 4);
}

TEST_CASE("find_reset_candidates: the singleton and a counter", "[reset]") {
  auto classes = fixture_classes();
  auto singleton = find_reset_candidates(classes, {"registry/Registry", "instance", "Lregistry/Registry;"});
  REQUIRE(singleton);
  CHECK(names(*singleton) == std::vector<std::string>{"registry/Registry.getInstance", "registry/Registry.reset"});
  for (const ResetCandidate& c : *singleton) CHECK(c.writes_field());

  auto counter = find_reset_candidates(classes, {"registry/Registry", "counter", "I"});
  REQUIRE(counter);
  CHECK(names(*counter) == std::vector<std::string>{"registry/Registry.reset", "registry/Registry.register"});

  auto nothing = find_reset_candidates(classes, {"registry/Other", "counter", "I"});
  REQUIRE(nothing);
  CHECK(nothing->empty());
}

TEST_CASE("find_reset_candidates: malformed bytecode names class and method", "[reset]") {
  auto classes = fixture_classes();
  Member& m = classes[0].methods.front();
  REQUIRE(m.code);
  m.code->bytecode = {0xca};
  auto found = find_reset_candidates(classes, {"registry/Registry", "counter", "I"});
  REQUIRE_FALSE(found);
  CHECK(found.error().code == util::Errc::malformed);
  CHECK_THAT(found.error().message, Catch::StartsWith("registry/Registry." + m.name + m.descriptor + ": "));
}

TEST_CASE("collect_literals: strings, ints and longs of a class", "[reset]") {
  ClassFile registry = fixture_class("registry.Registry");
  auto literals = collect_literals(registry);
  if (!literals) FAIL(literals.error().message);
  for (std::string s : {"alpha", "beta", "gamma", "one", "thousand", "from-lambda"}) CHECK(contains(literals->strings, s));
  CHECK(contains(literals->strings, std::string("nul") + '\0' + "-\xF0\x9F\x98\x80"));
  for (std::int32_t v : {100, 1000, 100000, 4242, -1}) {
    INFO(v);
    CHECK(contains(literals->ints, v));
  }
  CHECK(contains(literals->longs, std::int64_t{9876543210LL}));
  auto sorted = literals->strings;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());

  auto cache = collect_literals(fixture_class("registry.Cache"));
  REQUIRE(cache);
  CHECK(cache->strings == std::vector<std::string>{"x"});
  Literals merged = *cache;
  merge(merged, *literals);
  merge(merged, *literals);
  CHECK(merged.strings.front() == "x");
  CHECK(merged.strings.size() == literals->strings.size() + 1);
  CHECK(merged.ints.size() >= literals->ints.size());
}
