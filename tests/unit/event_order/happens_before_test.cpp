// Happens-before rules, closure and executable intervals on small hand-written message traces
// in the recorded text format (parsed with parse_message_trace, so the format is exercised).
#include <catch2/catch.hpp>

#include <string>

#include "event_order/happens_before.hpp"

using namespace flakescan;
using event_order::HbEdge;
using event_order::IntervalBound;

namespace {

// Threads of every trace below: 0 main, 1 the testing thread, 2 and 3 background posters,
// 4 a background looper.
const char* hb_header =
    "test\tcom.example.HbTest#case\n"
    "outcome\tpass\n"
    "thread\t0\tmain\tmain\n"
    "thread\t1\ttesting\tInstr: androidx.test.runner.AndroidJUnitRunner\n"
    "thread\t2\tbackground\tpool-1-thread-1\n"
    "thread\t3\tbackground\tpool-2-thread-1\n"
    "thread\t4\tbackground\tLooperThread\n";

std::string send(int message, int sender, int handler, int delay, double at) {
  return "send\t" + std::to_string(message) + "\t" + std::to_string(sender) + "\t" + std::to_string(handler) + "\t" +
         std::to_string(delay) + "\t" + std::to_string(1000 + int(at) + delay) + "\t" + std::to_string(at) + "\t" +
         std::to_string(20 + message) + "\t0\tcom.example.App.post:" + std::to_string(message) + "\n";
}

std::string dispatch(int message, int thread, double at) {
  return "dispatch\t" + std::to_string(message) + "\t" + std::to_string(thread) + "\t" + std::to_string(at) + "\n";
}

looper_trace::MessageTrace parse(const std::string& records) {
  auto t = looper_trace::parse_message_trace(hb_header + records);
  if (!t) FAIL(t.error().message);
  return *t;
}

}  // namespace

TEST_CASE("rule 1: one sender, one other handler, delays not decreasing", "[unit][happens_before]") {
  auto t = parse(send(0, 2, 0, 0, 1) + send(1, 2, 0, 0, 2) + dispatch(0, 0, 3) + dispatch(1, 0, 4));
  auto hb = event_order::happens_before(t);
  CHECK(hb.edges() == std::vector<HbEdge>{{0, 1, 1}});
  CHECK(hb.before(0, 1));
  CHECK_FALSE(hb.before(1, 0));

  SECTION("a longer delay first orders nothing") {
    auto u = parse(send(0, 2, 0, 50, 1) + send(1, 2, 0, 0, 2) + dispatch(1, 0, 3) + dispatch(0, 0, 52));
    CHECK(event_order::hb_edges(u).empty());
  }
}

TEST_CASE("rule 2: sender and handler the same thread", "[unit][happens_before]") {
  auto t = parse(send(0, 4, 4, 0, 1) + send(1, 4, 4, 5, 2) + dispatch(0, 4, 3) + dispatch(1, 4, 8));
  auto hb = event_order::happens_before(t);
  CHECK(hb.edges() == std::vector<HbEdge>{{0, 1, 2}});
  CHECK(hb.direct_rule(0, 1) == 2);
  CHECK_FALSE(hb.direct_rule(1, 0));
}

TEST_CASE("rule 3: an immediate message overtakes an earlier delayed one on the same thread", "[unit][happens_before]") {
  // m0 is due 100 ms after its send, m1 at once 10 ms later: m1 <HB m0.
  auto t = parse(send(0, 0, 0, 100, 0) + send(1, 0, 0, 0, 10) + dispatch(1, 0, 11) + dispatch(0, 0, 100));
  auto hb = event_order::happens_before(t);
  CHECK(hb.edges() == std::vector<HbEdge>{{1, 0, 3}});
  CHECK(hb.before(1, 0));
  CHECK_FALSE(hb.before(0, 1));

  SECTION("not when the delay has run out by the second send") {
    auto u = parse(send(0, 0, 0, 5, 0) + send(1, 0, 0, 0, 10) + dispatch(0, 0, 6) + dispatch(1, 0, 11));
    CHECK(event_order::hb_edges(u).empty());
  }
  SECTION("not across threads") {
    auto u = parse(send(0, 2, 0, 100, 0) + send(1, 2, 0, 0, 10) + dispatch(1, 0, 11) + dispatch(0, 0, 100));
    CHECK(event_order::hb_edges(u).empty());
  }
}

