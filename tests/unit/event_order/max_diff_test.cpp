// Maximum-differentiation scheduling on small hand-written message traces: the difference
// arithmetic, the swaps it makes and the HB orders it never breaks, determinism per seed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "event_order/max_diff.hpp"

using namespace flakescan;
using event_order::MovedMessage;
using event_order::PlacementConstraint;

namespace {

// Threads: 0 main, 1 the testing thread, 2 and 3 background posters.
const char* max_diff_header =
    "test\tcom.example.MaxDiffTest#case\n"
    "outcome\tfail\n"
    "thread\t0\tmain\tmain\n"
    "thread\t1\ttesting\tInstr: androidx.test.runner.AndroidJUnitRunner\n"
    "thread\t2\tbackground\tpool-1-thread-1\n"
    "thread\t3\tbackground\tpool-2-thread-1\n";

// Message n sent by `sender` to main at 2n and dispatched at 2n + 1, no delay.
looper_trace::MessageTrace to_main(const std::vector<int>& senders) {
  std::string text = max_diff_header;
  for (size_t n = 0; n < senders.size(); ++n) {
    auto i = std::to_string(n);
    text += "send\t" + i + "\t" + std::to_string(senders[n]) + "\t0\t0\t" + std::to_string(1000 + 2 * n) + "\t" +
            std::to_string(2 * n) + "\t" + std::to_string(30 + n) + "\t0\tcom.example.App.run:" + i + "\n";
    text += "dispatch\t" + i + "\t0\t" + std::to_string(2 * n + 1) + "\n";
  }
  auto t = looper_trace::parse_message_trace(text);
  if (!t) FAIL(t.error().message);
  return *t;
}

size_t position(const std::vector<size_t>& sequence, size_t message) {
  return size_t(std::find(sequence.begin(), sequence.end(), message) - sequence.begin());
}

bool permutation_of(std::vector<size_t> a, std::vector<size_t> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// Every HB pair of the sequence in HB order.
bool respects(const event_order::HappensBefore& hb, const std::vector<size_t>& sequence) {
  for (size_t i = 0; i < sequence.size(); ++i)
    for (size_t j = i + 1; j < sequence.size(); ++j)
      if (hb.before(sequence[j], sequence[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("PDC over 1-based positions", "[unit][max_diff]") {
  CHECK(event_order::pdc(2, 2) == 0.0);
  CHECK(event_order::pdc(0, 2) == Approx(2.0));   // 0.5*2 + 0.5*2/1
  CHECK(event_order::pdc(3, 1) == Approx(1.25));  // 0.5*2 + 0.5*2/4
  CHECK(event_order::pdc(1, 0) == Approx(0.75));  // 0.5*1 + 0.5*1/2
  CHECK(event_order::pdc(1, 2) == Approx(0.75));
}

TEST_CASE("inversions count pairs in different relative order", "[unit][max_diff]") {
  CHECK(event_order::inversions({1, 2, 3}, {1, 2, 3}) == 0);
  CHECK(event_order::inversions({1, 3, 2}, {1, 2, 3}) == 1);
  CHECK(event_order::inversions({3, 2, 1}, {1, 2, 3}) == 3);
  CHECK(event_order::inversions({4, 7, 5, 9}, {9, 4, 5, 7}) == 4);  // (4,9) (7,5) (7,9) (5,9)
  CHECK(event_order::inversions({2, 8, 1}, {1, 2}) == 1);           // 8 is in one sequence only
}

TEST_CASE("two async messages of different threads with no HB are swapped", "[unit][max_diff]") {
  auto t = to_main({2, 3});
  auto hb = event_order::happens_before(t);
  for (std::uint64_t seed : {0u, 1u, 42u}) {
    auto order = event_order::max_diff_order(t, hb, seed);
    // m0 to the end scores 1 inversion + PDC(0, 1) = 2; then m1 staying first scores more
    // than moving back.
    CHECK(order.baseline == std::vector<size_t>{0, 1});
    CHECK(order.sequence == std::vector<size_t>{1, 0});
    CHECK(order.moved == std::vector<MovedMessage>{{0, 0, 1}});
    CHECK(order.constraints == std::vector<PlacementConstraint>{{0, 1, std::nullopt}});
    CHECK(order.inversions == 1);
    CHECK(order.difference == Approx(1 + 1.0 + 0.75));
  }
}

TEST_CASE("an async message moves across main-thread work of the test", "[unit][max_diff]") {
  auto t = to_main({2, 1});  // m0 async, m1 posted by the testing thread
  auto hb = event_order::happens_before(t);
  auto order = event_order::max_diff_order(t, hb, 5);
  CHECK(order.sequence == std::vector<size_t>{1, 0});
  CHECK(order.inversions == 0);
  CHECK(order.constraints == std::vector<PlacementConstraint>{{0, 1, std::nullopt}});
}

TEST_CASE("a rule 1 pair is never swapped", "[unit][max_diff]") {
  auto t = to_main({2, 2, 3});
  auto hb = event_order::happens_before(t);
  REQUIRE(hb.direct_rule(0, 1) == 1);
  for (std::uint64_t seed = 0; seed < 50; ++seed)
    for (const auto& order : event_order::max_diff_orders(t, hb, seed, 8)) {
      CHECK(position(order.sequence, 0) < position(order.sequence, 1));
      CHECK(permutation_of(order.sequence, {0, 1, 2}));
    }
}

TEST_CASE("a message never passes its upper bound, nor any HB pair its order", "[unit][max_diff]") {
  // pool-1 posts m0, m3, m4; the test m1; pool-2 m2 and m5. m3's interval is (m0, m4).
  auto t = to_main({2, 1, 3, 2, 2, 3});
  auto hb = event_order::happens_before(t);
  auto intervals = event_order::executable_intervals(t, hb);
  REQUIRE(intervals[2].message == 3);
  REQUIRE(intervals[2].upper);
  REQUIRE(intervals[2].upper->message == 4);
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    auto orders = event_order::max_diff_orders(t, hb, seed, 6);
    REQUIRE_FALSE(orders.empty());
    for (const auto& order : orders) {
      INFO("seed " << seed);
      CHECK(position(order.sequence, 3) < position(order.sequence, 4));
      CHECK(position(order.sequence, 0) < position(order.sequence, 3));
      CHECK(respects(hb, order.sequence));
      CHECK(permutation_of(order.sequence, event_order::ui_sequence(t)));
      REQUIRE(order.constraints.size() == order.moved.size());
      for (size_t k = 0; k < order.moved.size(); ++k) {
        const auto& m = order.moved[k];
        CHECK(order.baseline[m.old_position] == m.message);
        CHECK(order.sequence[m.new_position] == m.message);
        CHECK(order.constraints[k].after ==
              (m.new_position ? std::optional<size_t>(order.sequence[m.new_position - 1]) : std::nullopt));
      }
    }
  }
}

TEST_CASE("the same seed gives the same order; ties go both ways over seeds", "[unit][max_diff]") {
  // m1 sits between two messages of the test (rule 1 keeps those in order): one step left or
  // right both score PDC 0.75, a tie the seed breaks.
  auto t = to_main({1, 2, 1});
  auto hb = event_order::happens_before(t);
  std::set<std::vector<size_t>> seen;
  for (std::uint64_t seed = 0; seed < 32; ++seed) {
    auto a = event_order::max_diff_order(t, hb, seed);
    auto b = event_order::max_diff_order(t, hb, seed);
    CHECK(a.sequence == b.sequence);
    CHECK(a.moved == b.moved);
    CHECK(permutation_of(a.sequence, {0, 1, 2}));
    CHECK(position(a.sequence, 0) < position(a.sequence, 2));
    seen.insert(a.sequence);
  }
  CHECK(seen == std::set<std::vector<size_t>>{{1, 0, 2}, {0, 2, 1}});

  auto u = to_main({2, 1, 3, 2, 2, 3});
  auto hb_u = event_order::happens_before(u);
  auto first = event_order::max_diff_orders(u, hb_u, 9, 5);
  auto second = event_order::max_diff_orders(u, hb_u, 9, 5);
  REQUIRE(first.size() == second.size());
  for (size_t r = 0; r < first.size(); ++r) CHECK(first[r].sequence == second[r].sequence);
}

TEST_CASE("rounds start from the previous order and stop when an order repeats", "[unit][max_diff]") {
  // The swap undoes itself in round 2, back to the recorded order: one order only.
  auto t = to_main({2, 3});
  auto hb = event_order::happens_before(t);
  auto orders = event_order::max_diff_orders(t, hb, 3, 10);
  REQUIRE(orders.size() == 1);
  CHECK(orders[0].sequence == std::vector<size_t>{1, 0});

  auto u = to_main({2, 1, 3, 2, 2, 3});
  auto hb_u = event_order::happens_before(u);
  auto many = event_order::max_diff_orders(u, hb_u, 11, 6);
  REQUIRE_FALSE(many.empty());
  CHECK(many.size() <= 6);
  CHECK(many[0].baseline == event_order::ui_sequence(u));
  std::set<std::vector<size_t>> distinct{event_order::ui_sequence(u)};
  for (size_t r = 0; r < many.size(); ++r) {
    if (r > 0) CHECK(many[r].baseline == many[r - 1].sequence);
    CHECK(distinct.insert(many[r].sequence).second);
  }
  CHECK(event_order::max_diff_orders(u, hb_u, 11, 0).empty());
}

TEST_CASE("single moves cover every position of each async message's interval, largest difference first",
          "[unit][max_diff]") {
  // The testing thread's message 0, then async messages 1 (thread 2) and 2 (thread 3), then
  // the testing thread's message 3: message 1 and 2 may each go anywhere (no HB with the
  // testing thread's messages but rule 1 between 0 and 3).
  auto t = to_main({1, 2, 3, 1});
  auto hb = event_order::happens_before(t);
  auto singles = event_order::single_move_orders(t, hb);
  // Message 1: positions 0, 2, 3; message 2: positions 0, 1, 3.
  REQUIRE(singles.size() == 6);
  for (size_t i = 0; i < singles.size(); ++i) {
    const auto& o = singles[i];
    INFO(i);
    CHECK(permutation_of(o.sequence, o.baseline));
    CHECK(respects(hb, o.sequence));
    REQUIRE(o.moved.size() == 1);
    REQUIRE(o.constraints.size() == 1);
    CHECK(o.sequence[o.moved[0].new_position] == o.moved[0].message);
    if (i > 0) CHECK(singles[i - 1].difference >= o.difference);
  }
  // Pairs ordered by HB give nothing to move.
  auto ordered = to_main({2, 2});
  CHECK(event_order::single_move_orders(ordered, event_order::happens_before(ordered)).empty());
}
