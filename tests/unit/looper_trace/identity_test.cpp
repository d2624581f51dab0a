#include <catch2/catch.hpp>

#include "looper_trace/identity.hpp"

using namespace flakescan::looper_trace;
using flakescan::core::Frame;

TEST_CASE("lambda class names lose their per-run counter and address", "[unit][trace]") {
  CHECK(normalise_class("demo.android.WeatherScreen$$Lambda$36/0x00007fa0cc011c38") == "demo.android.WeatherScreen$$Lambda");
  CHECK(normalise_class("demo.android.WeatherScreen$$Lambda$41/0x0000000800c0b000") == "demo.android.WeatherScreen$$Lambda");
  CHECK(normalise_class("demo.android.WeatherScreen$1") == "demo.android.WeatherScreen$1");
}

TEST_CASE("identities of the same post in two runs are equal, other stacks differ", "[unit][trace]") {
  std::vector<Frame> run1{{"android.os.MessageQueue", "enqueueMessage", "", 10},
                          {"demo.android.Screen$$Lambda$36/0x00007fa0cc011c38", "run", "", -1}};
  std::vector<Frame> run2{{"android.os.MessageQueue", "enqueueMessage", "", 10},
                          {"demo.android.Screen$$Lambda$52/0x00007f00aa000000", "run", "", -1}};
  EventIdentity a{32, Role::background, stable_stack(run1), 0};
  EventIdentity b{33, Role::background, stable_stack(run2), 0};
  CHECK(a.key() == b.key());  // a statement later under the debugger: same key
  CHECK(a.str() != b.str());
  run2[1].method = "call";
  EventIdentity c{32, Role::background, stable_stack(run2), 0};
  CHECK(c.key() != a.key());
  EventIdentity d{32, Role::testing, stable_stack(run1), 0};
  CHECK(d.key() != a.key());
}

TEST_CASE("occurrence counters count repeats per role and stack", "[unit][trace]") {
  OccurrenceCounter counter;
  std::vector<std::string> s1{"a.B.post"}, s2{"a.B.send"};
  CHECK(counter.next(Role::background, s1) == 0);
  CHECK(counter.next(Role::background, s1) == 1);
  CHECK(counter.next(Role::background, s2) == 0);
  CHECK(counter.next(Role::testing, s1) == 0);
  CHECK(counter.next(Role::background, s1) == 2);
}
