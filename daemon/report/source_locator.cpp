#include "report/source_locator.hpp"

#include <fstream>
#include <regex>
#include <sstream>

namespace flakescan::report {

namespace fs = std::filesystem;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = nl + 1;
  }
  return lines;
}

namespace {

constexpr std::size_t max_regex_line = 2000;

std::string bare_method(const std::string& method) {
  auto cut = method.find_first_of("[(");
  return cut == std::string::npos ? method : method.substr(0, cut);
}

std::string leading_ws(const std::string& line) {
  auto n = line.find_first_not_of(" \t");
  return n == std::string::npos ? line : line.substr(0, n);
}

bool continues_block(const std::string& line) {
  auto b = line.find_first_not_of(" \t");
  if (b == std::string::npos) return false;
  auto e = line.find_last_not_of(" \t");
  const char last = line[e];
  if (last == ';' || last == '{' || last == '}') return false;
  const std::string_view t(line.data() + b, e - b + 1);
  return !(t.starts_with("//") || t.starts_with("/*") || t.starts_with("*"));
}

bool mentions_flaky_test(const std::string& line) {
  if (line.size() > max_regex_line) return false;
  static const std::regex re(R"(@([A-Za-z_$][\w$]*\.)*FlakyTest\b)");
  return std::regex_search(line, re);
}

std::string outer_class(const std::string& class_name) {
  auto dollar = class_name.find('$');
  return dollar == std::string::npos ? class_name : class_name.substr(0, dollar);
}

std::string relative_stem(const std::string& class_name) {
  std::string stem = outer_class(class_name);
  for (auto& c : stem)
    if (c == '.') c = '/';
  return stem;
}

}  // namespace

std::optional<SourceLocation> find_method(const std::vector<std::string>& lines, const std::string& method, bool kotlin) {
  const std::string name = bare_method(method);
  if (name.empty()) return std::nullopt;
  std::string quoted;
  for (char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) quoted += '\\';
    quoted += c;
  }
  // Java: "... void name(" (any modifiers/annotations before); Kotlin: "fun name(" or
  // "fun `name with spaces`(".
  const std::regex java_re("\\b(void|[A-Za-z_$][\\w$<>,\\[\\]? ]*)\\s+" + quoted + "\\s*\\(");
  const std::regex kotlin_re("\\bfun\\s+(`" + quoted + "`|" + quoted + ")\\s*\\(");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    // std::regex recurses per character; generated giant lines are no declarations anyway.
    if (line.size() > max_regex_line || line.find(name) == std::string::npos) continue;
    bool hit = kotlin ? std::regex_search(line, kotlin_re) : std::regex_search(line, java_re);
    if (!hit) continue;
    // Skip calls: a Java declaration line does not start with the name followed by '('
    // after "return"/"=" and does not end in ';'.
    if (!kotlin) {
      auto trimmed_end = line.find_last_not_of(" \t");
      if (trimmed_end != std::string::npos && line[trimmed_end] == ';') continue;
      if (line.find("return ") != std::string::npos || line.find('=') != std::string::npos) continue;
    }
    SourceLocation loc;
    loc.line = static_cast<int>(i) + 1;
    loc.kotlin = kotlin;
    // The declaration may open with its annotations on the same line: indent from it.
    loc.indent = leading_ws(line);
    loc.has_flaky_test = mentions_flaky_test(line);
    // Walk up over the annotation block, including multi-line annotation arguments: it
    // ends at a blank line, a comment, or the end of the previous member (; { }).
    std::size_t first = i;
    while (first > 0 && continues_block(lines[first - 1])) {
      --first;
      if (mentions_flaky_test(lines[first])) loc.has_flaky_test = true;
    }
    loc.annotation_line = static_cast<int>(first) + 1;
    return loc;
  }
  return std::nullopt;
}

std::optional<fs::path> SourceLocator::find_file(const std::string& class_name) {
  if (auto it = files_.find(class_name); it != files_.end()) return it->second;
  const std::string stem = relative_stem(class_name);
  std::optional<fs::path> found;
  for (const auto& root : roots_) {
    for (const char* ext : {".java", ".kt"}) {
      fs::path candidate = root / (stem + ext);
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) {
        found = candidate;
        break;
      }
    }
    if (found) break;
  }
  if (!found) {
    const std::string suffix_java = "/" + stem + ".java", suffix_kt = "/" + stem + ".kt";
    std::size_t seen = 0;
    for (const auto& root : roots_) {
      std::error_code ec;
      fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
      for (; !ec && it != end && seen < max_walk_entries_; it.increment(ec), ++seen) {
        const auto name = it->path().filename().string();
        if (name == ".git" || name == "build" || name == ".gradle" || name == "node_modules") {
          it.disable_recursion_pending();
          continue;
        }
        const auto p = "/" + it->path().generic_string();
        if (p.ends_with(suffix_java) || p.ends_with(suffix_kt)) {
          found = it->path();
          break;
        }
      }
      if (found) break;
    }
  }
  files_[class_name] = found;
  return found;
}

const std::vector<std::string>& SourceLocator::lines_of(const fs::path& file) {
  auto it = texts_.find(file);
  if (it != texts_.end()) return it->second;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return texts_[file] = split_lines(buf.str());
}

std::optional<SourceLocation> SourceLocator::locate(const std::string& class_name, const std::string& method) {
  auto file = find_file(class_name);
  if (!file) return std::nullopt;
  const bool kotlin = file->extension() == ".kt";
  auto loc = find_method(lines_of(*file), method, kotlin);
  if (!loc) {
    SourceLocation whole;  // the file is known, the method is not (inherited, generated)
    whole.file = *file;
    whole.kotlin = kotlin;
    return whole;
  }
  loc->file = *file;
  return loc;
}

}  // namespace flakescan::report
