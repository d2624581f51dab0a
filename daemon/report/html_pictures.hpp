#pragma once
// The pictures of a test's evidence, as inline SVG (pure functions, no fetch). Each picture is
// a <figure> whose <svg role="img"> elements carry a <title> and a <desc> that say in words
// what the picture shows, so a screen reader (and a text search) gets the same facts.
//   schedule: explore's concurrency finding: the main-thread timeline of the passing and the
//             failing schedule side by side; the moved message and the racing statement marked.
//   threads:  a `threads` finding: both schedules, one lane per thread (html_thread_schedules.hpp).
//   order:    an order-dependent or NIO finding: the failing and the passing order, the test,
//             its polluters or state-setters and cleaners marked.
//   strip:    every run that reached the test, pass or fail, in the order they ran (rerun,
//             noise, unknown, failing, could not run).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/verdict_file.hpp"

namespace flakescan::report::html {

// What explore's details say about the schedule (docs/explore.md).
struct ScheduleFacts {
  int posted_line = 0;             // lower_bound_line: the statement during which it was posted
  int racing_line = 0;             // the message must come before this statement's line
  std::optional<int> delayed_to;   // delayed_to_statement; nullopt: the end of the test
  std::optional<int> upper_bound;  // upper_bound_line; nullopt: none (the end)
  std::string event;               // "line 43 background 42ac46c3 #0"
  std::string thread;              // the posting thread
  std::optional<std::int64_t> passing_run, failing_run;
};

// nullopt when the details lack the lines (a concurrency verdict not made by explore).
std::optional<ScheduleFacts> schedule_facts(const core::Evidence& evidence);

struct OrderFacts {
  std::string test;
  std::string role;                         // victim, brittle, nio
  std::vector<std::string> failing_order;   // the reproducer
  std::vector<std::string> passing_order;
  std::vector<std::string> setters;         // polluters (victim) or state-setters (brittle)
  std::vector<std::string> cleaners;        // victims only
  std::optional<std::int64_t> passing_run, failing_run;
};

// nullopt when the evidence has no failing order.
std::optional<OrderFacts> order_facts(const std::string& test, const core::Evidence& evidence);

// `id` makes the element ids of the picture unique in its page.
std::string schedule_picture(const ScheduleFacts& facts, const std::string& id);
std::string order_picture(const OrderFacts& facts, const std::string& id);
// From the strip when the file has one, else from the counts alone (grouped by outcome, and
// the caption says so). Empty when no run reached the test.
std::string run_strip_picture(const std::vector<StripRun>& strip, const core::RunCounts& counts, const std::string& id);

// Every picture of one entry: one per deciding concurrency (explore or threads), order-dependent
// and NIO finding, then the strip of every run.
std::string evidence_pictures(const Entry& entry, const std::string& id);

// "com.example.cache.CacheTest#startsEmpty" -> "CacheTest#startsEmpty".
std::string short_test_name(const std::string& test);

}  // namespace flakescan::report::html
