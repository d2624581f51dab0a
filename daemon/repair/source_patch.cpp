#include "repair/source_patch.hpp"

#include <cctype>

#include "report/insertion_diff.hpp"
#include "report/source_locator.hpp"

namespace flakescan::repair {

namespace {

// The line of the first '{' at or after `from` (within 20 lines), which must end its line.
util::Result<std::size_t> body_opening(const std::vector<std::string>& lines, std::size_t from, const std::string& what,
                                       const std::string& path) {
  for (std::size_t i = from; i < lines.size() && i < from + 20; ++i) {
    auto column = lines[i].find('{');
    if (column == std::string::npos) continue;
    if (lines[i].find_first_not_of(" \t", column + 1) != std::string::npos)
      return util::fail(util::Errc::unsupported, "the body of " + what + " goes on after its brace on one line in " + path);
    return i;
  }
  return util::fail(util::Errc::unsupported, "no opening brace after the declaration of " + what + " in " + path);
}

MethodPatch insert_after(const std::vector<std::string>& lines, std::size_t line, const std::string& path,
                         std::vector<std::string> added) {
  MethodPatch out;
  out.lines = lines;
  out.lines.insert(out.lines.begin() + static_cast<long>(line + 1), added.begin(), added.end());
  out.diff = report::diff_file(path, lines, {report::Insertion{line + 1, std::move(added)}});
  return out;
}

std::string leading_space(const std::string& line) { return line.substr(0, line.find_first_not_of(" \t")); }

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

}  // namespace

util::Result<MethodPatch> insert_at_method_start(const std::vector<std::string>& lines, const std::string& method,
                                                 const std::string& path, const std::string& comment,
                                                 const std::vector<std::string>& statements) {
  auto where = report::find_method(lines, method, /*kotlin=*/false);
  if (!where || where->line <= 0) return util::fail(util::Errc::not_found, "no method " + method + " in " + path);
  auto brace = body_opening(lines, static_cast<std::size_t>(where->line - 1), method, path);
  if (!brace) return std::unexpected(brace.error());
  const std::string indent = where->indent + "    ";
  std::vector<std::string> added{indent + "// " + comment};
  for (const auto& s : statements) added.push_back(indent + s);
  return insert_after(lines, *brace, path, std::move(added));
}

util::Result<MethodPatch> insert_at_class_start(const std::vector<std::string>& lines, const std::string& class_name,
                                                const std::string& path, const std::string& comment,
                                                const std::vector<std::string>& statements) {
  const std::string simple = class_name.substr(class_name.find_last_of(".$") == std::string::npos ? 0 : class_name.find_last_of(".$") + 1);
  const std::string word = "class " + simple;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto at = lines[i].find(word);
    if (at == std::string::npos) continue;
    const std::string first = lines[i].substr(leading_space(lines[i]).size(), 2);
    if (first == "//" || first.starts_with("*") || first == "/*") continue;  // prose about the class
    const std::size_t end = at + word.size();
    if ((at > 0 && is_word_char(lines[i][at - 1])) || (end < lines[i].size() && is_word_char(lines[i][end]))) continue;
    auto brace = body_opening(lines, i, "class " + simple, path);
    if (!brace) return std::unexpected(brace.error());
    const std::string indent = leading_space(lines[i]) + "    ";
    std::vector<std::string> added{indent + "{", indent + "    // " + comment};
    for (const auto& s : statements) added.push_back(indent + "    " + s);
    added.push_back(indent + "}");
    return insert_after(lines, *brace, path, std::move(added));
  }
  return util::fail(util::Errc::not_found, "no declaration of class " + simple + " in " + path);
}

}  // namespace flakescan::repair
