// Regressions of the first review of the pure functions: Java source forms javac accepts.
#include <catch2/catch.hpp>

#include <filesystem>

#include "classfile/classpath.hpp"
#include "repair/cleaner_calls.hpp"
#include "repair/field_state.hpp"

using namespace flakescan;
using namespace flakescan::repair;

TEST_CASE("java_statement: a null of an array type is cast to a Java array type", "[repair][java]") {
  Call c{false, "pkg.Registry", "registerAll", "([Ljava/lang/String;)V", {{Arg::Kind::null, 0, "", "[Ljava/lang/String;"}}, ""};
  CHECK(java_statement(c, std::nullopt, std::nullopt) == "pkg.Registry.registerAll((java.lang.String[]) null);");
  Call d{false, "pkg.C", "set", "([[I)V", {{Arg::Kind::null, 0, "", "[[I"}}, ""};
  CHECK(java_statement(d, std::nullopt, std::nullopt) == "pkg.C.set((int[][]) null);");
}

TEST_CASE("candidate_calls/java_statement: short, byte and char parameters get a cast", "[repair][java]") {
  // javac: s(0) for void s(short) is "possible lossy conversion from int to short".
  for (auto [desc, cast] : {std::pair{"(S)V", "(short) "}, std::pair{"(B)V", "(byte) "}, std::pair{"(C)V", "(char) "}}) {
    classfile::ResetCandidate r{"pkg/Levels", "resetLevel", desc, classfile::access::public_ | classfile::access::static_,
                                {{classfile::ResetKind::writes_field, 0, {}}}};
    const PollutedField field{"pkg.Levels", "level", std::string(desc).substr(1, 1), ""};
    auto calls = candidate_calls(field, {r}, {}, {}, 10);
    REQUIRE(calls.size() == 1);
    CHECK(java_statement(calls[0], std::nullopt, std::nullopt) == "pkg.Levels.resetLevel(" + std::string(cast) + "0);");
  }
}

TEST_CASE("field_expression: a public field of a package-private class is not readable from another package",
          "[repair][java]") {
  std::vector<std::filesystem::path> classpath{FLAKESCAN_REPAIR_FIXTURE_DIR};
  auto bytes = classfile::read_class_bytes(classpath, "pkg.Hidden");
  REQUIRE(bytes);
  auto cls = classfile::parse_class(*bytes);
  REQUIRE(cls);
  ClassFiles classes{{"pkg/Hidden", *cls}};
  const PollutedField field{"pkg.Hidden", "VALUE", "Ljava/lang/Object;", ""};
  CHECK(field_expression(field, classes, "pkg") == "pkg.Hidden.VALUE");
  CHECK_FALSE(field_expression(field, classes, "other"));  // pkg.Hidden is not visible in package other
}

TEST_CASE("field_states: a leading hash field leaves no stray comma", "[repair][java]") {
  core::HeapGraph g;
  g.roots.push_back({"p.C.key", core::Value{core::Value::Kind::object, 0, 0, core::ObjectRef{1}}});
  core::HeapNode n;
  n.id = core::ObjectRef{1};
  n.class_name = "p.Key";
  n.fields = {{"hash", core::Value::of_int(9)}, {"value", core::Value::of_int(42)}};
  g.nodes.emplace(1, n);
  CHECK(field_states(g).at("p.C.key").canonical == "#0 p.Key{value=42}");
}
