#include <algorithm>
#include <map>
#include <set>

#include "report/flaky_annotation.hpp"
#include "report/insertion_diff.hpp"
#include "report/report.hpp"
#include "report/text.hpp"

namespace flakescan::report {

namespace {

constexpr std::size_t max_detail_bytes = 400;

// A new file (git apply and patch -p1 both create it from /dev/null).
std::string diff_new_file(const std::string& path, const std::vector<std::string>& lines) {
  std::string out = "--- /dev/null\n+++ b/" + path + "\n@@ -0,0 +1," + std::to_string(lines.size()) + " @@\n";
  for (const auto& l : lines) out += "+" + l + "\n";
  return out;
}

// Where imports go: after the last import, else after the package line (with a blank line),
// else at the top.
Insertion import_insertion(const std::vector<std::string>& lines, const std::vector<std::string>& types, bool kotlin) {
  std::optional<std::size_t> last_import, package_line;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto p = lines[i].find_first_not_of(" \t");
    if (p == std::string::npos) continue;
    if (lines[i].compare(p, 7, "import ") == 0) last_import = i;
    else if (lines[i].compare(p, 8, "package ") == 0 && !package_line) package_line = i;
  }
  std::vector<std::string> stmts;
  for (const auto& t : types) stmts.push_back("import " + t + (kotlin ? "" : ";"));
  if (last_import) return {*last_import + 1, stmts};
  stmts.insert(stmts.begin(), "");
  if (package_line) return {*package_line + 1, stmts};
  stmts.erase(stmts.begin());
  stmts.push_back("");
  return {0, stmts};
}

// The evidence as a line comment. Java reads \uXXXX escapes even in comments (\u000a would
// end the line): every backslash is doubled there, which no escape can start from.
std::string comment_line(const std::string& indent, std::string_view detail, bool kotlin) {
  std::string text;
  for (char c : detail) {
    if (c == '\n' || c == '\r' || c == '\t') text += ' ';
    else if (static_cast<unsigned char>(c) < 0x20) continue;
    else if (c == '\\' && !kotlin) text += "\\\\";
    else text += c;
  }
  return indent + "// flakescan: " + text;
}

std::string simple_of(const std::string& type) {
  auto dot = type.rfind('.');
  return dot == std::string::npos ? type : type.substr(dot + 1);
}

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// Where a new marker interface goes: beside the test when it shares its package, else under
// the test's source root (the test's folder less its package folders).
std::string marker_path(const SourceFacts& file, const std::string& marker) {
  auto dot = marker.rfind('.');
  const std::string pkg = dot == std::string::npos ? "" : marker.substr(0, dot);
  const std::string ext = file.kotlin ? ".kt" : ".java";
  std::string dir = dir_of(file.path);
  if (pkg == file.package) return dir + simple_of(marker) + ext;
  std::string own = file.package, wanted = pkg;
  std::replace(own.begin(), own.end(), '.', '/');
  std::replace(wanted.begin(), wanted.end(), '.', '/');
  if (!own.empty() && dir.ends_with(own + "/")) dir.resize(dir.size() - own.size() - 1);
  return dir + (wanted.empty() ? "" : wanted + "/") + simple_of(marker) + ext;
}

std::vector<std::string> marker_source(const std::string& marker, bool kotlin) {
  auto dot = marker.rfind('.');
  std::vector<std::string> out;
  if (dot != std::string::npos) out = {"package " + marker.substr(0, dot) + (kotlin ? "" : ";"), ""};
  out.push_back("/** JUnit 4 category of the tests flakescan found flaky (run or exclude them with includeCategories / excludeCategories). */");
  if (kotlin) out.push_back("interface " + simple_of(marker));
  else out.insert(out.end(), {"public interface " + simple_of(marker) + " {", "}"});
  return out;
}

std::string package_of_class(const std::string& class_name) {
  const std::string outer = class_name.substr(0, class_name.find('$'));
  auto dot = outer.rfind('.');
  return dot == std::string::npos ? "" : outer.substr(0, dot);
}

}  // namespace

std::string render_flaky_patch(const Report& report, SourceLocator& locator, const PatchOptions& options) {
  // Group the flaky tests found in the sources by file; a parameterised test's variants
  // share one method and get one annotation.
  std::map<std::string, std::vector<const LocatedEntry*>> by_path;
  for (const auto& le : report.entries) {
    if (le.entry.verdict.verdict != core::VerdictKind::flaky) continue;
    if (!le.where || le.where->line == 0 || le.where->has_flaky_test || le.path.empty()) continue;
    by_path[le.path].push_back(&le);
  }
  std::map<std::string, std::string> sections;  // path -> diff, so new files sort among the others
  std::set<std::string> markers_added;
  for (const auto& [path, entries] : by_path) {
    const auto& file = entries.front()->where->file;
    const auto& lines = locator.lines_of(file);
    SourceFacts facts{package_of_class(entries.front()->entry.class_name), path, entries.front()->where->kotlin, imports_of(lines)};
    const auto mark = choose_flaky_mark(facts, options, report.scan.backend);
    if (!mark) continue;
    const std::string type = mark_type(*mark, options);
    const bool qualify = simple_name_taken(facts, type);
    std::vector<std::string> imports;
    if (!qualify && !type_visible(facts, type)) imports.push_back(type);
    const std::string name = "@" + (qualify ? type : simple_of(type));
    std::string arguments;
    const std::string marker = marker_class(facts, options);
    if (*mark == FlakyMark::junit5_tag) arguments = "(\"flaky\")";
    if (*mark == FlakyMark::junit4_category) {
      const bool visible = type_visible(facts, marker), qualify_marker = !visible && simple_name_taken(facts, marker);
      if (!visible && !qualify_marker) imports.push_back(marker);
      arguments = "(" + (qualify_marker ? marker : simple_of(marker)) + (facts.kotlin ? "::class)" : ".class)");
    }

    std::vector<Insertion> ins;
    std::set<int> done;
    for (const auto* le : entries) {
      const auto& w = *le->where;
      if (!done.insert(w.annotation_line).second) continue;
      const std::vector<std::string> block(lines.begin() + (w.annotation_line - 1), lines.begin() + w.line);
      if (already_marked(block, *mark, options)) continue;
      const std::string detail = cut_utf8(evidence_sentence(le->entry.verdict), max_detail_bytes);
      Insertion at{static_cast<std::size_t>(w.annotation_line - 1), {}};
      if (*mark == FlakyMark::androidx) {
        at.lines.push_back(w.indent + name + "(detail = \"" + java_string_escape(detail, facts.kotlin) + "\")");
      } else {
        at.lines.push_back(comment_line(w.indent, detail, facts.kotlin));
        at.lines.push_back(w.indent + name + arguments);
      }
      ins.push_back(std::move(at));
    }
    if (ins.empty()) continue;
    if (!imports.empty()) ins.push_back(import_insertion(lines, imports, facts.kotlin));
    sections[path] = diff_file(path, lines, std::move(ins));

    // The category's marker interface, unless the sources or the classpath already have it.
    if (*mark != FlakyMark::junit4_category || !markers_added.insert(marker).second) continue;
    const bool marker_exists = (options.classpath && options.classpath->known() && options.classpath->has_class(marker)) ||
                               locator.find_file(marker).has_value();
    if (!marker_exists) {
      const std::string new_path = marker_path(facts, marker);
      sections[new_path] = diff_new_file(new_path, marker_source(marker, facts.kotlin));
    }
  }
  std::string out;
  for (const auto& [path, diff] : sections) out += diff;
  return out;
}

}  // namespace flakescan::report
