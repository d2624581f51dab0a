// The conflict finder (threads/conflict.hpp): a deadlock's lock and the attempt that waits for
// it; else the two operations on one target whose order differs between the failing and the
// passing schedule, closest to the failure, data operations before monitor and lock steps; the
// fallback when no order can be compared.
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

TEST_CASE("two lock orders: where one thread took the monitor the other waits for, from the deadlock", "[threads][conflict]") {
  auto failing = threads_test::recorded_record("deadlock-fail.results", threads_test::transfer);
  auto passing = threads_test::recorded_record("deadlock-pass.results", threads_test::transfer);
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->from_deadlock);
  CHECK_FALSE(c->order_differs);
  // Thread 1 waits for Account@o2 at line 9, which thread 2 took at line 8. The deadlock has no
  // "op" (an older record): the op is the one thread 2 took it with in its steps.
  CHECK(c->first == ScheduleStep{2, "monitor_enter", "example.threads.Account@o2", "example.threads.Bank.transfer(Bank.java:8)"});
  CHECK(c->second == ScheduleStep{1, "monitor_enter", "example.threads.Account@o2", "example.threads.Bank.transfer(Bank.java:9)"});
}

TEST_CASE("a deadlock names the lock its first blocked thread waits for, with the op it waits with", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "lock", "L@o1", "A.java:9"), step(2, "lock", "L@o2", "A.java:9")});
  failing.deadlock = R"({"threads":[{"thread":0,"name":"main","holds":[],"waits_for":{"op":"thread_join","target":"thread#1",)"
                     R"("site":"T.java:5","held_by":1}},{"thread":1,"name":"a","holds":[{"target":"L@o1","site":"A.java:9"}],)"
                     R"("waits_for":{"op":"lock","target":"L@o2","site":"A.java:11","held_by":2}},{"thread":2,"name":"b",)"
                     R"("holds":[{"target":"L@o2","site":"A.java:9"}],"waits_for":{"op":"lock","target":"L@o1","site":"A.java:11"}}]})";
  auto c = find_conflict(failing, schedule_of({}));
  REQUIRE(c);
  CHECK(c->from_deadlock);
  // thread 0's join has no holder among the holds: thread 1's wait for L@o2 comes first.
  CHECK(c->first == ScheduleStep{2, "lock", "L@o2", "A.java:9"});
  CHECK(c->second == ScheduleStep{1, "lock", "L@o2", "A.java:11"});
}

TEST_CASE("a deadlock on a notify alone (no lock held by another) falls back to the schedules", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "notify", "M@o1", "s1"), step(0, "wait", "M@o1", "s2")});
  auto passing = schedule_of({step(0, "wait", "M@o1", "s2"), step(1, "notify", "M@o1", "s1")});
  failing.deadlock = R"({"threads":[{"thread":0,"holds":[],"waits_for":{"op":"monitor_enter","target":"M@o1","site":"s2",)"
                     R"("waiting_for_notify":true}}]})";
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK_FALSE(c->from_deadlock);
  CHECK(c->order_differs);
  CHECK(c->first.site == "s1");
  CHECK(c->second.site == "s2");
}

