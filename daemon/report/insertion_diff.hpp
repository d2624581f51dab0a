#pragma once
// Unified diff of one file from a list of changes, each inserting lines in front of an old
// line and optionally replacing old lines there: the @FlakyTest patch (flaky_patch.cpp), the
// patches of technique `repair` (insertions only) and the candidate fixes of technique
// `shuffle` (one-line replacements) write their changes with it.
// Paths are written a/<path> and b/<path>, as `git apply` and `patch -p1` read them.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace flakescan::report {

struct Insertion {
  std::size_t before;  // 0-based index of the line the new lines go in front of
  std::vector<std::string> lines;
  std::size_t deleted = 0;  // old lines from `before` on that `lines` replace (0: a pure insertion)
};

inline constexpr int context_lines = 3;

// The changes must not overlap (each deleted range ends at or before the next change's
// `before`); several at the same `before` are written in the order given.
inline std::string diff_file(const std::string& path, const std::vector<std::string>& old_lines, std::vector<Insertion> ins) {
  std::stable_sort(ins.begin(), ins.end(), [](const auto& a, const auto& b) { return a.before < b.before; });
  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  const std::size_t n = old_lines.size();
  long added_before = 0;
  std::size_t i = 0;
  while (i < ins.size()) {
    std::size_t j = i;  // hunk covers ins[i..j]
    std::size_t last_changed = ins[i].before + ins[i].deleted;  // end of the old lines the hunk changes so far
    while (j + 1 < ins.size() && ins[j + 1].before <= last_changed + 2 * context_lines) {
      ++j;
      last_changed = std::max(last_changed, ins[j].before + ins[j].deleted);
    }
    const std::size_t start = ins[i].before > context_lines ? ins[i].before - context_lines : 0;
    const std::size_t end = std::min(n, last_changed + context_lines);
    std::size_t inserted = 0;
    std::size_t deleted = 0;
    for (std::size_t k = i; k <= j; ++k) {
      inserted += ins[k].lines.size();
      deleted += ins[k].deleted;
    }
    const std::size_t old_count = end - start;
    const std::size_t new_count = old_count - deleted + inserted;
    const auto range = [](std::size_t first, std::size_t count) {
      return std::to_string(count == 0 ? first - 1 : first) + "," + std::to_string(count);
    };
    out += "@@ -" + range(start + 1, old_count) + " +" + range(start + 1 + added_before, new_count) + " @@\n";
    std::size_t k = i;
    std::size_t line = start;
    while (line <= end) {
      std::size_t resume = line;  // the first old line after the ones the changes here replace
      for (; k <= j && ins[k].before == line; ++k) {
        for (std::size_t d = ins[k].before; d < ins[k].before + ins[k].deleted && d < n; ++d) out += "-" + old_lines[d] + "\n";
        for (const auto& l : ins[k].lines) out += "+" + l + "\n";
        resume = std::max(resume, ins[k].before + ins[k].deleted);
      }
      if (resume > line) {
        line = resume;
        continue;
      }
      if (line < end) out += " " + old_lines[line] + "\n";
      ++line;
    }
    added_before += static_cast<long>(inserted) - static_cast<long>(deleted);
    i = j + 1;
  }
  return out;
}

}  // namespace flakescan::report
