#include "order/ddmin.hpp"

#include <algorithm>

namespace flakescan::order {

namespace {

std::vector<std::vector<size_t>> split(const std::vector<size_t>& items, size_t parts) {
  std::vector<std::vector<size_t>> out;
  size_t start = 0;
  for (size_t i = 0; i < parts; ++i) {
    size_t end = start + (items.size() - start) / (parts - i);
    out.emplace_back(items.begin() + static_cast<long>(start), items.begin() + static_cast<long>(end));
    start = end;
  }
  return out;
}

std::vector<size_t> without(const std::vector<size_t>& items, const std::vector<size_t>& drop) {
  std::vector<size_t> out;
  std::set_difference(items.begin(), items.end(), drop.begin(), drop.end(), std::back_inserter(out));
  return out;
}

}  // namespace

Minimised ddmin(size_t n, const Probe& probe) {
  Minimised m;
  for (size_t i = 0; i < n; ++i) m.items.push_back(i);
  size_t granularity = 2;
  // Returns true when `candidate` reproduces; records an error and stops otherwise.
  auto ask = [&](const std::vector<size_t>& candidate) -> std::optional<bool> {
    ++m.probes;
    auto r = probe(candidate);
    if (!r) {
      m.complete = false;
      m.stopped = r.error();
      return std::nullopt;
    }
    return *r;
  };
  while (m.items.size() >= 2) {
    granularity = std::min(granularity, m.items.size());
    auto chunks = split(m.items, granularity);
    bool reduced = false;
    // Try each chunk alone first: with one polluter (the usual case) this halves quickly.
    for (const auto& chunk : chunks) {
      auto ok = ask(chunk);
      if (!ok) return m;
      if (*ok) {
        m.items = chunk;
        granularity = 2;
        reduced = true;
        break;
      }
    }
    // With two chunks the complements are the chunks themselves.
    if (!reduced && granularity > 2) {
      for (const auto& chunk : chunks) {
        auto rest = without(m.items, chunk);
        auto ok = ask(rest);
        if (!ok) return m;
        if (*ok) {
          m.items = std::move(rest);
          granularity = std::max<size_t>(granularity - 1, 2);
          reduced = true;
          break;
        }
      }
    }
    if (!reduced) {
      if (granularity >= m.items.size()) break;
      granularity = std::min(m.items.size(), granularity * 2);
    }
  }
  return m;
}

}  // namespace flakescan::order
