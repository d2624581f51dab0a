#include "report/flaky_annotation.hpp"

#include <regex>

namespace flakescan::report {

namespace {

constexpr std::size_t max_regex_line = 2000;

std::string_view package_of(std::string_view type) {
  auto dot = type.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : type.substr(0, dot);
}

std::string_view simple_of(std::string_view type) {
  auto dot = type.rfind('.');
  return dot == std::string_view::npos ? type : type.substr(dot + 1);
}

bool imports_any_of(const SourceFacts& file, std::string_view prefix) {
  for (const auto& i : file.imports)
    if (i.starts_with(prefix)) return true;
  return false;
}

bool on_classpath(const PatchOptions& options, std::string_view type) {
  return options.classpath && options.classpath->known() && options.classpath->has_class(type);
}

bool classpath_known(const PatchOptions& options) { return options.classpath && options.classpath->known(); }

std::string quote_regex(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

// "@Name" or "@a.b.Name" followed by a non-identifier character.
std::regex annotation_re(std::string_view type, std::string_view after) {
  return std::regex("@(" + quote_regex(package_of(type)) + "\\.)?" + quote_regex(simple_of(type)) + "\\b" + std::string(after));
}

}  // namespace

std::vector<std::string> imports_of(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) {
    auto p = l.find_first_not_of(" \t");
    if (p == std::string::npos || l.compare(p, 7, "import ") != 0) continue;
    std::string name = l.substr(p + 7);
    auto b = name.find_first_not_of(" \t");
    if (b == std::string::npos || name.compare(b, 7, "static ") == 0) continue;
    name = name.substr(b);
    // Up to ';', a Kotlin alias ("as X") or a trailing comment.
    auto e = name.find_first_of("; \t/");
    if (e != std::string::npos) name.resize(e);
    if (!name.empty()) out.push_back(std::move(name));
  }
  return out;
}

bool type_visible(const SourceFacts& file, std::string_view type) {
  const std::string_view pkg = package_of(type);
  if (pkg == file.package) return true;
  for (const auto& i : file.imports)
    if (i == type || (i.ends_with(".*") && std::string_view(i).substr(0, i.size() - 2) == pkg)) return true;
  return false;
}

bool simple_name_taken(const SourceFacts& file, std::string_view type) {
  for (const auto& i : file.imports)
    if (i != type && !i.ends_with(".*") && simple_of(i) == simple_of(type)) return true;
  return false;
}

std::optional<FlakyMark> choose_flaky_mark(const SourceFacts& file, const PatchOptions& options, std::string_view backend) {
  if (!options.flaky_annotation.empty()) return FlakyMark::user;
  const bool androidx_imported = type_visible(file, androidx_flaky_test) && file.package != package_of(androidx_flaky_test);
  if (on_classpath(options, androidx_flaky_test) || androidx_imported ||
      ("/" + file.path).find("/androidTest/") != std::string::npos || (!classpath_known(options) && backend == "adb"))
    return FlakyMark::androidx;
  const bool known = classpath_known(options);
  const auto usable = [&](FlakyMark mark) { return !known || on_classpath(options, mark_type(mark, options)); };
  std::optional<FlakyMark> pick;
  if (imports_any_of(file, "org.junit.jupiter.")) pick = FlakyMark::junit5_tag;
  else if (imports_any_of(file, "org.junit.")) pick = FlakyMark::junit4_category;
  else if (!known) pick = FlakyMark::junit4_category;
  else if (usable(FlakyMark::junit5_tag)) pick = FlakyMark::junit5_tag;
  else pick = FlakyMark::junit4_category;
  if (!usable(*pick)) return std::nullopt;
  return pick;
}

std::string mark_type(FlakyMark mark, const PatchOptions& options) {
  switch (mark) {
    case FlakyMark::user: return options.flaky_annotation;
    case FlakyMark::androidx: return std::string(androidx_flaky_test);
    case FlakyMark::junit5_tag: return std::string(jupiter_tag);
    case FlakyMark::junit4_category: return std::string(junit4_category);
  }
  return {};
}

std::string marker_class(const SourceFacts& file, const PatchOptions& options) {
  if (!options.category_class.empty()) return options.category_class;
  return file.package.empty() ? "FlakyTests" : file.package + ".FlakyTests";
}

bool already_marked(const std::vector<std::string>& block, FlakyMark mark, const PatchOptions& options) {
  static const std::regex any_flaky_test(R"(@([A-Za-z_$][\w$]*\.)*FlakyTest\b)");
  static const std::regex flaky_tag(R"re(@(org\.junit\.jupiter\.api\.)?Tag\s*\(\s*(value\s*=\s*)?"flaky"\s*\))re");
  static const std::regex category = annotation_re(junit4_category, "");
  const std::regex user = annotation_re(options.flaky_annotation.empty() ? "FlakyTest" : options.flaky_annotation, "");
  for (const auto& line : block) {
    if (line.size() > max_regex_line) continue;  // std::regex recurses per character
    if (std::regex_search(line, any_flaky_test)) return true;
    switch (mark) {
      case FlakyMark::user:
        if (std::regex_search(line, user)) return true;
        break;
      case FlakyMark::junit5_tag:
        if (std::regex_search(line, flaky_tag)) return true;
        break;
      case FlakyMark::junit4_category:
        if (std::regex_search(line, category)) return true;
        break;
      case FlakyMark::androidx: break;
    }
  }
  return false;
}

}  // namespace flakescan::report
