// The tests that change static state (classfile/static_writers.hpp), on class files compiled at
// build time from fixture/registry/WritersTest.java.
#include <catch2/catch.hpp>

#include <map>

#include "classfile/static_writers.hpp"
#include "unit/classfile/fixture.hpp"

using namespace flakescan::classfile;

namespace {

const std::vector<std::string> kTests{
    "registry.WritersTest#writesField",          "registry.WritersTest#recordsThroughAMutator",
    "registry.WritersTest#setsAProperty",        "registry.WritersTest#writesThroughHelpers",
    "registry.WritersTest#writesInALambda",      "registry.WritersTest#onlyReads",
    "registry.WritersTest#onlyInstanceState",    "registry.Missing#any",
    "no-method-id"};

}  // namespace

TEST_CASE("static_writers: putstatic, a mutator on a static, a JDK setter, through helpers and lambdas", "[classfile][writers]") {
  std::map<std::string, ClassFile> loaded;
  auto lookup = test::fixture_lookup(loaded, {"registry.WritersTest", "registry.Counters", "registry.Setup"});
  auto writers = static_writers(kTests, lookup);
  CHECK(writers == std::set<std::string>{"registry.WritersTest#writesField", "registry.WritersTest#recordsThroughAMutator",
                                         "registry.WritersTest#setsAProperty", "registry.WritersTest#writesThroughHelpers",
                                         "registry.WritersTest#writesInALambda"});
}

TEST_CASE("static_writers: calls are followed only as deep as asked", "[classfile][writers]") {
  std::map<std::string, ClassFile> loaded;
  auto lookup = test::fixture_lookup(loaded, {"registry.WritersTest", "registry.Counters", "registry.Setup"});
  // writesThroughHelpers -> helper -> Setup.twoCallsAway -> Counters.bump (putstatic): three calls.
  CHECK(static_writers({"registry.WritersTest#writesThroughHelpers"}, lookup, 3).size() == 1);
  CHECK(static_writers({"registry.WritersTest#writesThroughHelpers"}, lookup, 2).empty());
  CHECK(static_writers({"registry.WritersTest#writesField"}, lookup, 0).size() == 1);
}
