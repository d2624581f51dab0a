#pragma once
// Maximum-differentiation scheduling (docs/explore.md, strategy maxdiff, the seed's Algorithm 1), as
// pure functions over a MessageTrace and its HappensBefore.
//
// Policy. Start from a baseline order of the main thread's sequence (ui_sequence, or the
// previous round's order). Take the async messages one at a time in baseline order. For
// each, try every position of its executable interval on the sequence predicted so far: it
// may move left or right as long as it jumps over no message HB-ordered with it (so it stays
// strictly between its tightest HB predecessor and its earliest HB successor, and every other
// HB pair keeps its order). Score each position by its difference from the baseline (below),
// keep a best one, and continue from that sequence. Equal scores are broken by the caller's
// seeded std::mt19937_64, so an order is a function of (trace, baseline, seed).
//
// Difference of a candidate from the baseline, for the message m being placed:
//   inversions(async messages of the candidate, async messages of the baseline) + PDC(m)
//   PDC(m) = 0.5*|new - old| + 0.5*|(new - old) / (old + 1)|
// new and old are m's 0-based positions in the whole main-thread sequence (so moving an async
// message across main-thread work posted by the test counts, which positions among async
// messages alone would score 0). The seed divides by the old position itself, which is 0 for
// the first message; dividing by old + 1 is the same formula over 1-based positions.
//
// Sync messages are never moved themselves; they only shift when an async message moves
// across them, so their relative order is kept.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "event_order/happens_before.hpp"
#include "looper_trace/message_trace.hpp"

namespace flakescan::event_order {

inline constexpr double pdc_alpha = 0.5;  // weight of the absolute position change
inline constexpr double pdc_beta = 0.5;   // weight of the change relative to the old position

// Position difference of one message, 0-based positions (see above for old + 1).
double pdc(size_t old_position, size_t new_position);
// Pairs of elements found in both sequences whose relative order differs.
size_t inversions(const std::vector<size_t>& a, const std::vector<size_t>& b);

// An async message the search relocated: its position in the baseline and in the new order.
struct MovedMessage {
  size_t message = 0;
  size_t old_position = 0;
  size_t new_position = 0;

  friend bool operator==(const MovedMessage&, const MovedMessage&) = default;
};

// What the realisation must make true for a moved message: it is dispatched right after
// `after` and right before `before` (none: first / last of the sequence).
struct PlacementConstraint {
  size_t message = 0;
  std::optional<size_t> after;
  std::optional<size_t> before;

  friend bool operator==(const PlacementConstraint&, const PlacementConstraint&) = default;
};

struct MaxDiffOrder {
  std::vector<size_t> baseline;  // the main-thread sequence the round started from
  std::vector<size_t> sequence;  // the new order: a permutation of baseline
  // The messages the search placed somewhere else than where it found them, in the order
  // it placed them; positions index baseline and sequence.
  std::vector<MovedMessage> moved;
  std::vector<PlacementConstraint> constraints;  // one per moved message, same order
  size_t inversions = 0;    // between the async messages of sequence and of baseline
  double difference = 0;    // inversions + the PDC of every async message, sequence vs baseline
};

// One round from `baseline` (message indexes of `trace`, normally ui_sequence(trace) or an
// earlier order), drawing tie-breaks from `rng`.
MaxDiffOrder max_diff_order(const looper_trace::MessageTrace& trace, const HappensBefore& hb,
                            const std::vector<size_t>& baseline, std::mt19937_64& rng);
// One round from ui_sequence(trace), tie-breaks from std::mt19937_64(seed).
MaxDiffOrder max_diff_order(const looper_trace::MessageTrace& trace, const HappensBefore& hb, std::uint64_t seed);

// Up to `rounds` distinct orders for a run budget: round 1 starts from ui_sequence(trace),
// each later round from the previous round's order (as the seed iterates), one engine seeded
// once with `seed`. Stops early when a round's order equals the recorded sequence or an
// earlier round's order (that one is not returned).
std::vector<MaxDiffOrder> max_diff_orders(const looper_trace::MessageTrace& trace, const HappensBefore& hb,
                                          std::uint64_t seed, size_t rounds);

// Every single move of one async message within its executable interval on ui_sequence(trace)
// (each position it can reach without jumping over a message HB-ordered with it), largest
// difference from the recorded sequence first; ties in message, then position order. What
// the search falls back on once the rounds of max_diff_orders repeat: the interval is then
// covered position by position while the budget lasts.
std::vector<MaxDiffOrder> single_move_orders(const looper_trace::MessageTrace& trace, const HappensBefore& hb);

}  // namespace flakescan::event_order
