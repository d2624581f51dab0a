#include <catch2/catch.hpp>

#include "core/test_id.hpp"

using flakescan::core::parse_test_ids;
using flakescan::core::TestId;

TEST_CASE("test ids parse as class or method", "[core][test_id]") {
  auto m = TestId::parse("demo.AsyncTest#waitsForResult");
  REQUIRE(m);
  CHECK(m->class_name == "demo.AsyncTest");
  CHECK(m->method == "waitsForResult");
  CHECK(m->str() == "demo.AsyncTest#waitsForResult");

  auto c = TestId::parse("demo.Outer$Inner");
  REQUIRE(c);
  CHECK(c->is_class());

  auto p = TestId::parse("demo.ParamTest#adds[1: x=2]");
  REQUIRE(p);
  CHECK(p->method == "adds[1: x=2]");
}

TEST_CASE("test ids refuse anything that is not a Java name", "[core][test_id]") {
  for (const char* bad : {"", "demo.", ".demo", "demo..X", "1demo.X", "demo.X#", "demo.X#1m",
                          "demo.X#m;rm -rf /", "demo.X#m[$(id)]", "demo X", "demo.X#m[a]b",
                          "demo.X#m'q'", "demo.X#a#b"}) {
    INFO(bad);
    auto r = TestId::parse(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == flakescan::util::Errc::invalid_argument);
  }
}

TEST_CASE("test id lists split on commas outside parameter suffixes", "[core][test_id]") {
  auto ids = parse_test_ids("a.B#c,a.B#d[1, 2],a.C");
  REQUIRE(ids);
  REQUIRE(ids->size() == 3);
  CHECK((*ids)[1].method == "d[1, 2]");
  CHECK((*ids)[2].is_class());
  CHECK_FALSE(parse_test_ids("a.B,,a.C"));
}
