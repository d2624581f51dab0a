#include <algorithm>
#include <map>
#include <set>

#include "report/report.hpp"
#include "report/text.hpp"

namespace flakescan::report {

namespace {

constexpr int context_lines = 3;
constexpr std::size_t max_detail_bytes = 400;
const std::string flaky_import = "androidx.test.filters.FlakyTest";

struct Insertion {
  std::size_t before;  // 0-based index of the line the new lines go in front of
  std::vector<std::string> lines;
};

// Unified diff of one file where lines are only inserted.
std::string diff_file(const std::string& path, const std::vector<std::string>& old_lines, std::vector<Insertion> ins) {
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

bool imports_other_flaky_test(const std::vector<std::string>& lines, bool& has_ours) {
  bool other = false;
  for (const auto& l : lines) {
    auto p = l.find_first_not_of(" \t");
    if (p == std::string::npos || l.compare(p, 7, "import ") != 0) continue;
    std::string name = l.substr(p + 7);
    while (!name.empty() && (name.back() == ';' || name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name == flaky_import) has_ours = true;
    else if (name.ends_with(".FlakyTest")) other = true;
  }
  return other;
}

// Where the import goes: after the last import, else after the package line (with a blank
// line), else at the top.
Insertion import_insertion(const std::vector<std::string>& lines, bool kotlin) {
  std::optional<std::size_t> last_import, package_line;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto p = lines[i].find_first_not_of(" \t");
    if (p == std::string::npos) continue;
    if (lines[i].compare(p, 7, "import ") == 0) last_import = i;
    else if (lines[i].compare(p, 8, "package ") == 0 && !package_line) package_line = i;
  }
  const std::string stmt = "import " + flaky_import + (kotlin ? "" : ";");
  if (last_import) return {*last_import + 1, {stmt}};
  if (package_line) return {*package_line + 1, {"", stmt}};
  return {0, {stmt, ""}};
}

}  // namespace

std::string render_flaky_patch(const Report& report, SourceLocator& locator) {
  // Group the flaky tests found in the sources by file; a parameterised test's variants
  // share one method and get one annotation.
  std::map<std::string, std::vector<const LocatedEntry*>> by_path;
  for (const auto& le : report.entries) {
    if (le.entry.verdict.verdict != core::VerdictKind::flaky) continue;
    if (!le.where || le.where->line == 0 || le.where->has_flaky_test || le.path.empty()) continue;
    by_path[le.path].push_back(&le);
  }
  std::string out;
  for (const auto& [path, entries] : by_path) {
    const auto& file = entries.front()->where->file;
    const bool kotlin = entries.front()->where->kotlin;
    const auto& lines = locator.lines_of(file);
    bool has_ours = false;
    const bool qualify = imports_other_flaky_test(lines, has_ours);
    std::vector<Insertion> ins;
    std::set<int> done;
    for (const auto* le : entries) {
      const auto& w = *le->where;
      if (!done.insert(w.annotation_line).second) continue;
      const std::string detail = cut_utf8(evidence_sentence(le->entry.verdict), max_detail_bytes);
      const std::string name = qualify ? "@" + flaky_import : "@FlakyTest";
      ins.push_back({static_cast<std::size_t>(w.annotation_line - 1),
                     {w.indent + name + "(detail = \"" + java_string_escape(detail, kotlin) + "\")"}});
    }
    if (ins.empty()) continue;
    if (!qualify && !has_ours) ins.push_back(import_insertion(lines, kotlin));
    out += diff_file(path, lines, std::move(ins));
  }
  return out;
}

}  // namespace flakescan::report
