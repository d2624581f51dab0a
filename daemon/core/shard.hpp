#pragma once
// Sharded scans: one scan split over a CI matrix. Shard I of N runs the tests of the classes
// whose stable hash falls to it, so every shard of a group gets whole classes, no test is in two
// shards, and every machine computes the same split from the same test list
// (history/groups.hpp merges the shards' verdicts). Pure: values in, values out.
#include <string>
#include <vector>

#include "util/error.hpp"

namespace flakescan::core {

struct Shard {
  int index = 1;  // 1..count
  int count = 1;
  std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
  friend bool operator==(const Shard&, const Shard&) = default;
};

// "I/N" with 1 <= I <= N <= 1000.
util::Result<Shard> parse_shard(const std::string& text);
// A group name: 1..128 characters of [A-Za-z0-9._:-].
util::Result<std::string> check_group(const std::string& group);

// Whether a test (pkg.Class#method or pkg.Class) belongs to `shard`, by its class.
bool in_shard(const std::string& test, const Shard& shard);
std::vector<std::string> shard_share(const std::vector<std::string>& tests, const Shard& shard);

}  // namespace flakescan::core
