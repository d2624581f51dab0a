#include "suite/suite_plan.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "order/orders.hpp"
#include "order/pair_cover.hpp"

namespace flakescan::suite {

namespace {

template <class T>
void shuffle(std::vector<T>& v, order::Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

std::vector<std::string> shuffled_classes(const std::vector<std::string>& tests, std::uint64_t seed) {
  order::Rng rng(seed);
  auto groups = order::group_by_class(tests);
  shuffle(groups, rng);
  std::vector<std::string> out;
  out.reserve(tests.size());
  for (auto& g : groups)
    for (auto& t : g) out.push_back(std::move(t));
  return out;
}

}  // namespace

Round plan_shuffled_round(const std::vector<std::string>& tests, int index, std::uint64_t seed) {
  return Round{.index = index, .kind = "shuffling JDK, seed " + std::to_string(seed), .seed = seed, .shuffled = true, .shards = {tests}};
}

namespace {

// Round `index` (3 and later) as the (index - 2)-th pair-coverage order of order::plan_orders
// (`planned`: at least index of them, made once for every round), or empty once the pairs are
// all covered (then the rounds are shuffles).
std::vector<std::string> pair_coverage_order(const std::vector<order::PlannedOrder>& planned, int index) {
  const size_t at = static_cast<size_t>(index - 1);  // [0] original, [1] reverse, [2] the first pair-coverage order
  if (planned.size() <= at || !planned[at].purpose.starts_with("pair coverage")) return {};
  return planned[at].tests;
}

// The first "shuffled classes" round (index 6): with writers known, they go last in their class.
constexpr int kWritersLastRound = 6;

// The pair-coverage orders rounds 0..count-1 take from (each builds on the ones before it:
// making them once costs what making the last one alone does).
std::vector<order::PlannedOrder> pair_orders_for(const std::vector<std::string>& tests, int count, std::uint64_t scan_seed) {
  const int last_cover = 3 + (count - 4) / 2;  // the highest plan_orders index a round below `count` asks for
  if (count < 4) return {};
  return order::plan_orders(tests, scan_seed, last_cover, order::same_package);
}

Round plan_round_from(const std::vector<std::string>& tests, int index, std::uint64_t scan_seed, int shards,
                      const std::set<std::string>& writers, const std::vector<order::PlannedOrder>& pair_orders) {
  Round r{.index = index};
  std::vector<std::string> order;
  if (index == 0) {
    r.kind = "original";
    order = tests;
  } else if (index == 1) {
    r.kind = "reverse";
    order = order::reversed_order(tests);
  } else if (index == 2) {
    r.kind = "each test twice";
    for (const auto& t : tests) order.insert(order.end(), {t, t});
  } else {
    // From round 4 on, pair-coverage orders and shuffles alternate. The pair-coverage orders are
    // the ones `order` makes after the original and the reverse: each puts pairs of tests next
    // to each other that no earlier order did, related classes first, until every pair has run
    // in a row once; they stay close to the original order, so the shuffles between them move
    // each class to other places in the JVM's life (a timing test fails early, in a cold JVM).
    const int k = index - 3;
    std::vector<std::string> cover;
    if (k % 2 == 0) cover = pair_coverage_order(pair_orders, 3 + k / 2);
    if (!cover.empty()) {
      r.kind = "pair coverage " + std::to_string(k / 2 + 1);
      order = std::move(cover);
    } else {
      r.seed = order::order_seed(scan_seed, 1000 + index);
      if ((k / 2) % 2 == 1) {
        r.kind = "shuffled classes";
        order = shuffled_classes(tests, r.seed);
        if (index == kWritersLastRound && !writers.empty()) {  // the same classes' order, writers last in each
          r.kind = "shuffled classes, static-state writers last in their class";
          std::vector<std::string> moved;
          for (auto& g : order::group_by_class(order)) {
            std::stable_partition(g.begin(), g.end(), [&](const std::string& t) { return !writers.contains(t); });
            moved.insert(moved.end(), std::make_move_iterator(g.begin()), std::make_move_iterator(g.end()));
          }
          order = std::move(moved);
        }
      } else {
        r.kind = "shuffled classes and methods";
        order = order::random_order(tests, r.seed);
      }
    }
  }
  auto groups = order::group_by_class(order);
  const size_t n = std::max<size_t>(1, std::min<size_t>(std::max(1, shards), groups.size()));
  r.shards.assign(n, {});
  for (size_t g = 0; g < groups.size(); ++g)
    for (auto& t : groups[g]) r.shards[g % n].push_back(std::move(t));
  return r;
}

}  // namespace

Round plan_round(const std::vector<std::string>& tests, int index, std::uint64_t scan_seed, int shards,
                 const std::set<std::string>& writers) {
  return plan_round_from(tests, index, scan_seed, shards, writers, pair_orders_for(tests, index + 1, scan_seed));
}

std::vector<Round> plan_rounds(const std::vector<std::string>& tests, int count, std::uint64_t scan_seed, int shards,
                               const std::set<std::string>& writers) {
  const auto pair_orders = pair_orders_for(tests, count, scan_seed);
  std::vector<Round> out;
  for (int index = 0; index < count; ++index) out.push_back(plan_round_from(tests, index, scan_seed, shards, writers, pair_orders));
  return out;
}

ThreadRepeats thread_repeats(const std::map<std::string, double>& creators_ms, double round_ms, int most, double share) {
  ThreadRepeats out;
  const double budget = round_ms * share;
  double ms = 0;
  for (const auto& [test, d] : creators_ms) {
    out.tests.insert(test);
    ms += std::max(0.0, d);
  }
  out.times = std::max(1, most);
  while (out.times > 1 && ms * (out.times - 1) > budget) --out.times;
  if (out.times > 1) return out;
  // Not even twice for all of them: the quickest that fit, as often as they fit.
  std::vector<std::pair<double, std::string>> quickest;
  for (const auto& [test, d] : creators_ms) quickest.emplace_back(std::max(0.0, d), test);
  std::sort(quickest.begin(), quickest.end());
  out.tests.clear();
  for (int times = std::max(1, most); times > 1 && out.tests.empty(); --times) {
    double sum = 0;
    for (const auto& [d, test] : quickest) {
      if ((sum + d) * (times - 1) > budget) break;
      sum += d;
      out.tests.insert(test);
    }
    out.times = out.tests.empty() ? 1 : times;
  }
  return out;
}

Round with_thread_repeats(Round round, const ThreadRepeats& r) {
  if (r.times <= 1 || r.tests.empty()) return round;
  size_t repeated = 0;
  for (auto& shard : round.shards) {
    std::vector<std::string> out;
    for (auto& t : shard) {
      const bool creator = r.tests.contains(t);
      repeated += creator;
      out.insert(out.end(), creator ? size_t(r.times) : 1, t);
    }
    shard = std::move(out);
  }
  if (repeated > 0)
    round.kind += ", with the " + std::to_string(r.tests.size()) + (r.tests.size() == 1 ? " test " : " tests ") + r.why + " " +
                  std::to_string(r.times) + " times in a row";
  return round;
}

int rounds_that_fit(int wanted, int done, double seconds_per_round, int runs_per_round, BudgetLeft total,
                    BudgetLeft spent, double reserve) {
  const double seconds_for_rounds = total.seconds * (1.0 - reserve) - spent.seconds;
  const double runs_for_rounds = total.runs * (1.0 - reserve) - spent.runs;
  int more = wanted - done;
  if (seconds_per_round > 0) more = std::min(more, int(std::floor(seconds_for_rounds / seconds_per_round)));
  if (runs_per_round > 0) more = std::min(more, int(std::floor(runs_for_rounds / runs_per_round)));
  return done + std::max(0, more);
}

std::vector<std::string> narrowed_order(const std::vector<Occurrence>& rounds, const Occurrence& pick,
                                        const std::string& suspect) {
  std::set<std::string> common(pick.order->begin(), pick.order->begin() + long(pick.pos));
  for (const auto& r : rounds) {
    std::set<std::string> before(r.order->begin(), r.order->begin() + long(r.pos));
    std::erase_if(common, [&](const std::string& t) { return !before.contains(t); });
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < pick.pos; ++i) {
    const auto& t = (*pick.order)[i];
    if (t != suspect && common.contains(t)) out.push_back(t);
  }
  out.push_back(suspect);
  return out;
}

std::vector<std::string> without_tests_before_other_outcome(const std::vector<std::string>& narrowed,
                                                            const std::vector<Occurrence>& other,
                                                            const std::string& suspect) {
  std::set<std::string> seen_before;
  for (const auto& r : other) seen_before.insert(r.order->begin(), r.order->begin() + long(r.pos));
  std::vector<std::string> out;
  for (const auto& t : narrowed)
    if (t != suspect && !seen_before.contains(t)) out.push_back(t);
  out.push_back(suspect);
  return out;
}

}  // namespace flakescan::suite

