// The plan of suite rounds: orders, shards and the budget's split.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "order/orders.hpp"
#include "order/pair_cover.hpp"
#include "suite/suite_plan.hpp"

using namespace flakescan;

namespace {

std::vector<std::string> suite_of(int classes, int methods) {
  std::vector<std::string> out;
  for (int c = 0; c < classes; ++c)
    for (int m = 0; m < methods; ++m) out.push_back("p.C" + std::to_string(c) + "#m" + std::to_string(m));
  return out;
}

std::vector<std::string> flat(const suite::Round& r) {
  std::vector<std::string> out;
  for (const auto& s : r.shards) out.insert(out.end(), s.begin(), s.end());
  return out;
}

bool classes_contiguous(const std::vector<std::string>& order) {
  std::vector<std::string> seen;
  for (const auto& t : order) {
    auto c = std::string(order::class_of(t));
    if (!seen.empty() && seen.back() == c) continue;
    if (std::find(seen.begin(), seen.end(), c) != seen.end()) return false;
    seen.push_back(c);
  }
  return true;
}

}  // namespace

TEST_CASE("suite rounds: original, reverse, each test twice, order's pair-coverage orders, then seeded shuffles", "[suite][plan]") {
  auto tests = suite_of(5, 4);
  CHECK(flat(suite::plan_round(tests, 0, 7, 1)) == tests);
  CHECK(flat(suite::plan_round(tests, 1, 7, 1)) == order::reversed_order(tests));
  auto twice = flat(suite::plan_round(tests, 2, 7, 1));
  REQUIRE(twice.size() == 2 * tests.size());
  CHECK(twice[0] == tests[0]);
  CHECK(twice[1] == tests[0]);
  for (int r = 3; r < 9; ++r) {
    auto round = suite::plan_round(tests, r, 7, 1);
    auto order = flat(round);
    INFO("round " << r << " " << round.kind);
    CHECK(classes_contiguous(order));
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    auto expected = tests;
    std::sort(expected.begin(), expected.end());
    CHECK(sorted == expected);
    CHECK(flat(suite::plan_round(tests, r, 7, 1)) == order);  // seeded: the same again
    CHECK((round.kind.starts_with("pair coverage") || round.seed != 0));  // shuffles replay from their seed
  }
  // From round 4 on (index 3), order's pair-coverage orders and seeded shuffles alternate; once
  // every pair ran in a row, shuffles only.
  auto plan = order::plan_orders(tests, 7, 200, order::same_package);
  int pair_rounds = 0;
  for (const auto& p : plan) pair_rounds += p.purpose.starts_with("pair coverage");
  REQUIRE(pair_rounds > 1);
  for (int n = 1; n <= pair_rounds; ++n) {
    const int r = 3 + 2 * (n - 1);
    INFO("round index " << r);
    CHECK(suite::plan_round(tests, r, 7, 1).kind == "pair coverage " + std::to_string(n));
    CHECK(flat(suite::plan_round(tests, r, 7, 1)) == plan[size_t(n + 1)].tests);
    CHECK(suite::plan_round(tests, r + 1, 7, 1).kind.starts_with("shuffled classes"));
    CHECK(suite::plan_round(tests, r + 1, 7, 1).seed != 0);
  }
  CHECK(suite::plan_round(tests, 4, 7, 1).kind == "shuffled classes and methods");
  CHECK(suite::plan_round(tests, 6, 7, 1).kind == "shuffled classes");
  const int after = 3 + 2 * pair_rounds;
  CHECK(suite::plan_round(tests, after, 7, 1).kind.starts_with("shuffled classes"));
  CHECK(flat(suite::plan_round(tests, 5, 7, 1)) != flat(suite::plan_round(tests, 5, 8, 1)));
}

TEST_CASE("suite rounds: planned together, the rounds are the ones planned one by one", "[suite][plan]") {
  const auto tests = suite_of(12, 4);
  const std::set<std::string> writers{"p.C3#m1"};
  for (int count : {1, 3, 4, 5, 20}) {
    auto all = suite::plan_rounds(tests, count, 7, 1, writers);
    REQUIRE(all.size() == size_t(count));
    for (int r = 0; r < count; ++r) {
      INFO("count " << count << ", round " << r);
      const auto one = suite::plan_round(tests, r, 7, 1, writers);
      CHECK(all[size_t(r)].kind == one.kind);
      CHECK(all[size_t(r)].seed == one.seed);
      CHECK(all[size_t(r)].shards == one.shards);
    }
  }
}

TEST_CASE("suite rounds: shards split by class and keep the round's order", "[suite][plan]") {
  auto tests = suite_of(5, 3);
  auto round = suite::plan_round(tests, 4, 3, 2);
  REQUIRE(round.shards.size() == 2);
  std::map<std::string, int> shard_of_class;
  for (size_t s = 0; s < round.shards.size(); ++s)
    for (const auto& t : round.shards[s]) {
      auto c = std::string(order::class_of(t));
      CHECK(shard_of_class.emplace(c, int(s)).first->second == int(s));  // a class is in one shard
    }
  CHECK(round.shards[0].size() + round.shards[1].size() == tests.size());
  // More JVMs than classes: one shard per class.
  CHECK(suite::plan_round(suite_of(2, 3), 0, 1, 8).shards.size() == 2);
}

