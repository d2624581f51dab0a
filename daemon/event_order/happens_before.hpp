#pragma once
// Happens-before between the messages of one recorded MessageTrace, and the executable
// interval of each async message on the main thread (docs/explore.md, strategy maxdiff), as pure
// functions.
//
// "m1 sent before m2" is the trace's send order (the lower message index). Direct edges come
// from five rules; `before` is their transitive closure. The rules and which thread each one
// needs to know:
//   1. m1, m2 sent on t1 and handled on t2 != t1, d1 <= d2: m1 <HB m2 (the queue's FIFO order).
//   2. as 1 with t2 == t1: m1 <HB m2.
//   3. both sent and handled on t1, d2 == 0, d1 > sent(m2) - sent(m1): m2 <HB m1 (m2 is due
//      before m1 is).
//   4. m1 sent on t1, handled on t2; m2 sent on t2 at or after m1's dispatch began, handled on
//      some t3 other than t1 (or unknown); d1 <= d2: m1 <HB m2. t1 may equal t2, t3 may
//      equal t2.
//   5. as 4 with m2 handled on t1: m1 <HB m2.
//   6. (ours) m2's sender was started while m1 was dispatched (TraceThread::started_in):
//      m1 <HB m2. The seed's rules see only messages; a background thread that a message's
//      handler starts cannot send before that message, and without this rule orders that
//      put its messages first could never be realised.
// A message whose handler is unknown (-1) takes part only where its handler does not matter:
// as m2 of rule 4 (it is sent after m1 was dispatched wherever it goes). Rules 1-3 compare
// handlers and rule 5 needs m2's; rules 4 and 5 need m1 dispatched, which also names its
// handler. The seed's d1 <= d2 of rules 4 and 5 is kept although the send-after-dispatch
// alone orders the two.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "looper_trace/message_trace.hpp"

namespace flakescan::event_order {

// One direct edge: `before` <HB `after` by rule `rule` (1-5).
struct HbEdge {
  size_t before = 0;
  size_t after = 0;
  int rule = 0;

  friend bool operator==(const HbEdge&, const HbEdge&) = default;
};

// The relation over messages 0..size()-1: the direct edges and their transitive closure.
// A pair related by more than one rule keeps one edge, with the lowest rule number.
class HappensBefore {
 public:
  HappensBefore() = default;
  // Edges whose ends are >= messages are ignored.
  HappensBefore(size_t messages, std::vector<HbEdge> edges);

  size_t size() const { return size_; }
  // a <HB b in the closure (false for indexes out of range).
  bool before(size_t a, size_t b) const;
  // a <HB b or b <HB a.
  bool ordered(size_t a, size_t b) const { return before(a, b) || before(b, a); }
  const std::vector<HbEdge>& edges() const { return edges_; }
  // The rule of the direct edge a -> b, none when there is no direct edge.
  std::optional<int> direct_rule(size_t a, size_t b) const;
  // A shortest chain of direct edges from a to b (empty when not a <HB b): why a <HB b.
  std::vector<HbEdge> chain(size_t a, size_t b) const;

 private:
  size_t size_ = 0;
  size_t words_ = 0;                  // 64-bit words per closure row
  std::vector<HbEdge> edges_;         // sorted by (before, after)
  std::vector<std::uint64_t> reach_;  // row a, bit b: a <HB b
};

// The direct edges of the five rules over `trace`, sorted by (before, after).
std::vector<HbEdge> hb_edges(const looper_trace::MessageTrace& trace);
// hb_edges and their closure.
HappensBefore happens_before(const looper_trace::MessageTrace& trace);

// The main thread's dispatch sequence: the messages dispatched on it in dispatch order, then
// the ones queued to it but never dispatched, in send order. Empty without a main thread.
std::vector<size_t> ui_sequence(const looper_trace::MessageTrace& trace);

// A bound of an executable interval: a position in the sequence and the message there.
struct IntervalBound {
  size_t position = 0;
  size_t message = 0;

  friend bool operator==(const IntervalBound&, const IntervalBound&) = default;
};

// Where an async message may run on the main thread: strictly between its bounds.
// lower: the latest message before it in the sequence that must happen before it (none: no
// predecessor there); upper: the earliest message after it that must happen after it (none:
// no successor, it may run up to the end).
struct ExecutableInterval {
  size_t message = 0;
  size_t position = 0;  // its own position in the sequence
  std::optional<IntervalBound> lower;
  std::optional<IntervalBound> upper;
};

// The interval of the message at `position` of `sequence` (any message sequence, such as
// ui_sequence or a reordered one).
ExecutableInterval executable_interval(const HappensBefore& hb, const std::vector<size_t>& sequence, size_t position);
// The interval of every async message of ui_sequence(trace), in sequence order.
std::vector<ExecutableInterval> executable_intervals(const looper_trace::MessageTrace& trace, const HappensBefore& hb);

}  // namespace flakescan::event_order
