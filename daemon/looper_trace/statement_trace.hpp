#pragma once
// The output of Algorithm 1 for one test: the test method's statements (source lines, from
// its line table) and, in order, every event posted on the main queue with the statement
// that was executing, its stable identity and whether it is async (posted by a thread that
// is neither the main thread nor the testing thread).
//
// Anchor of a statement: its first non-async event. The paper observes the first event of
// a statement is never async; on the examples it can be (a statement that only makes a
// system thread post), so we take the first non-async one and a statement with none has
// no anchor. Only positions before anchors are used for scheduling.
//
// Text format (recorded traces in tests/fixtures/event_order/), one record per line:
//   test<TAB>pkg.Class#method
//   outcome<TAB>pass|fail|...
//   lines<TAB>30 31 32 33
//   event<TAB><statement line><TAB><role><TAB><occurrence><TAB><thread name><TAB><frame>;<frame>;...
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run.hpp"
#include "looper_trace/identity.hpp"
#include "util/error.hpp"

namespace flakescan::looper_trace {

struct TracedEvent {
  EventIdentity identity;
  std::string thread_name;  // for people; not part of the identity
  bool async() const { return identity.role == Role::background; }
};

struct StatementTrace {
  std::string test;                       // pkg.Class#method
  core::Outcome outcome = core::Outcome::infra;
  std::vector<int> lines;                 // statements: the method's lines, ascending
  std::vector<TracedEvent> events;        // in posting order

  // Index of the statement's anchor event in `events`, if it has one.
  std::optional<size_t> anchor(int line) const;
  // Indices of the async events, in posting order.
  std::vector<size_t> async_events() const;
  // Statements (lines) that have an anchor.
  std::vector<int> anchored_lines() const;
};

std::string format_trace(const StatementTrace& trace);
util::Result<StatementTrace> parse_trace(std::string_view text);

}  // namespace flakescan::looper_trace
