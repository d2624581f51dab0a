#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "scan/event_log.hpp"

using flakescan::scan::EventLog;

TEST_CASE("event logs hand out what came after a sequence number", "[scan][events]") {
  EventLog log(3);
  log.append("state", "{\"state\":\"running\"}");
  log.append("run_finished", "{}");
  auto all = log.since(0);
  REQUIRE(all.size() == 2);
  CHECK(all[0].seq == 1);
  CHECK(all[1].type == "run_finished");
  CHECK(log.since(1).size() == 1);
  CHECK(log.since(2).empty());
  // Bounded: the oldest are dropped past the capacity.
  log.append("a", "{}");
  log.append("b", "{}");
  auto kept = log.since(0);
  REQUIRE(kept.size() == 3);
  CHECK(kept.front().seq == 2);
  // Closed logs take no more events.
  CHECK_FALSE(log.closed());
  log.close();
  log.append("late", "{}");
  CHECK(log.closed());
  CHECK(log.since(4).size() == 0);
}

TEST_CASE("a reader waiting for the end of a log wakes when it closes, and not before", "[scan][events]") {
  EventLog log;
  CHECK_FALSE(log.wait_closed(std::chrono::milliseconds(0)));
  std::thread closer([&] {
    log.append("state", "{\"state\":\"completed\"}");
    log.close();
  });
  CHECK(log.wait_closed(std::chrono::seconds(60)));
  closer.join();
  CHECK(log.since(0).size() == 1);
  CHECK(log.wait_closed(std::chrono::milliseconds(0)));  // closed stays closed
}