TEST_CASE("a reversed pair of data operations comes before a later reversed pair of monitor enters", "[threads][conflict]") {
  // The read and write of A.x are the race; who entered M first afterwards only follows from it.
  auto failing = schedule_of({step(1, "call_read", "java.util.HashMap@o1", "get"), step(2, "call_write", "java.util.HashMap@o1", "put"),
                              step(2, "monitor_enter", "M@o2", "enter2"), step(1, "monitor_enter", "M@o2", "enter1")});
  auto passing = schedule_of({step(2, "call_write", "java.util.HashMap@o1", "put"), step(1, "call_read", "java.util.HashMap@o1", "get"),
                              step(1, "monitor_enter", "M@o2", "enter1"), step(2, "monitor_enter", "M@o2", "enter2")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  CHECK(c->first.site == "get");
  CHECK(c->second.site == "put");
}

TEST_CASE("a notify before a wait comes before a later pair of monitor enters on the same monitor", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "monitor_enter", "M@o1", "e1"), step(1, "notify", "M@o1", "notify"),
                              step(0, "monitor_enter", "M@o1", "e0"), step(0, "wait", "M@o1", "wait")});
  auto passing = schedule_of({step(0, "monitor_enter", "M@o1", "e0"), step(0, "wait", "M@o1", "wait"),
                              step(1, "monitor_enter", "M@o1", "e1"), step(1, "notify", "M@o1", "notify")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  CHECK(c->first.op == "notify");
  CHECK(c->second.op == "wait");
}

TEST_CASE("without a reversed pair, the fallback too prefers data operations", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "field_write", "A.x", "w"), step(2, "field_read", "A.x", "r"), step(1, "lock", "L@o1", "l1"),
                              step(2, "lock", "L@o1", "l2")});
  auto c = find_conflict(failing, failing);
  REQUIRE(c);
  CHECK_FALSE(c->order_differs);
  CHECK(c->first.site == "w");
  CHECK(c->second.site == "r");
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
  auto failing = schedule_of({step(1, "lock", "L@o1", "s1"), step(2, "lock", "L@o1", "s2"), step(1, "lock", "L@o2", "s3"),
                              step(2, "lock", "L@o2", "s4"), step(2, "field_read", "A.q", "s5"), step(1, "field_read", "A.q", "s6")});
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
  for (const char* op : {"field_write", "call_write", "atomic", "monitor_enter", "lock", "try_lock", "notify", "notify_all"})
    CHECK(is_write(op));
  for (const char* op : {"field_read", "call_read", "monitor_exit", "unlock", "wait", "thread_start", "thread_join", "sleep", "park"})
    CHECK_FALSE(is_write(op));
}

TEST_CASE("a check-then-act split by another thread's act comes before a later reversed pair", "[threads][conflict]") {
  // Both threads miss (containsKey), both put; thread 2's get is later than thread 1's put in
  // the failing schedule only, but the race is thread 1's check split from its put by thread 2's put.
  const char* map = "java.util.HashMap@o1";
  auto failing = schedule_of({step(1, "call_read", map, "check"), step(2, "call_read", map, "check"), step(2, "call_write", map, "put"),
                              step(2, "call_read", map, "get"), step(1, "call_write", map, "put"), step(1, "call_read", map, "get")});
  auto passing = schedule_of({step(1, "call_read", map, "check"), step(1, "call_write", map, "put"), step(1, "call_read", map, "get"),
                              step(2, "call_read", map, "check"), step(2, "call_read", map, "get")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->split);
  CHECK(c->first == ScheduleStep{1, "call_read", map, "check"});
  CHECK(c->second == ScheduleStep{2, "call_write", map, "put"});
}

TEST_CASE("a split the passing schedule made too is not the cause", "[threads][conflict]") {
  auto failing = schedule_of({step(1, "field_read", "A.x", "r1"), step(2, "field_write", "A.x", "w2"), step(1, "field_write", "A.x", "w1"),
                              step(1, "field_write", "A.y", "y1"), step(2, "field_read", "A.y", "y2")});
  auto passing = schedule_of({step(1, "field_read", "A.x", "r1"), step(2, "field_write", "A.x", "w2"), step(1, "field_write", "A.x", "w1"),
                              step(2, "field_read", "A.y", "y2"), step(1, "field_write", "A.y", "y1")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  CHECK(c->first.site == "y1");
  CHECK(c->second.site == "y2");
}

TEST_CASE("a write the failing schedule never reached, which came before a read in the passing one", "[threads][conflict]") {
  // A pool task's write came before the test's read when the test passed; when it failed the
  // test read first and ended before the task wrote.
  auto failing = schedule_of({step(1, "field_write", "Log.last@o1", "last"), step(0, "field_read", "Log.written@o1", "read")});
  auto passing = schedule_of({step(1, "field_write", "Log.last@o1", "last"), step(1, "field_read", "Log.written@o1", "inc"),
                              step(1, "field_write", "Log.written@o1", "inc"), step(0, "field_read", "Log.written@o1", "read")});
  auto c = find_conflict(failing, passing);
  REQUIRE(c);
  CHECK(c->order_differs);
  CHECK(c->second_absent);
  CHECK(c->first == ScheduleStep{0, "field_read", "Log.written@o1", "read"});
  CHECK(c->second == ScheduleStep{1, "field_write", "Log.written@o1", "inc"});
}
