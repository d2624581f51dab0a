#include "order/orders.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace flakescan::order {

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t Rng::below(std::uint64_t n) {
  // Rejection sampling: drop the top partial bucket so every value is equally likely.
  std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
  std::uint64_t x;
  do x = next();
  while (x >= limit);
  return x % n;
}

std::string_view class_of(std::string_view test_id) { return test_id.substr(0, test_id.find('#')); }

std::vector<std::vector<std::string>> group_by_class(const std::vector<std::string>& tests) {
  std::vector<std::vector<std::string>> groups;
  std::map<std::string_view, size_t> index;
  for (const auto& t : tests) {
    auto [it, added] = index.emplace(class_of(t), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(t);
  }
  return groups;
}

std::vector<std::string> reversed_order(const std::vector<std::string>& tests) {
  return {tests.rbegin(), tests.rend()};
}

std::vector<std::string> unique_in_order(const std::vector<std::string>& tests) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& t : tests)
    if (seen.insert(t).second) out.push_back(t);
  return out;
}

namespace {
template <class T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}
}  // namespace

std::vector<std::string> random_order(const std::vector<std::string>& tests, std::uint64_t seed) {
  Rng rng(seed);
  auto groups = group_by_class(tests);
  shuffle(groups, rng);
  std::vector<std::string> out;
  out.reserve(tests.size());
  for (auto& g : groups) {
    shuffle(g, rng);
    for (auto& t : g) out.push_back(std::move(t));
  }
  return out;
}

std::uint64_t order_seed(std::uint64_t scan_seed, int index) {
  Rng rng(scan_seed ^ (0x6f72646572ULL * static_cast<std::uint64_t>(index + 1)));
  std::uint64_t s = rng.next();
  return s == 0 ? 1 : s;
}

std::vector<PlannedOrder> plan_orders(const std::vector<std::string>& tests, std::uint64_t seed, int count,
                                      const RelatedFn& related) {
  std::vector<PlannedOrder> out;
  std::set<std::vector<std::string>> seen;
  auto add = [&](std::vector<std::string> order, std::string purpose, std::uint64_t s) {
    if (!seen.insert(order).second) return;
    out.push_back({std::move(order), std::move(purpose), s});
  };
  if (count >= 1) add(tests, "original order", 0);
  if (count >= 2) add(reversed_order(tests), "reverse order", 0);
  if (static_cast<int>(out.size()) < count) {
    PairTracker pairs(tests, related);
    for (const auto& p : out) pairs.add(p.tests);
    auto covering = pairs.next_orders(seed, count - static_cast<int>(out.size()));
    for (size_t i = 0; i < covering.size(); ++i)
      add(std::move(covering[i]), "pair coverage order " + std::to_string(i + 1), 0);
  }
  // A few extra draws let small suites with repeated shuffles still fill the count.
  for (int i = 0; static_cast<int>(out.size()) < count && i < 4 * count; ++i) {
    std::uint64_t s = order_seed(seed, i);
    add(random_order(tests, s), "random order " + std::to_string(i + 1), s);
  }
  return out;
}

int default_order_count(const std::vector<std::string>& tests) {
  size_t largest = 0;
  for (const auto& members : group_by_class(tests)) largest = std::max(largest, members.size());
  const int rows = int(tuscan_rows(largest).size());
  return std::clamp(2 * rows, 10, 100);
}

}  // namespace flakescan::order
