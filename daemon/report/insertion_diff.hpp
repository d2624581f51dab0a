#pragma once
// Unified diff of one file where lines are only inserted: the @FlakyTest patch
// (flaky_patch.cpp) and the patches of technique `repair` write their changes with it.
// Paths are written a/<path> and b/<path>, as `git apply` and `patch -p1` read them.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace flakescan::report {

struct Insertion {
  std::size_t before;  // 0-based index of the line the new lines go in front of
  std::vector<std::string> lines;
};

inline constexpr int context_lines = 3;

inline std::string diff_file(const std::string& path, const std::vector<std::string>& old_lines, std::vector<Insertion> ins) {
  std::stable_sort(ins.begin(), ins.end(), [](const auto& a, const auto& b) { return a.before < b.before; });
  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  const std::size_t n = old_lines.size();
  long added_before = 0;
  std::size_t i = 0;
  while (i < ins.size()) {
    std::size_t j = i;  // hunk covers ins[i..j]
    while (j + 1 < ins.size() && ins[j + 1].before <= ins[j].before + 2 * context_lines) ++j;
    const std::size_t start = ins[i].before > context_lines ? ins[i].before - context_lines : 0;
    const std::size_t end = std::min(n, ins[j].before + context_lines);
    std::size_t inserted = 0;
    for (std::size_t k = i; k <= j; ++k) inserted += ins[k].lines.size();
    const std::size_t old_count = end - start;
    const std::size_t new_count = old_count + inserted;
    const auto range = [](std::size_t first, std::size_t count) {
      return std::to_string(count == 0 ? first - 1 : first) + "," + std::to_string(count);
    };
    out += "@@ -" + range(start + 1, old_count) + " +" + range(start + 1 + added_before, new_count) + " @@\n";
    std::size_t k = i;
    for (std::size_t line = start; line <= end; ++line) {
      for (; k <= j && ins[k].before == line; ++k)
        for (const auto& l : ins[k].lines) out += "+" + l + "\n";
      if (line < end) out += " " + old_lines[line] + "\n";
    }
    added_before += static_cast<long>(inserted);
    i = j + 1;
  }
  return out;
}

}  // namespace flakescan::report
