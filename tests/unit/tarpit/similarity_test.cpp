#include <catch2/catch.hpp>

#include "support/tarpit/trace_builder.hpp"
#include "tarpit/abstraction.hpp"
#include "tarpit/similarity.hpp"

using namespace flakescan::tarpit;
using testing::add_screen;

namespace {

// Abstracts hand-written screens (all at distinct times) of one trace.
struct Built {
  Trace trace;
  Abstraction abs;
};

Built build(const std::vector<std::pair<std::string, std::string>>& screens) {
  Built b;
  std::int64_t t = 0;
  for (const auto& [activity, tree] : screens) add_screen(b.trace, t += 1000, activity, tree);
  b.abs = abstract_screens(b.trace, 0, b.trace.screens.size(), {});
  return b;
}

const UniqueScreen& unique_of(const Built& b, std::size_t screen) {
  return b.abs.uniques[std::size_t(b.abs.screen_unique[screen])];
}

}  // namespace

TEST_CASE("subsequence test on token sequences", "[tarpit][similarity]") {
  std::vector<Token> a{1, 2, 3}, b{1, 9, 2, 9, 3}, c{3, 2, 1};
  CHECK(is_subsequence(a, b));
  CHECK_FALSE(is_subsequence(c, b));
  CHECK(is_subsequence(std::vector<Token>{}, b));
  CHECK_FALSE(is_subsequence(b, a));
  CHECK(insertion_distance(a, b) == 2);
  CHECK(insertion_distance(c, b) == 8);  // not an insertion variant: |a| + |b|
}

TEST_CASE("a screen with inserted nodes is similar within d_max", "[tarpit][similarity]") {
  auto b = build({{"Main", "Frame(List:list(Row:r Row:r) Button:ok)"},
                  {"Main", "Frame(List:list(Row:r Row:r Row:r) Button:ok)"},           // +1 row
                  {"Main", "Frame(List:list(Row:r Row:r Row:r Row:r Row:r) Button:ok Text:t)"},  // +4
                  {"Other", "Frame(List:list(Row:r Row:r Row:r) Button:ok)"}});         // other activity
  SimilarityOptions o;
  CHECK(similar(unique_of(b, 0), unique_of(b, 1), o));
  CHECK_FALSE(similar(unique_of(b, 0), unique_of(b, 2), o));  // 4 inserted nodes > d_max = 3
  CHECK(similar(unique_of(b, 1), unique_of(b, 2), o));        // 3 inserted
  CHECK_FALSE(similar(unique_of(b, 0), unique_of(b, 3), o));  // activities differ
  o.d_max = 4;
  CHECK(similar(unique_of(b, 0), unique_of(b, 2), o));
}

TEST_CASE("depth is part of a node: moving a node under another breaks similarity", "[tarpit][similarity]") {
  auto b = build({{"Main", "Frame(Button:ok Text:t)"},
                  {"Main", "Frame(Button:ok(Text:t) Image:i)"}});
  // Same labels in the same order, but Text moved one level down: not a subsequence.
  CHECK_FALSE(similar(unique_of(b, 0), unique_of(b, 1), SimilarityOptions{}));
}

TEST_CASE("equal-sized different screens are never similar", "[tarpit][similarity]") {
  auto b = build({{"Main", "Frame(Button:a)"}, {"Main", "Frame(Button:b)"}});
  CHECK_FALSE(similar(unique_of(b, 0), unique_of(b, 1), SimilarityOptions{}));
  CHECK_FALSE(similar(unique_of(b, 0), unique_of(b, 1), SimilarityOptions{3, 10, true}));
}

TEST_CASE("VET's small-screen quirk: a 1-node and a 2-node screen are similar", "[tarpit][similarity]") {
  auto b = build({{"Main", "Frame:x"}, {"Main", "Frame:y(Text:z)"}});
  CHECK_FALSE(similar(unique_of(b, 0), unique_of(b, 1), SimilarityOptions{3, 10, false}));
  CHECK(similar(unique_of(b, 0), unique_of(b, 1), SimilarityOptions{3, 10, true}));  // |a|+|b| = 3 <= 3
}

TEST_CASE("merge is greedy star clustering from the smallest screen, not transitive", "[tarpit][merge]") {
  // A (3 nodes) < B = A + 2 nodes < C = B + 2 nodes: A~B, B~C, but A and C are 4 apart.
  auto b = build({{"Main", "Frame(Button:ok Text:t)"},
                  {"Main", "Frame(Button:ok Text:t Image:i1 Image:i2)"},
                  {"Main", "Frame(Button:ok Text:t Image:i1 Image:i2 Image:i3 Image:i4)"},
                  {"Main", "Frame(Check:c)"}});
  auto g = merge_screens(b.abs.uniques, b.trace.pool, SimilarityOptions{});
  const auto ua = std::uint32_t(b.abs.screen_unique[0]), ub = std::uint32_t(b.abs.screen_unique[1]),
             uc = std::uint32_t(b.abs.screen_unique[2]), ud = std::uint32_t(b.abs.screen_unique[3]);
  // Order by size: D (2 nodes) first, then A (3), B (5), C (7).
  CHECK(g.order.front() == ud);
  CHECK(g.root_of[ua] == ua);
  CHECK(g.root_of[ub] == ua);  // claimed by A
  CHECK(g.root_of[uc] == uc);  // B is not a root, so C starts its own group
  CHECK(g.root_of[ud] == ud);
  CHECK(g.groups == 3);
  CHECK(g.group_of[ua] == g.group_of[ub]);
  CHECK(g.group_of[ua] != g.group_of[uc]);
}

TEST_CASE("merge: the first root in (size, activity, key) order claims a shared superset", "[tarpit][merge]") {
  // X and Y have 3 nodes each; Z is a superset of both. Whichever of X, Y sorts first by key
  // claims Z; the other stays alone.
  auto b = build({{"Main", "Frame(Button:x Text:t)"},
                  {"Main", "Frame(Button:y Text:t)"},
                  {"Main", "Frame(Button:x Button:y Text:t)"}});
  auto g = merge_screens(b.abs.uniques, b.trace.pool, SimilarityOptions{});
  const auto ux = std::uint32_t(b.abs.screen_unique[0]), uy = std::uint32_t(b.abs.screen_unique[1]),
             uz = std::uint32_t(b.abs.screen_unique[2]);
  const auto first = b.abs.uniques[ux].key < b.abs.uniques[uy].key ? ux : uy;
  CHECK(g.root_of[uz] == first);
  CHECK(g.groups == 2);
}
