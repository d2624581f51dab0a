#include "event_order/happens_before.hpp"

#include <algorithm>
#include <deque>

namespace flakescan::event_order {

namespace {

using looper_trace::Message;

// The rule that orders m1 (sent first) and m2 directly, and in which direction.
struct Direct {
  int rule = 0;
  bool reversed = false;  // m2 <HB m1
};

std::optional<Direct> direct(const Message& m1, const Message& m2) {
  bool same_sender = m1.sender == m2.sender;
  bool same_known_handler = m1.handler >= 0 && m1.handler == m2.handler;
  if (same_sender && same_known_handler) {
    if (m1.handler != m1.sender) {
      if (m1.delay_ms <= m2.delay_ms) return Direct{1, false};
    } else {
      if (m1.delay_ms <= m2.delay_ms) return Direct{2, false};
      // m2 is due at once, m1 only after the gap between the two sends: m2 goes first.
      if (m2.delay_ms == 0 && double(m1.delay_ms) > m2.sent_at_ms - m1.sent_at_ms) return Direct{3, true};
    }
  }
  // m2 sent by m1's handler once m1 was being handled.
  if (m1.dispatched_at_ms && m1.handler >= 0 && m2.sender == m1.handler && m2.sent_at_ms >= *m1.dispatched_at_ms &&
      m1.delay_ms <= m2.delay_ms)
    return Direct{m2.handler == m1.sender ? 5 : 4, false};
  return std::nullopt;
}

}  // namespace

HappensBefore::HappensBefore(size_t messages, std::vector<HbEdge> edges)
    : size_(messages), words_((messages + 63) / 64), reach_(messages * words_, 0) {
  std::erase_if(edges, [&](const HbEdge& e) { return e.before >= messages || e.after >= messages; });
  std::sort(edges.begin(), edges.end(), [](const HbEdge& a, const HbEdge& b) {
    if (a.before != b.before) return a.before < b.before;
    if (a.after != b.after) return a.after < b.after;
    return a.rule < b.rule;
  });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const HbEdge& a, const HbEdge& b) { return a.before == b.before && a.after == b.after; }),
              edges.end());
  edges_ = std::move(edges);
  for (const auto& e : edges_) reach_[e.before * words_ + e.after / 64] |= std::uint64_t{1} << (e.after % 64);
  // Warshall over bit rows: whoever reaches k reaches everything k reaches.
  for (size_t k = 0; k < size_; ++k) {
    const std::uint64_t* row_k = &reach_[k * words_];
    for (size_t i = 0; i < size_; ++i) {
      std::uint64_t* row_i = &reach_[i * words_];
      if (row_i[k / 64] >> (k % 64) & 1)
        for (size_t w = 0; w < words_; ++w) row_i[w] |= row_k[w];
    }
  }
}

bool HappensBefore::before(size_t a, size_t b) const {
  if (a >= size_ || b >= size_) return false;
  return reach_[a * words_ + b / 64] >> (b % 64) & 1;
}

std::optional<int> HappensBefore::direct_rule(size_t a, size_t b) const {
  auto it = std::lower_bound(edges_.begin(), edges_.end(), HbEdge{a, b, 0}, [](const HbEdge& x, const HbEdge& y) {
    return x.before != y.before ? x.before < y.before : x.after < y.after;
  });
  if (it == edges_.end() || it->before != a || it->after != b) return std::nullopt;
  return it->rule;
}

std::vector<HbEdge> HappensBefore::chain(size_t a, size_t b) const {
  if (!before(a, b)) return {};
  // Breadth first over direct edges from a (edges_ is sorted by `before`, so a node's edges
  // are a run). The target is checked before the visited mark, so a == b on a cycle ends the
  // same way as any other path.
  std::vector<std::optional<size_t>> via(size_);  // the edge that first reached each node
  std::deque<size_t> todo{a};
  while (!todo.empty()) {
    size_t n = todo.front();
    todo.pop_front();
    auto first = std::lower_bound(edges_.begin(), edges_.end(), n, [](const HbEdge& e, size_t v) { return e.before < v; });
    for (auto it = first; it != edges_.end() && it->before == n; ++it) {
      if (it->after == b) {
        std::vector<HbEdge> out{*it};
        for (size_t at = n; at != a; at = edges_[*via[at]].before) out.push_back(edges_[*via[at]]);
        std::reverse(out.begin(), out.end());
        return out;
      }
      if (via[it->after] || it->after == a) continue;
      via[it->after] = size_t(it - edges_.begin());
      todo.push_back(it->after);
    }
  }
  return {};
}

std::vector<HbEdge> hb_edges(const looper_trace::MessageTrace& trace) {
  std::vector<HbEdge> out;
  const auto& ms = trace.messages;
  for (size_t i = 0; i < ms.size(); ++i)
    for (size_t j = i + 1; j < ms.size(); ++j)
      if (auto d = direct(ms[i], ms[j])) out.push_back(d->reversed ? HbEdge{j, i, d->rule} : HbEdge{i, j, d->rule});
  // Rule 6 (ours, beside the seed's five): a thread started while message m0 was dispatched
  // sends everything after m0. A pair already related by rules 1-5 keeps that rule.
  for (size_t j = 0; j < ms.size(); ++j) {
    int sender = ms[j].sender;
    if (sender < 0 || size_t(sender) >= trace.threads.size()) continue;
    int m0 = trace.threads[size_t(sender)].started_in;
    if (m0 < 0 || size_t(m0) == j || size_t(m0) >= ms.size()) continue;
    bool known = std::any_of(out.begin(), out.end(), [&](const HbEdge& e) { return e.before == size_t(m0) && e.after == j; });
    if (!known) out.push_back(HbEdge{size_t(m0), j, 6});
  }
  std::sort(out.begin(), out.end(),
            [](const HbEdge& a, const HbEdge& b) { return a.before != b.before ? a.before < b.before : a.after < b.after; });
  return out;
}

HappensBefore happens_before(const looper_trace::MessageTrace& trace) {
  return HappensBefore(trace.messages.size(), hb_edges(trace));
}

std::vector<size_t> ui_sequence(const looper_trace::MessageTrace& trace) {
  int main = trace.main_thread();
  if (main < 0) return {};
  auto out = trace.dispatched_on(main);
  for (size_t i = 0; i < trace.messages.size(); ++i)
    if (trace.messages[i].handler == main && !trace.messages[i].dispatched_at_ms) out.push_back(i);
  return out;
}

ExecutableInterval executable_interval(const HappensBefore& hb, const std::vector<size_t>& sequence, size_t position) {
  ExecutableInterval out;
  out.message = sequence.at(position);
  out.position = position;
  for (size_t p = position; p-- > 0;)
    if (hb.before(sequence[p], out.message)) {
      out.lower = IntervalBound{p, sequence[p]};
      break;
    }
  for (size_t p = position + 1; p < sequence.size(); ++p)
    if (hb.before(out.message, sequence[p])) {
      out.upper = IntervalBound{p, sequence[p]};
      break;
    }
  return out;
}

std::vector<ExecutableInterval> executable_intervals(const looper_trace::MessageTrace& trace, const HappensBefore& hb) {
  std::vector<ExecutableInterval> out;
  auto sequence = ui_sequence(trace);
  for (size_t p = 0; p < sequence.size(); ++p)
    if (trace.async(sequence[p])) out.push_back(executable_interval(hb, sequence, p));
  return out;
}

}  // namespace flakescan::event_order
