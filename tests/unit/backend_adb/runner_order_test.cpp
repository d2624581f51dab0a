// RunnerOrder: splitting a requested order into instrumentations the device's runner keeps.
#include <catch2/catch.hpp>

#include "backend/adb/runner_order.hpp"

using flakescan::backend::adb::RunnerOrder;
using Segments = std::vector<std::vector<std::string>>;

TEST_CASE("runner order: nothing learnt, one class listed once is one instrumentation", "[adb][order]") {
  RunnerOrder order;
  CHECK(order.segments({"a.A#x", "a.A#y", "b.B#z"}) == Segments{{"a.A#x", "a.A#y", "b.B#z"}});
  CHECK(order.segments({}).empty());
}

TEST_CASE("runner order: repeats and interleaved classes start a new instrumentation", "[adb][order]") {
  RunnerOrder order;
  CHECK(order.segments({"a.A#x", "a.A#x"}) == Segments{{"a.A#x"}, {"a.A#x"}});
  CHECK(order.segments({"a.A#x", "b.B#z", "a.A#y"}) == Segments{{"a.A#x", "b.B#z"}, {"a.A#y"}});
  CHECK(order.segments({"a.A#x", "b.B#z", "c.C#w", "b.B#v"}) == Segments{{"a.A#x", "b.B#z", "c.C#w"}, {"b.B#v"}});
}

TEST_CASE("runner order: methods asked against the learnt order are split", "[adb][order]") {
  RunnerOrder order;
  order.learn({"a.A#y", "a.A#x", "b.B#z", "a.A#w"});  // the runner ran y before x (and w after both)
  CHECK(order.knows("a.A#y", "a.A#x"));
  CHECK(order.knows("a.A#x", "a.A#w"));
  CHECK_FALSE(order.knows("a.A#y", "b.B#z"));  // across classes nothing is learnt
  CHECK(order.segments({"a.A#y", "a.A#x"}) == Segments{{"a.A#y", "a.A#x"}});
  CHECK(order.segments({"a.A#x", "a.A#y"}) == Segments{{"a.A#x"}, {"a.A#y"}});
  CHECK(order.segments({"a.A#x", "a.A#w", "a.A#y"}) == Segments{{"a.A#x", "a.A#w"}, {"a.A#y"}});
  // A later observation that contradicts an earlier one wins (the code changed).
  order.learn({"a.A#x", "a.A#y"});
  CHECK(order.segments({"a.A#x", "a.A#y"}) == Segments{{"a.A#x", "a.A#y"}});
  CHECK_FALSE(order.knows("a.A#y", "a.A#x"));
}

TEST_CASE("runner order: whether the runner kept the asked order", "[adb][order]") {
  CHECK(RunnerOrder::ran_as_listed({"a.A#x", "a.A#y"}, {"a.A#x", "a.A#y"}));
  CHECK(RunnerOrder::ran_as_listed({"a.A#x", "a.A#y"}, {"a.A#x"}));               // cut short
  CHECK(RunnerOrder::ran_as_listed({"a.A#x", "a.A#y"}, {"a.A#null", "a.A#x"}));    // not requested: ignored
  CHECK_FALSE(RunnerOrder::ran_as_listed({"a.A#x", "a.A#y"}, {"a.A#y", "a.A#x"}));
  CHECK(RunnerOrder::ran_as_listed({"a.A#x", "a.A#y"}, {"a.A#y"}));  // x never started (not found): no order seen
  CHECK(RunnerOrder::singletons({"a.A#x", "a.A#x"}) == Segments{{"a.A#x"}, {"a.A#x"}});
}
