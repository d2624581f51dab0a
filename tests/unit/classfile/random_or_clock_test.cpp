// The tests that draw a random number or read the clock (classfile/random_or_clock.hpp), on class
// files compiled at build time from fixture/registry/ChanceTest.java.
#include <catch2/catch.hpp>

#include <map>

#include "classfile/random_or_clock.hpp"
#include "unit/classfile/fixture.hpp"

using namespace flakescan::classfile;

namespace {

std::string id(const char* method) { return std::string("registry.ChanceTest#") + method; }

}  // namespace

TEST_CASE("random_or_clock: unseeded randomness and the clock, directly, through helpers and in lambdas", "[classfile][chance]") {
  std::map<std::string, ClassFile> loaded;
  const std::vector<std::string> tests{id("drawsARandomNumber"),        id("drawsFromASeededRandom"),
                                       id("callsMathRandom"),           id("readsTheClock"),
                                       id("readsInstantNow"),           id("makesARandomUuid"),
                                       id("shufflesWithoutARandom"),    id("shufflesWithASeededRandom"),
                                       id("readsTheClockThroughHelpers"), id("readsTheClockInALambda"),
                                       id("isDeterministic"),           "registry.Missing#any",
                                       "no-method-id"};
  auto readers = random_or_clock_readers(tests, test::fixture_lookup(loaded, {"registry.ChanceTest", "registry.Clocks"}));
  CHECK(readers == std::set<std::string>{id("drawsARandomNumber"), id("callsMathRandom"), id("readsTheClock"),
                                         id("readsInstantNow"), id("makesARandomUuid"), id("shufflesWithoutARandom"),
                                         id("readsTheClockThroughHelpers"), id("readsTheClockInALambda")});
}

TEST_CASE("random_or_clock: calls are followed only as deep as asked", "[classfile][chance]") {
  std::map<std::string, ClassFile> loaded;
  auto lookup = test::fixture_lookup(loaded, {"registry.ChanceTest", "registry.Clocks"});
  // readsTheClockThroughHelpers -> helper -> Clocks.twoCallsAway -> Clocks.read (nanoTime): three calls.
  CHECK(random_or_clock_readers({id("readsTheClockThroughHelpers")}, lookup, 3).size() == 1);
  CHECK(random_or_clock_readers({id("readsTheClockThroughHelpers")}, lookup, 2).empty());
  CHECK(random_or_clock_readers({id("readsTheClock")}, lookup, 0).size() == 1);
}

TEST_CASE("random_or_clock: the JDK's sources by owner, name and descriptor", "[classfile][chance]") {
  CHECK(is_random_or_clock({"java/util/Random", "<init>", "()V"}));
  CHECK_FALSE(is_random_or_clock({"java/util/Random", "<init>", "(J)V"}));  // seeded
  CHECK(is_random_or_clock({"java/time/LocalDate", "now", "()Ljava/time/LocalDate;"}));
  CHECK(is_random_or_clock({"java/time/LocalDate", "now", "(Ljava/time/Clock;)Ljava/time/LocalDate;"}));
  CHECK_FALSE(is_random_or_clock({"java/time/LocalDate", "of", "(III)Ljava/time/LocalDate;"}));
  CHECK(is_random_or_clock({"java/security/SecureRandom", "<init>", "([B)V"}));
  CHECK_FALSE(is_random_or_clock({"java/util/Collections", "shuffle", "(Ljava/util/List;Ljava/util/Random;)V"}));
  CHECK_FALSE(is_random_or_clock({"com/example/Random", "<init>", "()V"}));
}

TEST_CASE("random_or_clock: what JUnit runs before each test counts: @Before, field initialisers, an inherited @Before",
          "[classfile][chance]") {
  std::map<std::string, ClassFile> loaded;
  auto lookup = test::fixture_lookup(
      loaded, {"registry.SetUpChanceTest", "registry.FieldClockTest", "registry.InheritedSetUpTest", "registry.PlainSetUpTest"});
  auto readers = random_or_clock_readers({"registry.SetUpChanceTest#usesWhatSetUpRead", "registry.FieldClockTest#usesTheField",
                                          "registry.InheritedSetUpTest#inheritsTheSetUp", "registry.PlainSetUpTest#usesN"},
                                         lookup);
  CHECK(readers == std::set<std::string>{"registry.SetUpChanceTest#usesWhatSetUpRead", "registry.FieldClockTest#usesTheField",
                                         "registry.InheritedSetUpTest#inheritsTheSetUp"});
}

TEST_CASE("annotation_types: the run-time annotations of a method, whatever their element values", "[classfile][chance]") {
  const ClassFile c = test::fixture_class("registry.SetUpChanceTest");
  auto types = annotation_types(c, test::method(c, "setUp").attributes);
  REQUIRE(types);
  CHECK(*types == std::vector<std::string>{"Lregistry/Tagged;", "Lorg/junit/Before;"});
  auto none = annotation_types(c, test::method(c, "usesWhatSetUpRead").attributes);
  REQUIRE(none);
  CHECK(none->empty());
  // A truncated attribute is malformed, not a crash.
  std::vector<Attribute> cut = test::method(c, "setUp").attributes;
  for (auto& a : cut)
    if (a.name == "RuntimeVisibleAnnotations") a.info.resize(a.info.size() - 3);
  CHECK_FALSE(annotation_types(c, cut));
}
