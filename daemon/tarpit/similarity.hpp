#pragma once
// Screen similarity and the greedy merge of unique screens into groups (VET's
// preprocess-sim and the first half of detect-trapped).
//
// The seed's simcheck takes L = LCS of the two pre-order (label, depth) sequences, calls the
// screens different when L < min(|a|, |b|), and otherwise similar iff max - L <= d_max.
// L == min(|a|, |b|) holds exactly when the shorter sequence is a subsequence of the longer,
// and then max - L = |b| - |a|. So the LCS reduces to a linear greedy subsequence test after
// an O(1) size filter: no quadratic LCS table is ever built.
#include <cstdint>
#include <span>
#include <vector>

#include "tarpit/abstraction.hpp"

namespace flakescan::tarpit {

struct SimilarityOptions {
  int d_max = 3;          // largest insertion distance that still counts as similar
  int max_size_gap = 10;  // pairs whose node counts differ by more are never compared (VET: 10)
  // VET scores a pair that is not an insertion variant as |a| + |b| and still compares that
  // with d_max, so a 1-node and a 2-node screen of one activity are always similar. true
  // reproduces that quirk; false calls such pairs different.
  bool vet_small_screen_quirk = false;
};

// True iff `a` is a subsequence of `b`.
bool is_subsequence(std::span<const Token> a, std::span<const Token> b);

// VET's insertion distance for |a| <= |b|: |b| - |a| if a is a subsequence of b, otherwise
// |a| + |b|.
std::int64_t insertion_distance(std::span<const Token> a, std::span<const Token> b);

// Whether unique screens a and b (either order) are similar under the options.
bool similar(const UniqueScreen& a, const UniqueScreen& b, const SimilarityOptions& options);

struct Grouping {
  std::vector<std::uint32_t> order;    // unique indices in merge order (size, activity, key)
  std::vector<std::uint32_t> root_of;  // per unique: the unique index of its group's root
  std::vector<std::uint32_t> group_of; // per unique: dense group number, 0..groups-1
  std::size_t groups = 0;
  std::size_t comparisons = 0;         // subsequence tests made (for the benchmark)
};

// Star clustering as VET does it: walk uniques sorted by (node count, activity name, key);
// each one not yet grouped becomes a root and claims every later ungrouped screen similar
// to it. Not transitive: a screen similar only to a non-root member stays apart.
Grouping merge_screens(const std::vector<UniqueScreen>& uniques, const StringPool& pool,
                       const SimilarityOptions& options);

}  // namespace flakescan::tarpit