TEST_CASE("rule 4: the handler of m1 sends m2 on to a third thread", "[unit][happens_before]") {
  // pool-1 -> LooperThread, handled at 5; LooperThread -> main at 6.
  auto t = parse(send(0, 2, 4, 0, 1) + dispatch(0, 4, 5) + send(1, 4, 0, 0, 6) + dispatch(1, 0, 7));
  CHECK(event_order::hb_edges(t) == std::vector<HbEdge>{{0, 1, 4}});

  SECTION("m2 sent before m1's dispatch began: no edge") {
    auto u = parse(send(0, 2, 4, 0, 1) + send(1, 4, 0, 0, 4) + dispatch(0, 4, 5) + dispatch(1, 0, 7));
    CHECK(event_order::hb_edges(u).empty());
  }
  SECTION("m2's handler does not matter: unknown handler still ordered") {
    auto u = parse(send(0, 2, 4, 0, 1) + dispatch(0, 4, 5) + send(1, 4, -1, 0, 6));
    CHECK(event_order::hb_edges(u) == std::vector<HbEdge>{{0, 1, 4}});
  }
}

TEST_CASE("rule 5: the handler of m1 answers to m1's sender", "[unit][happens_before]") {
  // main -> LooperThread, handled at 5; LooperThread -> main at 6 (an async message).
  auto t = parse(send(0, 0, 4, 0, 1) + dispatch(0, 4, 5) + send(1, 4, 0, 0, 6) + dispatch(1, 0, 8));
  CHECK(event_order::hb_edges(t) == std::vector<HbEdge>{{0, 1, 5}});
  CHECK(t.async(1));

  SECTION("m1 never dispatched (handler unknown): no edge") {
    auto u = parse(send(0, 0, -1, 0, 1) + send(1, 4, 0, 0, 6) + dispatch(1, 0, 8));
    CHECK(event_order::hb_edges(u).empty());
  }
}

TEST_CASE("no rule relates async messages of two different background threads", "[unit][happens_before]") {
  auto t = parse(send(0, 2, 0, 0, 1) + send(1, 3, 0, 0, 2) + dispatch(0, 0, 3) + dispatch(1, 0, 4));
  auto hb = event_order::happens_before(t);
  CHECK(hb.edges().empty());
  CHECK_FALSE(hb.ordered(0, 1));
  auto intervals = event_order::executable_intervals(t, hb);
  REQUIRE(intervals.size() == 2);
  for (const auto& i : intervals) {
    CHECK_FALSE(i.lower);
    CHECK_FALSE(i.upper);
  }
}

TEST_CASE("the closure orders a main-thread message before an async reply through a background looper",
          "[unit][happens_before]") {
  // m0: the test posts to main; while main handles it, it posts m1 to LooperThread (rule 4);
  // LooperThread handles m1 and posts m2 back to main (rule 5). No rule relates m0 and m2.
  auto t = parse(send(0, 1, 0, 0, 0) + dispatch(0, 0, 1) + send(1, 0, 4, 0, 2) + dispatch(1, 4, 3) +
                 send(2, 4, 0, 0, 4) + dispatch(2, 0, 5));
  auto hb = event_order::happens_before(t);
  CHECK(hb.edges() == std::vector<HbEdge>{{0, 1, 4}, {1, 2, 5}});
  CHECK_FALSE(hb.direct_rule(0, 2));
  CHECK(hb.before(0, 2));
  CHECK_FALSE(hb.before(2, 0));
  CHECK(hb.chain(0, 2) == std::vector<HbEdge>{{0, 1, 4}, {1, 2, 5}});
  CHECK(hb.chain(2, 0).empty());

  CHECK(event_order::ui_sequence(t) == std::vector<size_t>{0, 2});
  auto intervals = event_order::executable_intervals(t, hb);
  REQUIRE(intervals.size() == 1);
  CHECK(intervals[0].message == 2);
  CHECK(intervals[0].position == 1);
  CHECK(intervals[0].lower == IntervalBound{0, 0});
  CHECK_FALSE(intervals[0].upper);

  // The text format keeps everything the rules read.
  auto again = looper_trace::parse_message_trace(looper_trace::format_message_trace(t));
  REQUIRE(again);
  CHECK(event_order::hb_edges(*again) == hb.edges());
}

