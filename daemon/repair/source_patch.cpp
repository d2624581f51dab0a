#include "repair/source_patch.hpp"

#include "report/insertion_diff.hpp"
#include "report/source_locator.hpp"

namespace flakescan::repair {

util::Result<MethodPatch> insert_at_method_start(const std::vector<std::string>& lines, const std::string& method,
                                                 const std::string& path, const std::string& comment,
                                                 const std::vector<std::string>& statements) {
  auto where = report::find_method(lines, method, /*kotlin=*/false);
  if (!where || where->line <= 0) return util::fail(util::Errc::not_found, "no method " + method + " in " + path);
  std::size_t brace_line = static_cast<std::size_t>(where->line - 1);
  std::size_t column = std::string::npos;
  for (std::size_t i = brace_line; i < lines.size() && i < brace_line + 20; ++i) {
    column = lines[i].find('{');
    if (column != std::string::npos) {
      brace_line = i;
      break;
    }
  }
  if (column == std::string::npos)
    return util::fail(util::Errc::unsupported, "no opening brace after the declaration of " + method + " in " + path);
  if (lines[brace_line].find_first_not_of(" \t", column + 1) != std::string::npos)
    return util::fail(util::Errc::unsupported, "the body of " + method + " goes on after its brace on one line in " + path);
  const std::string indent = where->indent + "    ";
  std::vector<std::string> added{indent + "// " + comment};
  for (const auto& s : statements) added.push_back(indent + s);
  MethodPatch out;
  out.lines = lines;
  out.lines.insert(out.lines.begin() + static_cast<long>(brace_line + 1), added.begin(), added.end());
  out.diff = report::diff_file(path, lines, {report::Insertion{brace_line + 1, added}});
  return out;
}

}  // namespace flakescan::repair
