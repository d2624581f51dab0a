// report/insertion_diff.hpp with replacements (Insertion::deleted), as the candidate fixes of
// technique `shuffle` write them: the hunk headers by hand, and every diff applied with
// git apply and patch -p1 to the file it was made from.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "report/insertion_diff.hpp"

using flakescan::report::diff_file;
using flakescan::report::Insertion;
namespace fs = std::filesystem;

namespace {

using Work = flakescan::test_support::ScratchDir;
using flakescan::test_support::joined_lines;
using flakescan::test_support::read_text_file;
using flakescan::test_support::write_text_file;

std::vector<std::string> numbered(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back("l" + std::to_string(i));
  return out;
}

// The new file the changes make (what the diff must turn the old one into).
std::vector<std::string> changed(const std::vector<std::string>& old_lines, std::vector<Insertion> ins) {
  std::stable_sort(ins.begin(), ins.end(), [](const auto& a, const auto& b) { return a.before < b.before; });
  std::vector<std::string> out;
  std::size_t k = 0;
  for (std::size_t i = 0; i <= old_lines.size(); ++i) {
    std::size_t skip_to = i;
    for (; k < ins.size() && ins[k].before == i; ++k) {
      out.insert(out.end(), ins[k].lines.begin(), ins[k].lines.end());
      skip_to = std::max(skip_to, ins[k].before + ins[k].deleted);
    }
    if (skip_to > i) {
      i = skip_to - 1;
      continue;
    }
    if (i < old_lines.size()) out.push_back(old_lines[i]);
  }
  return out;
}





// The diff applies with both tools and gives the changed file.
void check_applies(const std::string& name, const std::vector<std::string>& old_lines, const std::vector<Insertion>& ins) {
  const std::string path = "src/F.java";
  const std::string diff = diff_file(path, old_lines, ins);
  INFO(diff);
  for (const std::string tool : {"git apply -p1 fix.patch", "patch -s -p1 < fix.patch"}) {
    Work work("insertion-diff-" + name);
    write_text_file(work.dir / path, joined_lines(old_lines));
    write_text_file(work.dir / "fix.patch", diff);
    INFO(tool);
    REQUIRE(work.run(tool) == 0);
    CHECK(read_text_file(work.dir / path) == joined_lines(changed(old_lines, ins)));
  }
}

}  // namespace

