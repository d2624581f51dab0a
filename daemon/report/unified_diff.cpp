#include "report/unified_diff.hpp"

#include <charconv>
#include <optional>

namespace flakescan::report {

using util::Errc;

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// "a/dir/File.java\t2024-01-01 ..." -> "dir/File.java"; git's "\"a/with space\"" unquoted.
std::string header_path(std::string_view rest) {
  std::string path;
  if (rest.starts_with('"')) {
    for (std::size_t i = 1; i < rest.size() && rest[i] != '"'; ++i) {
      if (rest[i] == '\\' && i + 1 < rest.size()) ++i;
      path += rest[i];
    }
  } else {
    path = std::string(rest.substr(0, rest.find('\t')));
  }
  if (path.starts_with("a/") || path.starts_with("b/")) path.erase(0, 2);
  return path;
}

std::optional<long> number(std::string_view& s) {
  long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || v < 0) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return v;
}

// "-12,3" or "-12" (count 1) after the given sign.
bool range(std::string_view& s, char sign, long& start, long& count) {
  if (!s.starts_with(sign)) return false;
  s.remove_prefix(1);
  auto a = number(s);
  if (!a) return false;
  start = *a;
  count = 1;
  if (s.starts_with(',')) {
    s.remove_prefix(1);
    auto b = number(s);
    if (!b) return false;
    count = *b;
  }
  return true;
}

struct HunkHeader {
  long old_start = 0, old_count = 0, new_start = 0, new_count = 0;
};

std::optional<HunkHeader> hunk_header(std::string_view line) {
  HunkHeader h;
  line.remove_prefix(3);  // "@@ "
  if (!range(line, '-', h.old_start, h.old_count) || !line.starts_with(' ')) return std::nullopt;
  line.remove_prefix(1);
  if (!range(line, '+', h.new_start, h.new_count) || !line.starts_with(" @@")) return std::nullopt;
  return h;
}

}  // namespace

util::Result<std::vector<DiffFile>> parse_unified_diff(std::string_view diff) {
  const auto lines = split_lines(diff);
  std::vector<DiffFile> files;
  std::size_t i = 0;
  while (i < lines.size()) {
    const std::string_view line = lines[i];
    if (line.starts_with("--- ") && i + 1 < lines.size() && lines[i + 1].starts_with("+++ ")) {
      files.push_back({header_path(line.substr(4)), header_path(lines[i + 1].substr(4)), {}});
      i += 2;
      continue;
    }
    if (!line.starts_with("@@ ")) {  // diff --git, index, new file mode, commentary
      ++i;
      continue;
    }
    const std::string where = "diff line " + std::to_string(i + 1);
    if (files.empty()) return util::fail(Errc::malformed, where + ": a hunk before any file header");
    auto h = hunk_header(line);
    if (!h) return util::fail(Errc::malformed, where + ": not a hunk header: " + std::string(line));
    ++i;
    auto& out = files.back().replacements;
    // With a count of 0 the start names the line after which the hunk goes.
    long old_line = h->old_count == 0 ? h->old_start + 1 : h->old_start;
    long old_left = h->old_count, new_left = h->new_count;
    std::optional<DiffReplacement> open;
    char last = ' ';
    auto flush = [&] {
      if (open) out.push_back(std::move(*open));
      open.reset();
    };
    auto no_newline_marker = [&] {
      // "\ No newline at end of file": the line before it has no newline of its own.
      if (last == '+' && open && open->inserted.ends_with('\n')) open->inserted.pop_back();
    };
    while (old_left > 0 || new_left > 0) {
      if (i >= lines.size()) return util::fail(Errc::malformed, where + ": the hunk ends before the lines its header counts");
      const std::string_view l = lines[i];
      const char kind = l.empty() ? ' ' : l[0];  // some tools strip the space of an empty context line
      const std::string_view text = l.empty() ? l : l.substr(1);
      if (kind == '\\') {
        no_newline_marker();
      } else if (kind == ' ') {
        if (old_left == 0 || new_left == 0)
          return util::fail(Errc::malformed, where + ": the hunk has more lines than its header counts");
        flush();
        ++old_line;
        --old_left;
        --new_left;
      } else if (kind == '-') {
        if (old_left == 0) return util::fail(Errc::malformed, where + ": the hunk deletes more lines than its header counts");
        if (!open) open = DiffReplacement{old_line, 0, {}};
        ++open->deleted_lines;
        ++old_line;
        --old_left;
      } else if (kind == '+') {
        if (new_left == 0) return util::fail(Errc::malformed, where + ": the hunk adds more lines than its header counts");
        if (!open) open = DiffReplacement{old_line, 0, {}};
        open->inserted.append(text).push_back('\n');
        --new_left;
      } else {
        return util::fail(Errc::malformed, "diff line " + std::to_string(i + 1) + ": not a hunk line: " + std::string(l));
      }
      if (kind != '\\') last = kind;
      ++i;
    }
    if (i < lines.size() && lines[i].starts_with('\\')) {
      no_newline_marker();
      ++i;
    }
    flush();
  }
  return files;
}

}  // namespace flakescan::report
