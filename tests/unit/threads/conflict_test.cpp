// The conflict finder (threads/conflict.hpp): the two operations on one target whose order
// differs between the failing and the passing schedule, closest to the failure; the fallback
// when no order can be compared.
#include <catch2/catch.hpp>

#include "threads/conflict.hpp"
#include "unit/threads/recorded_runs.hpp"

using namespace flakescan;
using namespace flakescan::threads;
using core::ScheduleStep;

namespace {

core::ThreadSchedule schedule_of(std::vector<ScheduleStep> steps) {
  core::ThreadSchedule s;
  s.steps = std::move(steps);
  s.steps_total = long(s.steps.size());
  return s;
}

ScheduleStep step(int thread, const char* op, const char* target, const char* site) { return {thread, op, target, site}; }

}  // namespace

TEST_CASE("a lost update: the read of one thread before the write of the other", "[threads][conflict]") {
  auto failing = threads_test::recorded_record("counter-fail.results", threads_test::counter);
  auto passing = threads_test::recorded_record("counter-pass.results", threads_test::counter);
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  CHECK(c->first == ScheduleStep{2, "field_read", "example.threads.Counter.count@o1", "example.threads.Counter.increment(Counter.java:20)"});
  CHECK(c->second == ScheduleStep{1, "field_write", "example.threads.Counter.count@o1", "example.threads.Counter.increment(Counter.java:21)"});
  CHECK(conflict_text(c->first, c->second) ==
        R"j({"first":{"op":"field_read","site":"example.threads.Counter.increment(Counter.java:20)","target":"example.threads.Counter.count@o1","thread":2},)j"
        R"j("second":{"op":"field_write","site":"example.threads.Counter.increment(Counter.java:21)","target":"example.threads.Counter.count@o1","thread":1}})j");
}

TEST_CASE("two lock orders: the monitor enters that the schedules ordered otherwise", "[threads][conflict]") {
  auto failing = threads_test::recorded_record("deadlock-fail.results", threads_test::transfer);
  auto passing = threads_test::recorded_record("deadlock-pass.results", threads_test::transfer);
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  // Closest to the end of the failing schedule: thread 2 entered Account@o2 before thread 1
  // tried it; in the passing schedule thread 1 took it first.
  CHECK(c->first == ScheduleStep{2, "monitor_enter", "example.threads.Account@o2", "example.threads.Bank.transfer(Bank.java:8)"});
  CHECK(c->second == ScheduleStep{1, "monitor_enter", "example.threads.Account@o2", "example.threads.Bank.transfer(Bank.java:9)"});
}

TEST_CASE("the pair closest to the end of the failing schedule is chosen", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "field_write", "A.x", "A.java:1"), step(2, "field_write", "A.x", "A.java:2"),
                              step(1, "field_write", "A.y", "A.java:3"), step(2, "field_read", "A.y", "A.java:4")});
  auto passing = schedule_of({step(2, "field_write", "A.x", "A.java:2"), step(1, "field_write", "A.x", "A.java:1"),
                              step(2, "field_read", "A.y", "A.java:4"), step(1, "field_write", "A.y", "A.java:3")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  CHECK(c->first.target == "A.y");
  CHECK(c->second.op == "field_read");
}

TEST_CASE("two reads never conflict, nor two steps of one thread", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "field_read", "A.x", "s1"), step(2, "field_read", "A.x", "s2"), step(1, "field_write", "A.z", "s3"),
                              step(1, "field_write", "A.z", "s4")});
  auto passing = schedule_of({step(2, "field_read", "A.x", "s2"), step(1, "field_read", "A.x", "s1"), step(1, "field_write", "A.z", "s4"),
                              step(1, "field_write", "A.z", "s3")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);  // the fallback: the last cross-thread pair on one target, without a write
  CHECK_FALSE(c->order_differs);
  CHECK(c->first.site == "s1");
  CHECK(c->second.site == "s2");
}

TEST_CASE("the fallback names the last cross-thread pair with a write when the orders agree", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "field_write", "A.x", "s1"), step(2, "field_read", "A.x", "s2"), step(1, "lock", "L@o1", "s3"),
                              step(2, "lock", "L@o1", "s4"), step(2, "field_read", "A.q", "s5"), step(1, "field_read", "A.q", "s6")});
  auto c = find_conflict(failing, failing);
  REQUIRE(c);
  CHECK_FALSE(c->order_differs);
  CHECK(c->first.site == "s3");
  CHECK(c->second.site == "s4");
}

TEST_CASE("a step missing from the passing schedule is not compared, and one thread alone has no conflict", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "field_write", "A.x", "s1"), step(2, "field_write", "A.x", "s2")});
  auto passing = schedule_of({step(1, "field_write", "A.x", "s1")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK_FALSE(c->order_differs);
  CHECK_FALSE(find_conflict(schedule_of({step(0, "field_write", "A.x", "s1"), step(0, "field_read", "A.x", "s2")}), passing));
  CHECK_FALSE(find_conflict(schedule_of({}), passing));
}

TEST_CASE("what counts as a write", "[threads][conflict]") {
  for (const char* op : {"field_write", "atomic", "monitor_enter", "lock", "try_lock", "notify", "notify_all"}) CHECK(is_write(op));
  for (const char* op : {"field_read", "monitor_exit", "unlock", "wait", "thread_start", "thread_join", "sleep", "park"}) CHECK_FALSE(is_write(op));
}