TEST_CASE("suite rounds: the budget keeps its reserve for the suspects", "[suite][plan]") {
  // 100 s and 1000 runs; 30% reserved. One round took 10 s and 2 runs.
  CHECK(suite::rounds_that_fit(20, 1, 10.0, 2, {100, 1000}, {10, 2}, 0.3) == 7);
  CHECK(suite::rounds_that_fit(5, 1, 10.0, 2, {100, 1000}, {10, 2}, 0.3) == 5);   // fewer wanted
  CHECK(suite::rounds_that_fit(20, 1, 1.0, 50, {100, 200}, {1, 50}, 0.3) == 2);   // runs bind
  CHECK(suite::rounds_that_fit(20, 3, 40.0, 2, {100, 1000}, {120, 6}, 0.3) == 3); // over already: no more
}

TEST_CASE("the rounds narrow a suspect's order to the tests before it in every round with its outcome", "[suite]") {
  const std::vector<std::string> r1{"a", "p", "b", "c", "v", "d"};
  const std::vector<std::string> r2{"c", "d", "p", "v", "a", "b"};
  const std::vector<std::string> r3{"b", "p", "d", "v", "c", "a"};
  const suite::Occurrence o1{&r1, 4}, o2{&r2, 3}, o3{&r3, 3};

  SECTION("the polluter and the bystanders every failing round shares, in the picked round's order") {
    // Before v: r1 {a,p,b,c}, r2 {c,d,p}, r3 {b,p,d}: only p is in all three.
    CHECK(suite::narrowed_order({o1, o2, o3}, o1, "v") == std::vector<std::string>{"p", "v"});
    CHECK(suite::narrowed_order({o1, o2}, o1, "v") == std::vector<std::string>{"p", "c", "v"});
  }
  SECTION("one round narrows nothing: its whole prefix") {
    CHECK(suite::narrowed_order({o1}, o1, "v") == std::vector<std::string>{"a", "p", "b", "c", "v"});
  }
  SECTION("a round that ran the suspect twice: its first execution is not before itself") {
    const std::vector<std::string> twice{"p", "p", "v", "v"};
    CHECK(suite::narrowed_order({o1, {&twice, 3}}, {&twice, 3}, "v") == std::vector<std::string>{"p", "p", "v"});
  }
  SECTION("two polluters that each suffice share no test: nothing but the suspect is left") {
    const std::vector<std::string> x{"q", "v"};
    CHECK(suite::narrowed_order({o1, {&x, 1}}, o1, "v") == std::vector<std::string>{"v"});
  }
}

TEST_CASE("the rounds of the other outcome narrow further: no test that came before the suspect when it passed", "[suite]") {
  const std::vector<std::string> narrowed{"p", "c", "b", "v"};
  SECTION("bystanders that ran before it in a round it passed in go; the polluter stays") {
    const std::vector<std::string> passed1{"c", "a", "v", "p", "b"};
    const std::vector<std::string> passed2{"b", "v", "c", "p"};
    CHECK(suite::without_tests_before_other_outcome(narrowed, {{&passed1, 2}, {&passed2, 1}}, "v") ==
          std::vector<std::string>{"p", "v"});
    CHECK(suite::without_tests_before_other_outcome(narrowed, {{&passed1, 2}}, "v") == std::vector<std::string>{"p", "b", "v"});
  }
  SECTION("no round of the other outcome: nothing changes") {
    CHECK(suite::without_tests_before_other_outcome(narrowed, {}, "v") == narrowed);
  }
  SECTION("a cleaner let the polluter pass before it once: the polluter goes too (the caller runs what is left and falls back)") {
    const std::vector<std::string> cleaned{"p", "k", "c", "b", "v"};
    CHECK(suite::without_tests_before_other_outcome(narrowed, {{&cleaned, 4}}, "v") == std::vector<std::string>{"v"});
  }
  SECTION("the suspect itself is never taken out") {
    const std::vector<std::string> twice{"v", "v"};
    CHECK(suite::without_tests_before_other_outcome(narrowed, {{&twice, 1}}, "v") == narrowed);
  }
}

