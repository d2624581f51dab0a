#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "core/shard.hpp"

using namespace flakescan;

TEST_CASE("a shard is I/N with 1 <= I <= N <= 1000", "[shard]") {
  CHECK(core::parse_shard("2/4").value() == core::Shard{2, 4});
  CHECK(core::parse_shard("1/1").value().str() == "1/1");
  for (const char* bad : {"0/4", "5/4", "4", "/4", "2/", "a/b", "2/4x", "-1/4", "1/1001", ""})
    CHECK(core::parse_shard(bad).error().code == util::Errc::invalid_argument);
  CHECK(core::check_group("ci-1234.nightly:a_b"));
  CHECK_FALSE(core::check_group(""));
  CHECK_FALSE(core::check_group("a b"));
  CHECK_FALSE(core::check_group("a/b"));
  CHECK_FALSE(core::check_group(std::string(129, 'g')));
}

TEST_CASE("shards split the tests by class: each test in exactly one shard, classes whole", "[shard]") {
  std::vector<std::string> tests;
  for (int c = 0; c < 60; ++c)
    for (int m = 0; m < 5; ++m) tests.push_back("p.q.Class" + std::to_string(c) + "#test" + std::to_string(m));
  const int n = 4;
  std::map<std::string, int> shard_of_test;
  std::map<std::string, std::set<int>> shards_of_class;
  for (int i = 1; i <= n; ++i) {
    auto share = core::shard_share(tests, {i, n});
    CHECK_FALSE(share.empty());  // 60 classes over 4 shards: none is empty
    for (const auto& t : share) {
      CHECK(shard_of_test.emplace(t, i).second);  // in no other shard
      shards_of_class[t.substr(0, t.find('#'))].insert(i);
    }
  }
  CHECK(shard_of_test.size() == tests.size());
  for (const auto& [cls, shards] : shards_of_class) CHECK(shards.size() == 1);
  // A class id alone goes where its methods go.
  for (int i = 1; i <= n; ++i) CHECK(core::in_shard("p.q.Class7", {i, n}) == core::in_shard("p.q.Class7#test3", {i, n}));
}

TEST_CASE("the split is the same on every machine and build (FNV-1a of the class name, mixed)", "[shard]") {
  // The hash of "a.B" is 0xbaa13ee50f323fcb, fixed by the algorithm, not by std::hash: the
  // shard every CI runner computes for it must never change between flakescan versions.
  // 0xbaa13ee50f323fcb % 7 == 2, so shard 3 of 7.
  int found = 0;
  for (int i = 1; i <= 7; ++i)
    if (core::in_shard("a.B#m", {i, 7})) found = i;
  CHECK(found == 3);
}