TEST_CASE("diff_file: pure insertions are written as before", "[shuffle][diff]") {
  // the output the insertion-only writer gave, kept byte for byte
  CHECK(diff_file("F.java", numbered(10), {Insertion{4, {"+a", "+b"}}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -2,6 +2,8 @@\n l2\n l3\n l4\n++a\n++b\n l5\n l6\n l7\n");
  CHECK(diff_file("F.java", numbered(2), {Insertion{0, {"x"}}}) == "--- a/F.java\n+++ b/F.java\n@@ -1,2 +1,3 @@\n+x\n l1\n l2\n");
  CHECK(diff_file("F.java", numbered(2), {Insertion{2, {"x"}}}) == "--- a/F.java\n+++ b/F.java\n@@ -1,2 +1,3 @@\n l1\n l2\n+x\n");
  CHECK(diff_file("F.java", {}, {Insertion{0, {"x"}}}) == "--- a/F.java\n+++ b/F.java\n@@ -0,0 +1,1 @@\n+x\n");
  CHECK(diff_file("F.java", numbered(20), {Insertion{2, {"x"}}, Insertion{15, {"y"}}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -1,5 +1,6 @@\n l1\n l2\n+x\n l3\n l4\n l5\n"
        "@@ -13,6 +14,7 @@\n l13\n l14\n l15\n+y\n l16\n l17\n l18\n");
}

TEST_CASE("diff_file: one line replaced", "[shuffle][diff]") {
  CHECK(diff_file("F.java", numbered(10), {Insertion{4, {"L5"}, 1}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n");
  // the first line and the last
  CHECK(diff_file("F.java", numbered(10), {Insertion{0, {"L1"}, 1}}) == "--- a/F.java\n+++ b/F.java\n@@ -1,4 +1,4 @@\n-l1\n+L1\n l2\n l3\n l4\n");
  CHECK(diff_file("F.java", numbered(10), {Insertion{9, {"L10"}, 1}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -7,4 +7,4 @@\n l7\n l8\n l9\n-l10\n+L10\n");
  CHECK(diff_file("F.java", {"only"}, {Insertion{0, {"ONLY"}, 1}}) == "--- a/F.java\n+++ b/F.java\n@@ -1,1 +1,1 @@\n-only\n+ONLY\n");
}

TEST_CASE("diff_file: replacements near each other share a hunk, far apart they do not", "[shuffle][diff]") {
  // lines 4 and 10 (0-based 3 and 9): 5 lines between, within 2 x 3 of context
  CHECK(diff_file("F.java", numbered(14), {Insertion{9, {"L10"}, 1}, Insertion{3, {"L4"}, 1}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -1,13 +1,13 @@\n l1\n l2\n l3\n-l4\n+L4\n l5\n l6\n l7\n l8\n l9\n-l10\n+L10\n l11\n l12\n l13\n");
  // lines 2 and 20: two hunks; the second starts where the first left the new file
  CHECK(diff_file("F.java", numbered(24), {Insertion{1, {"L2a", "L2b"}, 1}, Insertion{19, {}, 1}}) ==
        "--- a/F.java\n+++ b/F.java\n"
        "@@ -1,5 +1,6 @@\n l1\n-l2\n+L2a\n+L2b\n l3\n l4\n l5\n"
        "@@ -17,7 +18,6 @@\n l17\n l18\n l19\n-l20\n l21\n l22\n l23\n");
}

TEST_CASE("diff_file: several lines replaced, deleted, and mixed with insertions", "[shuffle][diff]") {
  CHECK(diff_file("F.java", numbered(8), {Insertion{2, {"X"}, 3}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -1,8 +1,6 @@\n l1\n l2\n-l3\n-l4\n-l5\n+X\n l6\n l7\n l8\n");
  CHECK(diff_file("F.java", numbered(3), {Insertion{0, {}, 3}}) == "--- a/F.java\n+++ b/F.java\n@@ -1,3 +0,0 @@\n-l1\n-l2\n-l3\n");
  // an insertion in front of line 3, then line 3 replaced, at the same place, in the order given
  CHECK(diff_file("F.java", numbered(4), {Insertion{2, {"new"}}, Insertion{2, {"L3"}, 1}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -1,4 +1,5 @@\n l1\n l2\n+new\n-l3\n+L3\n l4\n");
  // adjacent replacements
  CHECK(diff_file("F.java", numbered(5), {Insertion{1, {"L2"}, 1}, Insertion{2, {"L3"}, 1}}) ==
        "--- a/F.java\n+++ b/F.java\n@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n-l3\n+L3\n l4\n l5\n");
}

TEST_CASE("diff_file: replacement diffs apply with git apply and patch -p1", "[shuffle][diff]") {
  const auto lines = numbered(30);
  check_applies("one", lines, {Insertion{4, {"L5"}, 1}});
  check_applies("first-last", lines, {Insertion{0, {"L1"}, 1}, Insertion{29, {"L30"}, 1}});
  check_applies("near", lines, {Insertion{9, {"L10"}, 1}, Insertion{3, {"L4"}, 1}, Insertion{12, {"L13", "L13b"}, 1}});
  check_applies("far", lines, {Insertion{1, {"L2a", "L2b"}, 1}, Insertion{19, {}, 1}, Insertion{25, {"new"}}});
  check_applies("block", lines, {Insertion{10, {"X"}, 5}, Insertion{16, {"Y", "Z"}, 0}});
  check_applies("insert-then-replace", lines, {Insertion{2, {"new"}}, Insertion{2, {"L3"}, 1}});
  check_applies("all", numbered(3), {Insertion{0, {}, 3}});
}