TEST_CASE("suite plan: round 7 puts the tests that change static state last in their class", "[suite][plan]") {
  const std::vector<std::string> tests{"p.A#w", "p.A#a1", "p.A#a2", "p.B#b1", "p.B#w", "p.B#b2", "p.C#c1", "p.C#c2"};
  const std::set<std::string> writers{"p.A#w", "p.B#w"};
  auto round = suite::plan_round(tests, 6, 7, 1, writers);
  CHECK(round.kind == "shuffled classes, static-state writers last in their class");
  auto order = flat(round);
  REQUIRE(order.size() == tests.size());
  std::map<std::string, std::vector<std::string>> by_class;
  std::vector<std::string> classes;
  for (const auto& t : order) {
    auto cls = t.substr(0, t.find('#'));
    if (classes.empty() || classes.back() != cls) classes.push_back(cls);
    by_class[cls].push_back(t);
  }
  CHECK(classes.size() == 3);  // each class contiguous
  CHECK(by_class["p.A"] == std::vector<std::string>{"p.A#a1", "p.A#a2", "p.A#w"});
  CHECK(by_class["p.B"] == std::vector<std::string>{"p.B#b1", "p.B#b2", "p.B#w"});
  CHECK(by_class["p.C"] == std::vector<std::string>{"p.C#c1", "p.C#c2"});
  CHECK(flat(suite::plan_round(tests, 6, 7, 1, writers)) == order);  // seeded
  // Without writers, round 7 is the shuffle it always was, with its classes in the same order;
  // other rounds ignore the writers.
  auto plain = suite::plan_round(tests, 6, 7, 1);
  CHECK(plain.kind == "shuffled classes");
  std::vector<std::string> plain_classes;
  for (const auto& t : flat(plain)) {
    auto cls = t.substr(0, t.find('#'));
    if (plain_classes.empty() || plain_classes.back() != cls) plain_classes.push_back(cls);
  }
  CHECK(plain_classes == classes);
  for (int other : {3, 4, 5, 7, 8})
    CHECK(flat(suite::plan_round(tests, other, 7, 1, writers)) == flat(suite::plan_round(tests, other, 7, 1)));
}

TEST_CASE("suite plan: the tests that created threads repeat as often as a tenth of a round allows", "[suite][plan]") {
  // Two creators of 2 and 3 ms, a round of 100 ms: 5 times adds 4 x 5 = 20 ms, more than 10;
  // 3 times adds 10.
  auto r = suite::thread_repeats({{"p.A#t", 2.0}, {"p.B#t", 3.0}}, 100, 5, 0.1);
  CHECK(r.times == 3);
  CHECK(r.tests == std::set<std::string>{"p.A#t", "p.B#t"});
  CHECK(suite::thread_repeats({{"p.A#t", 2.0}}, 100, 5, 0.1).times == 5);
  // Not even one repeat fits: none, and no test named.
  auto none = suite::thread_repeats({{"p.A#t", 20.0}}, 100, 5, 0.1);
  CHECK(none.times == 1);
  CHECK(none.tests.empty());
  CHECK(suite::thread_repeats({}, 100, 5, 0.1).times == 5);
}

TEST_CASE("suite plan: when not even two executions of each fit, the quickest repeat and the slowest do not", "[suite][plan]") {
  // marine-api's shape: one test of 600 ms in a round of 860 keeps every test from repeating
  // twice; the quick ones fit 5 times (4 x (1 + 2 + 3) = 24 ms of the 86).
  auto r = suite::thread_repeats({{"p.Slow#t", 600.0}, {"p.A#t", 1.0}, {"p.B#t", 2.0}, {"p.C#t", 3.0}}, 860, 5, 0.1);
  CHECK(r.times == 5);
  CHECK(r.tests == std::set<std::string>{"p.A#t", "p.B#t", "p.C#t"});
  // As often as the quickest fits: 30 ms in a budget of 86 fits 3 times (2 x 30), not 4; the
  // 40 ms test does not fit beside it then (2 x 70).
  auto fewer = suite::thread_repeats({{"p.Slow#t", 600.0}, {"p.A#t", 30.0}, {"p.B#t", 40.0}, {"p.C#t", 50.0}}, 860, 5, 0.1);
  CHECK(fewer.times == 3);
  CHECK(fewer.tests == std::set<std::string>{"p.A#t"});
  // Not one fits twice: none.
  CHECK(suite::thread_repeats({{"p.Slow#t", 600.0}, {"p.A#t", 90.0}}, 860, 5, 0.1).tests.empty());
}

TEST_CASE("suite plan: a round repeats each test that created threads in place, in every shard", "[suite][plan]") {
  const std::vector<std::string> tests{"p.A#a1", "p.A#t", "p.B#b1", "p.C#t", "p.C#c2"};
  auto round = suite::plan_round(tests, 2, 7, 2);  // each test twice, two shards
  const suite::ThreadRepeats repeats{.tests = {"p.A#t", "p.C#t"}, .times = 3};
  auto repeated = suite::with_thread_repeats(round, repeats);
  CHECK(repeated.kind == "each test twice, with the 2 tests that created threads 3 times in a row");
  REQUIRE(repeated.shards.size() == round.shards.size());
  for (size_t s = 0; s < round.shards.size(); ++s) {
    std::vector<std::string> want;
    for (const auto& t : round.shards[s]) want.insert(want.end(), repeats.tests.contains(t) ? 3 : 1, t);
    CHECK(repeated.shards[s] == want);
  }
  const auto all = flat(repeated);
  CHECK(std::count(all.begin(), all.end(), "p.A#t") == 6);
  // No repeats, or none of the round's tests among them: the round as it was.
  CHECK(flat(suite::with_thread_repeats(round, {.tests = {"p.A#t"}, .times = 1})) == flat(round));
  auto other = suite::with_thread_repeats(round, {.tests = {"p.Z#t"}, .times = 3});
  CHECK(other.kind == round.kind);
  CHECK(flat(other) == flat(round));
}