TEST_CASE("executable intervals: both bounds, no upper bound, none", "[unit][happens_before]") {
  // pool-1 posts m0, m3, m4 (rule 1 chain); the test posts m1; pool-2 posts m2.
  auto t = parse(send(0, 2, 0, 0, 1) + dispatch(0, 0, 2) + send(1, 1, 0, 0, 3) + dispatch(1, 0, 4) +
                 send(2, 3, 0, 0, 5) + dispatch(2, 0, 6) + send(3, 2, 0, 0, 7) + dispatch(3, 0, 8) +
                 send(4, 2, 0, 0, 9) + dispatch(4, 0, 10));
  auto hb = event_order::happens_before(t);
  CHECK(hb.before(0, 4));  // by closure and directly by rule 1
  CHECK_FALSE(hb.ordered(1, 2));

  auto intervals = event_order::executable_intervals(t, hb);
  REQUIRE(intervals.size() == 4);  // m1 is sync
  CHECK(intervals[0].message == 0);
  CHECK_FALSE(intervals[0].lower);
  CHECK(intervals[0].upper == IntervalBound{3, 3});

  CHECK(intervals[1].message == 2);
  CHECK_FALSE(intervals[1].lower);
  CHECK_FALSE(intervals[1].upper);

  // Tightest bounds: m3 follows m0 and precedes m4, though m0 <HB m4 too.
  CHECK(intervals[2].message == 3);
  CHECK(intervals[2].lower == IntervalBound{0, 0});
  CHECK(intervals[2].upper == IntervalBound{4, 4});

  CHECK(intervals[3].message == 4);
  CHECK(intervals[3].lower == IntervalBound{3, 3});
  CHECK_FALSE(intervals[3].upper);
}

TEST_CASE("the main-thread sequence is dispatch order, then what was never dispatched", "[unit][happens_before]") {
  auto t = parse(send(0, 2, 0, 50, 1) + send(1, 3, 0, 0, 2) + dispatch(1, 0, 3) + send(2, 2, 0, 0, 4) +
                 send(3, 2, 4, 0, 5) + dispatch(0, 0, 51));
  CHECK(event_order::ui_sequence(t) == std::vector<size_t>{1, 0, 2});
  auto no_main = looper_trace::parse_message_trace("test\ta.B#c\nthread\t0\tbackground\tx\n" + send(0, 0, 0, 0, 1));
  REQUIRE(no_main);
  CHECK(event_order::ui_sequence(*no_main).empty());
}

TEST_CASE("a relation built from edges drops out-of-range ends and keeps the lowest rule", "[unit][happens_before]") {
  event_order::HappensBefore hb(3, {{1, 2, 4}, {0, 1, 2}, {1, 2, 1}, {0, 7, 1}});
  CHECK(hb.edges() == std::vector<HbEdge>{{0, 1, 2}, {1, 2, 1}});
  CHECK(hb.before(0, 2));
  CHECK_FALSE(hb.before(0, 7));
  CHECK(hb.size() == 3);
}

TEST_CASE("rule 6: a thread started while a message was dispatched sends after that message", "[unit][happens_before]") {
  // The testing thread's message 0 runs on main and starts thread 2 (started_in = 0), which
  // sends message 1 to main; thread 3, started by nobody we saw, sends message 2.
  std::string text = std::string(hb_header);
  text.replace(text.find("pool-1-thread-1\n"), 16, "pool-1-thread-1\t0\n");
  auto t = looper_trace::parse_message_trace(text + send(0, 1, 0, 0, 1) + dispatch(0, 0, 2) + send(1, 2, 0, 0, 3) +
                                             send(2, 3, 0, 0, 4) + dispatch(1, 0, 5) + dispatch(2, 0, 6));
  REQUIRE(t);
  CHECK(t->threads[2].started_in == 0);
  CHECK(looper_trace::format_message_trace(*t).find("pool-1-thread-1\t0\n") != std::string::npos);
  auto hb = event_order::happens_before(*t);
  CHECK(hb.direct_rule(0, 1) == 6);
  CHECK(hb.before(0, 1));
  CHECK_FALSE(hb.ordered(0, 2));
  CHECK_FALSE(hb.ordered(1, 2));
  // Message 1 may not move before message 0 any more; message 2 still may.
  auto intervals = event_order::executable_intervals(*t, hb);
  REQUIRE(intervals.size() == 2);
  REQUIRE(intervals[0].lower);
  CHECK(intervals[0].lower->message == 0);
  CHECK_FALSE(intervals[1].lower);

  SECTION("a thread started in a message the trace does not have is refused") {
    std::string bad = std::string(hb_header);
    bad.replace(bad.find("pool-1-thread-1\n"), 16, "pool-1-thread-1\t7\n");
    CHECK_FALSE(looper_trace::parse_message_trace(bad + send(0, 1, 0, 0, 1)));
  }
}
