#pragma once
// Step 5 of technique `shuffle` (shuffle.hpp): the candidate fixes of one implementation-
// dependent test, the known small repairs of the line where an order the Java API leaves
// unspecified is consumed (DexFix, FlakyDoctor), as edits of that Java file:
//   linked_allocation  the HashMap / HashSet the order comes from made a LinkedHashMap /
//                      LinkedHashSet (also Collectors.toSet / toMap / groupingBy, Guava's
//                      Maps / Sets), one allocation at a time, then all of them at once;
//   as_collection      an assertion on the order compared without it: assertEquals of a
//                      printed collection against its elements, hamcrest contains ->
//                      containsInAnyOrder, AssertJ containsExactly -> containsExactlyInAnyOrder,
//                      Truth .inOrder() dropped, assertIterableEquals as multisets;
//   sorted_copy        what the site reads replaced by a sorted copy (TreeMap, TreeSet, a
//                      sorted list; Class.getX() and File.list() arrays sorted).
// Pure: text in, text out. The candidates are guesses: the caller compiles each with javac
// and keeps only one that passes its runs.
#include <string>
#include <vector>

namespace flakescan::shuffle {

struct FixCandidate {
  std::string kind;                // "linked_allocation", "sorted_copy", "as_collection"
  std::string description;         // one sentence a developer reads: what changes, where, why
  int line = 0;                    // 1-based line of the (first) changed line
  std::vector<std::string> lines;  // the whole patched file
  std::string diff;                // unified diff "--- a/<path>\n+++ b/<path>\n@@ ..." (git apply, patch -p1)
};

// The candidates for the site at `site_line` (1-based) of the file `lines`, where the order of
// `api` is consumed (a label such as "HashMap.entrySet iteration", "Class.getDeclaredFields";
// its first word names the family). `path` names the file in the diffs. Smallest first, in
// the order: linked allocations (those in the site's method first, then field initialisers,
// then the rest of the file; within each, the ones assigned to a name the site line uses
// first, then the nearest), assertions compared as collections, sorted copies, all
// allocations at once. At most 12, no two with the same patched file; none when nothing on
// the site line or in the file matches, or `site_line` is not a line of the file.
// Deterministic: the same input gives the same list.
std::vector<FixCandidate> fix_candidates(const std::vector<std::string>& lines, int site_line, const std::string& api,
                                         const std::string& path);

}  // namespace flakescan::shuffle
