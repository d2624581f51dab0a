#include "event_order/max_diff.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace flakescan::event_order {

namespace {

constexpr size_t none = size_t(-1);
// Scores are sums of the same few terms; anything closer than this is a tie.
constexpr double tie = 1e-9;

// The position of every message of `sequence`, indexed by message (none: absent).
std::vector<size_t> positions(const std::vector<size_t>& sequence, size_t messages) {
  std::vector<size_t> out(messages, none);
  for (size_t p = 0; p < sequence.size(); ++p) out.at(sequence[p]) = p;
  return out;
}

}  // namespace

double pdc(size_t old_position, size_t new_position) {
  double shift = double(new_position) - double(old_position);
  return pdc_alpha * std::abs(shift) + pdc_beta * std::abs(shift / double(old_position + 1));
}

size_t inversions(const std::vector<size_t>& a, const std::vector<size_t>& b) {
  std::unordered_map<size_t, size_t> in_b;
  for (size_t p = 0; p < b.size(); ++p) in_b.emplace(b[p], p);
  std::vector<size_t> ranks;  // b's position of each of a's elements, in a's order
  for (size_t m : a)
    if (auto it = in_b.find(m); it != in_b.end()) ranks.push_back(it->second);
  size_t out = 0;
  for (size_t i = 0; i < ranks.size(); ++i)
    for (size_t j = i + 1; j < ranks.size(); ++j)
      if (ranks[i] > ranks[j]) ++out;
  return out;
}

MaxDiffOrder max_diff_order(const looper_trace::MessageTrace& trace, const HappensBefore& hb,
                            const std::vector<size_t>& baseline, std::mt19937_64& rng) {
  MaxDiffOrder out;
  out.baseline = baseline;
  const size_t messages = trace.messages.size();
  const auto old_position = positions(baseline, messages);
  std::vector<size_t> current = baseline;
  size_t current_inversions = 0;  // async pairs of `current` ordered unlike in baseline

  // Whether moving m across y flips the pair (m, y) back into, or out of, baseline order.
  auto flip = [&](size_t m, size_t y, bool m_ends_first) -> long {
    if (!trace.async(y)) return 0;
    bool baseline_m_first = old_position[m] < old_position[y];
    return baseline_m_first == m_ends_first ? -1 : +1;
  };

  struct Candidate {
    size_t position;
    long inversion_change;
    double score;
  };
  for (size_t m : baseline) {
    if (!trace.async(m)) continue;
    size_t at = size_t(std::find(current.begin(), current.end(), m) - current.begin());
    std::vector<Candidate> candidates;
    auto consider = [&](size_t position, long change) {
      double score = double(long(current_inversions) + change) + pdc(old_position[m], position);
      candidates.push_back({position, change, score});
    };
    consider(at, 0);
    long change = 0;
    for (size_t p = at; p-- > 0;) {  // leftwards: m lands at p, before current[p]
      if (hb.ordered(current[p], m)) break;
      change += flip(m, current[p], true);
      consider(p, change);
    }
    change = 0;
    for (size_t p = at + 1; p < current.size(); ++p) {  // rightwards: m lands at p, after current[p]
      if (hb.ordered(m, current[p])) break;
      change += flip(m, current[p], false);
      consider(p, change);
    }

    double best = candidates.front().score;
    for (const auto& c : candidates) best = std::max(best, c.score);
    std::vector<const Candidate*> ties;
    for (const auto& c : candidates)
      if (c.score >= best - tie) ties.push_back(&c);
    // Modulo rather than a std distribution, whose output differs between standard libraries.
    const Candidate& chosen = ties.size() == 1 ? *ties.front() : *ties[rng() % ties.size()];

    if (chosen.position == at) continue;
    current.erase(current.begin() + long(at));
    current.insert(current.begin() + long(chosen.position), m);
    current_inversions = size_t(long(current_inversions) + chosen.inversion_change);
    out.moved.push_back({m, old_position[m], 0});
  }

  const auto new_position = positions(current, messages);
  for (auto& moved : out.moved) {
    moved.new_position = new_position[moved.message];
    PlacementConstraint c{moved.message, std::nullopt, std::nullopt};
    if (moved.new_position > 0) c.after = current[moved.new_position - 1];
    if (moved.new_position + 1 < current.size()) c.before = current[moved.new_position + 1];
    out.constraints.push_back(c);
  }
  out.inversions = current_inversions;
  out.difference = double(current_inversions);
  for (size_t m : current)
    if (trace.async(m)) out.difference += pdc(old_position[m], new_position[m]);
  out.sequence = std::move(current);
  return out;
}

MaxDiffOrder max_diff_order(const looper_trace::MessageTrace& trace, const HappensBefore& hb, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return max_diff_order(trace, hb, ui_sequence(trace), rng);
}

std::vector<MaxDiffOrder> max_diff_orders(const looper_trace::MessageTrace& trace, const HappensBefore& hb,
                                          std::uint64_t seed, size_t rounds) {
  std::mt19937_64 rng(seed);
  std::vector<MaxDiffOrder> out;
  std::vector<size_t> baseline = ui_sequence(trace);
  const std::vector<size_t> recorded = baseline;
  for (size_t round = 0; round < rounds; ++round) {
    auto order = max_diff_order(trace, hb, baseline, rng);
    bool seen = order.sequence == recorded ||
                std::any_of(out.begin(), out.end(), [&](const MaxDiffOrder& o) { return o.sequence == order.sequence; });
    if (seen) break;
    baseline = order.sequence;
    out.push_back(std::move(order));
  }
  return out;
}

std::vector<MaxDiffOrder> single_move_orders(const looper_trace::MessageTrace& trace, const HappensBefore& hb) {
  const auto recorded = ui_sequence(trace);
  const auto old_position = positions(recorded, trace.messages.size());
  std::vector<MaxDiffOrder> out;
  for (size_t at = 0; at < recorded.size(); ++at) {
    const size_t m = recorded[at];
    if (!trace.async(m)) continue;
    auto add = [&](size_t to) {
      MaxDiffOrder order;
      order.baseline = recorded;
      order.sequence = recorded;
      order.sequence.erase(order.sequence.begin() + long(at));
      order.sequence.insert(order.sequence.begin() + long(to), m);
      order.moved.push_back({m, at, to});
      PlacementConstraint c{m, std::nullopt, std::nullopt};
      if (to > 0) c.after = order.sequence[to - 1];
      if (to + 1 < order.sequence.size()) c.before = order.sequence[to + 1];
      order.constraints.push_back(c);
      std::vector<size_t> old_async, new_async;
      for (size_t x : recorded)
        if (trace.async(x)) old_async.push_back(x);
      for (size_t x : order.sequence)
        if (trace.async(x)) new_async.push_back(x);
      order.inversions = inversions(new_async, old_async);
      order.difference = double(order.inversions) + pdc(old_position[m], to);
      out.push_back(std::move(order));
    };
    for (size_t p = at; p-- > 0;) {
      if (hb.ordered(recorded[p], m)) break;
      add(p);
    }
    for (size_t p = at + 1; p < recorded.size(); ++p) {
      if (hb.ordered(m, recorded[p])) break;
      add(p);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const MaxDiffOrder& a, const MaxDiffOrder& b) { return a.difference > b.difference + tie; });
  return out;
}

}  // namespace flakescan::event_order
