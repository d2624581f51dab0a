#include "shuffle/java_expression.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace flakescan::shuffle {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

std::size_t skip_space_back(std::string_view s, std::size_t p) {
  while (p > 0 && is_space(s[p - 1])) --p;
  return p;
}

std::size_t skip_space_forward(std::string_view s, std::size_t p) {
  while (p < s.size() && is_space(s[p])) ++p;
  return p;
}

// The start of the identifier that ends at `end` (exclusive).
std::size_t word_start(std::string_view s, std::size_t end) {
  while (end > 0 && is_identifier_char(s[end - 1])) --end;
  return end;
}

std::size_t word_end(std::string_view s, std::size_t start) {
  while (start < s.size() && is_identifier_char(s[start])) ++start;
  return start;
}

// Characters a type argument list (<String, List<? extends Foo>[]>) can hold.
bool is_type_argument_char(char c) {
  return is_identifier_char(c) || is_space(c) || c == ',' || c == '.' || c == '?' || c == '[' || c == ']' || c == '@' ||
         c == '<' || c == '>';
}

// Keywords a primary expression may hold as one of its names.
bool is_name_keyword(std::string_view word) { return word == "this" || word == "super" || word == "class"; }

bool is_primitive(std::string_view word) {
  static constexpr std::array<std::string_view, 8> primitives{"boolean", "byte", "char", "short", "int", "long", "float", "double"};
  return std::find(primitives.begin(), primitives.end(), word) != primitives.end();
}

std::optional<std::size_t> matching_close_angle(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (!is_type_argument_char(c)) return std::nullopt;
    if (c == '<') ++depth;
    if (c == '>' && --depth == 0) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> matching_open_angle(std::string_view s, std::size_t close) {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    const char c = s[i];
    if (!is_type_argument_char(c)) return std::nullopt;
    if (c == '>') ++depth;
    if (c == '<' && --depth == 0) return i;
  }
  return std::nullopt;
}

// Foo.<T>bar(): the type arguments of a generic method call go between the dot and the name;
// the start of the name with them, when they are there.
std::size_t with_method_type_arguments(std::string_view s, std::size_t name) {
  const std::size_t q = skip_space_back(s, name);
  if (q == 0 || s[q - 1] != '>') return name;
  auto lt = matching_open_angle(s, q - 1);
  if (!lt) return name;
  const std::size_t before = skip_space_back(s, *lt);
  return before > 0 && s[before - 1] == '.' ? *lt : name;
}

char closing_of(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }
char opening_of(char close) { return close == ')' ? '(' : close == ']' ? '[' : '{'; }

// The text of the string or char literal that ends at `end` - 1 (its closing quote): on a
// masked line the literal holds no other quote.
std::optional<std::size_t> literal_start(std::string_view s, std::size_t closing_quote) {
  if (closing_quote == 0) return std::nullopt;
  auto at = s.rfind(s[closing_quote], closing_quote - 1);
  if (at == std::string_view::npos) return std::nullopt;
  return at;
}

}  // namespace

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}

bool is_java_keyword(std::string_view word) {
  static constexpr std::array<std::string_view, 53> keywords{
      "abstract", "assert",    "boolean",    "break",      "byte",   "case",      "catch",     "char",     "class",
      "const",    "continue",  "default",    "do",         "double", "else",      "enum",      "extends",  "final",
      "finally",  "float",     "for",        "goto",       "if",     "implements", "import",   "instanceof", "int",
      "interface", "long",     "native",     "new",        "package", "private",  "protected", "public",   "return",
      "short",    "static",    "strictfp",   "super",      "switch", "synchronized", "this",   "throw",    "throws",
      "transient", "try",      "void",       "volatile",   "while",  "true",      "false",     "null"};
  return std::find(keywords.begin(), keywords.end(), word) != keywords.end() || word == "yield" || word == "var";
}

std::vector<std::string> mask_java(const std::vector<std::string>& lines) {
  std::vector<std::string> out = lines;
  enum class State { code, block_comment, text_block } state = State::code;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& s = lines[i];
    std::string& m = out[i];
    std::size_t j = 0;
    while (j < s.size()) {
      if (state == State::block_comment) {
        if (s.compare(j, 2, "*/") == 0) {
          m[j] = m[j + 1] = ' ';
          j += 2;
          state = State::code;
        } else {
          m[j++] = ' ';
        }
        continue;
      }
      if (state == State::text_block) {
        if (s.compare(j, 3, "\"\"\"") == 0) {
          j += 3;
          state = State::code;
        } else if (s[j] == '\\' && j + 1 < s.size()) {
          m[j] = m[j + 1] = ' ';
          j += 2;
        } else {
          m[j++] = ' ';
        }
        continue;
      }
      if (s.compare(j, 2, "//") == 0) {
        std::fill(m.begin() + static_cast<long>(j), m.end(), ' ');
        break;
      }
      if (s.compare(j, 2, "/*") == 0) {
        m[j] = m[j + 1] = ' ';
        j += 2;
        state = State::block_comment;
        continue;
      }
      if (s.compare(j, 3, "\"\"\"") == 0) {
        j += 3;
        state = State::text_block;
        continue;
      }
      if (s[j] == '"' || s[j] == '\'') {
        const char quote = s[j++];
        while (j < s.size() && s[j] != quote) {
          if (s[j] == '\\' && j + 1 < s.size()) m[j++] = ' ';
          m[j++] = ' ';
        }
        if (j < s.size()) ++j;  // the closing quote stays
        continue;
      }
      ++j;
    }
  }
  return out;
}

std::optional<std::size_t> matching_close(std::string_view s, std::size_t open) {
  if (open >= s.size()) return std::nullopt;
  if (s[open] == '<') return matching_close_angle(s, open);
  std::string stack;
  for (std::size_t i = open; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{') stack.push_back(closing_of(c));
    if (c == ')' || c == ']' || c == '}') {
      if (stack.empty() || stack.back() != c) return std::nullopt;
      stack.pop_back();
      if (stack.empty()) return i;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> matching_open(std::string_view s, std::size_t close) {
  if (close >= s.size()) return std::nullopt;
  if (s[close] == '>') return matching_open_angle(s, close);
  std::string stack;
  for (std::size_t i = close + 1; i-- > 0;) {
    const char c = s[i];
    if (c == ')' || c == ']' || c == '}') stack.push_back(opening_of(c));
    if (c == '(' || c == '[' || c == '{') {
      if (stack.empty() || stack.back() != c) return std::nullopt;
      stack.pop_back();
      if (stack.empty()) return i;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> primary_start(std::string_view s, std::size_t end) {
  std::size_t p = skip_space_back(s, std::min(end, s.size()));
  std::optional<std::size_t> start;
  bool need_segment = true;  // at the start, and after a '.' or before an index
  while (p > 0) {
    const char c = s[p - 1];
    std::size_t segment;
    bool chain_may_go_on = true;  // a literal or a parenthesised group ends the chain
    if (c == ')') {
      auto open = matching_open(s, p - 1);
      if (!open) return std::nullopt;
      std::size_t q = skip_space_back(s, *open);
      std::size_t name_end = q;
      if (q > 0 && s[q - 1] == '>') {  // new Foo<Bar>(...)
        auto lt = matching_open_angle(s, q - 1);
        if (lt) name_end = skip_space_back(s, *lt);
      }
      const std::size_t w = word_start(s, name_end);
      if (w < name_end && !(is_java_keyword(s.substr(w, name_end - w)) && !is_name_keyword(s.substr(w, name_end - w)))) {
        segment = with_method_type_arguments(s, w);  // a call, or the class of a `new`
      } else {
        segment = *open;  // (expression) or ((Cast) x)
        chain_may_go_on = false;
      }
    } else if (c == ']') {
      auto open = matching_open(s, p - 1);
      if (!open) return std::nullopt;
      p = *open;  // the array expression comes before it
      need_segment = true;
      continue;
    } else if (is_identifier_char(c)) {
      const std::size_t w = word_start(s, p);
      const std::string_view word = s.substr(w, p - w);
      if (std::isdigit(static_cast<unsigned char>(word.front()))) return std::nullopt;
      if (is_java_keyword(word) && !is_name_keyword(word)) break;
      segment = with_method_type_arguments(s, w);
    } else if (c == '"' || c == '\'') {
      auto open = literal_start(s, p - 1);
      if (!open) return std::nullopt;
      segment = *open;
      chain_may_go_on = false;
    } else {
      break;
    }
    start = segment;
    need_segment = false;
    p = segment;
    if (!chain_may_go_on) break;
    const std::size_t q = skip_space_back(s, p);
    if (q > 0 && s[q - 1] == '.' && !(q > 1 && s[q - 2] == '.')) {
      p = q - 1;
      need_segment = true;
      continue;
    }
    // `new` in front of the class name makes the creation one primary (outer.new Inner() too).
    const std::size_t w = word_start(s, q);
    if (s.substr(w, q - w) != "new") break;
    start = w;
    const std::size_t before_new = skip_space_back(s, w);
    if (before_new == 0 || s[before_new - 1] != '.') break;
    p = before_new - 1;
    need_segment = true;
  }
  if (need_segment || !start) return std::nullopt;
  return start;
}

std::optional<std::size_t> primary_end(std::string_view s, std::size_t from) {
  std::size_t p = skip_space_forward(s, from);
  if (p >= s.size()) return std::nullopt;
  bool after_name = false;
  if (s[p] == '"' || s[p] == '\'') {
    auto close = s.find(s[p], p + 1);
    if (close == std::string_view::npos) return std::nullopt;
    p = close + 1;
  } else if (s[p] == '(') {
    auto close = matching_close(s, p);
    if (!close) return std::nullopt;
    p = *close + 1;
    const std::size_t q = skip_space_forward(s, p);
    if (q < s.size() && (is_identifier_char(s[q]) || s[q] == '(' || s[q] == '"')) return std::nullopt;  // a cast
  } else if (is_identifier_char(s[p])) {
    const std::size_t e = word_end(s, p);
    const std::string_view word = s.substr(p, e - p);
    if (std::isdigit(static_cast<unsigned char>(word.front()))) return std::nullopt;
    if (word == "new") {
      std::size_t q = skip_space_forward(s, e);
      // the class: a dotted name, maybe with type arguments, then (...) and maybe a body
      while (q < s.size() && is_identifier_char(s[q])) {
        q = skip_space_forward(s, word_end(s, q));
        if (q < s.size() && s[q] == '<') {
          auto gt = matching_close_angle(s, q);
          if (!gt) return std::nullopt;
          q = skip_space_forward(s, *gt + 1);
        }
        if (q < s.size() && s[q] == '.') q = skip_space_forward(s, q + 1);
        else break;
      }
      if (q >= s.size() || (s[q] != '(' && s[q] != '[')) return std::nullopt;
      while (q < s.size() && (s[q] == '(' || s[q] == '[' || s[q] == '{')) {
        auto close = matching_close(s, q);
        if (!close) return std::nullopt;
        const bool body = s[q] == '(' || s[q] == '{';
        q = *close + 1;
        const std::size_t r = skip_space_forward(s, q);
        if (body && r < s.size() && s[r] == '{') q = r;
      }
      p = q;
    } else {
      if (is_java_keyword(word) && !is_name_keyword(word)) return std::nullopt;
      p = e;
      after_name = true;
    }
  } else {
    return std::nullopt;
  }
  while (p < s.size()) {
    const std::size_t q = skip_space_forward(s, p);
    if (q >= s.size()) break;
    if (s[q] == '(' && after_name) {
      auto close = matching_close(s, q);
      if (!close) return std::nullopt;
      p = *close + 1;
      after_name = false;
    } else if (s[q] == '[') {
      auto close = matching_close(s, q);
      if (!close) return std::nullopt;
      p = *close + 1;
      after_name = false;
    } else if (s[q] == '.' && q + 1 < s.size() && s[q + 1] != '.') {
      std::size_t r = skip_space_forward(s, q + 1);
      if (r < s.size() && s[r] == '<') {  // .<T>call()
        auto gt = matching_close_angle(s, r);
        if (!gt) break;
        r = skip_space_forward(s, *gt + 1);
      }
      if (r >= s.size() || !is_identifier_char(s[r])) break;
      p = word_end(s, r);
      after_name = true;
    } else {
      break;
    }
  }
  return p;
}

std::vector<Span> split_arguments(std::string_view s, std::size_t begin, std::size_t end) {
  std::vector<Span> out;
  end = std::min(end, s.size());
  if (begin >= end || skip_space_forward(s.substr(0, end), begin) >= end) return out;
  int depth = 0;
  std::size_t piece = begin;
  const auto push = [&](std::size_t to) {
    const std::size_t b = skip_space_forward(s, piece);
    const std::size_t e = std::max(b, skip_space_back(s, to));
    out.push_back({b, e});
  };
  for (std::size_t i = begin; i < end; ++i) {
    const char c = s[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == '<') {
      // type arguments (new HashMap<String, Integer>()) hold commas that split nothing
      const std::size_t q = skip_space_back(s, i);
      if (q > 0 && (is_identifier_char(s[q - 1]) || s[q - 1] == '.')) {
        auto gt = matching_close_angle(s.substr(0, end), i);
        if (gt) i = *gt;
      }
    } else if (c == ',' && depth == 0) {
      push(i);
      piece = i + 1;
    }
  }
  push(end);
  return out;
}

bool Call::no_arguments(std::string_view masked) const {
  return skip_space_forward(masked.substr(0, close), open + 1) == close;
}

std::vector<Call> find_calls(std::string_view masked, std::string_view name) {
  std::vector<Call> out;
  for (const std::size_t at : find_word(masked, name)) {
    Call c;
    c.name = {at, at + name.size()};
    c.open = skip_space_forward(masked, c.name.end);
    if (c.open >= masked.size() || masked[c.open] != '(') continue;
    auto close = matching_close(masked, c.open);
    if (!close) continue;
    c.close = *close;
    const std::size_t before = skip_space_back(masked, at);
    if (before > 0 && masked[before - 1] == ':') continue;  // a method reference
    if (before > 0 && masked[before - 1] == '.') {
      c.dot = before - 1;
      c.receiver_begin = primary_start(masked, before - 1);
    } else {
      const std::size_t w = word_start(masked, before);
      if (masked.substr(w, before - w) == "new") continue;  // a constructor, not a call
    }
    out.push_back(c);
  }
  return out;
}

std::optional<Span> receiver_of(std::string_view masked, const Call& call) {
  if (!call.receiver_begin || !call.dot) return std::nullopt;
  const std::size_t end = skip_space_back(masked, *call.dot);
  if (end <= *call.receiver_begin) return std::nullopt;
  return Span{*call.receiver_begin, end};
}

bool is_qualified_name(std::string_view text, std::string_view simple) {
  const std::size_t b = skip_space_forward(text, 0);
  const std::size_t e = skip_space_back(text, text.size());
  if (e <= b) return false;
  text = text.substr(b, e - b);
  if (!text.ends_with(simple)) return false;
  const std::string_view qualifier = text.substr(0, text.size() - simple.size());
  if (!qualifier.empty() && qualifier.back() != '.') return false;
  return std::all_of(qualifier.begin(), qualifier.end(), [](char c) { return is_identifier_char(c) || c == '.'; });
}

std::optional<std::string> string_literal_value(std::string_view text) {
  std::string value;
  std::size_t p = skip_space_forward(text, 0);
  bool first = true;
  while (true) {
    if (!first) {
      if (p >= text.size()) break;
      if (text[p] != '+') return std::nullopt;
      p = skip_space_forward(text, p + 1);
    }
    first = false;
    if (p >= text.size() || text[p] != '"' || text.substr(p, 3) == "\"\"\"") return std::nullopt;
    ++p;
    while (true) {
      if (p >= text.size()) return std::nullopt;
      const char c = text[p];
      if (c == '"') break;
      if (c != '\\') {
        value += c;
        ++p;
        continue;
      }
      if (p + 1 >= text.size()) return std::nullopt;
      const char e = text[p + 1];
      p += 2;
      switch (e) {
        case 'b': value += '\b'; break;
        case 't': value += '\t'; break;
        case 'n': value += '\n'; break;
        case 'f': value += '\f'; break;
        case 'r': value += '\r'; break;
        case 's': value += ' '; break;
        case '"': value += '"'; break;
        case '\'': value += '\''; break;
        case '\\': value += '\\'; break;
        default: {
          if (e < '0' || e > '7') return std::nullopt;  // \u and friends: not decoded here
          // octal: up to three digits, the first 0-3 when there are three
          int code = e - '0';
          const std::size_t max_digits = e <= '3' ? 3 : 2;
          for (std::size_t n = 1; n < max_digits && p < text.size() && text[p] >= '0' && text[p] <= '7'; ++n, ++p)
            code = code * 8 + (text[p] - '0');
          value += static_cast<char>(code);
        }
      }
    }
    p = skip_space_forward(text, p + 1);
  }
  return value;
}


std::optional<PrintedCollection> split_printed_collection(std::string_view value) {
  if (value.size() < 2) return std::nullopt;
  PrintedCollection out;
  if (value.front() == '{' && value.back() == '}') out.map = true;
  else if (!(value.front() == '[' && value.back() == ']')) return std::nullopt;
  const std::string_view inner = value.substr(1, value.size() - 2);
  if (inner.empty()) return out;
  int depth = 0;
  std::size_t piece = 0;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    const char c = inner[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return std::nullopt;
    }
    if (depth == 0 && c == ',' && i + 1 < inner.size() && inner[i + 1] == ' ') {
      out.elements.emplace_back(inner.substr(piece, i - piece));
      piece = i + 2;
      ++i;
    }
  }
  if (depth != 0) return std::nullopt;
  out.elements.emplace_back(inner.substr(piece));
  return out;
}

namespace {

// The masked file as one string, with where each line starts in it.
struct FlatText {
  std::string text;
  std::vector<std::size_t> line_starts;
  Position position(std::size_t offset) const {
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
    const std::size_t line = static_cast<std::size_t>(it - line_starts.begin()) - 1;
    return {line, offset - line_starts[line]};
  }
};

FlatText flatten(const std::vector<std::string>& lines) {
  FlatText flat;
  for (const auto& l : lines) {
    flat.line_starts.push_back(flat.text.size());
    flat.text += l;
    flat.text += '\n';
  }
  return flat;
}

bool has_word(std::string_view text, std::string_view word) { return !find_word(text, word).empty(); }

// `class Foo`, `interface Foo`, `enum Foo`, `record Foo(`: a word followed by a name, and not
// `Foo.class`.
bool declares_type(std::string_view header) {
  for (std::string_view keyword : {"class", "interface", "enum", "record"}) {
    for (std::size_t at : find_word(header, keyword)) {
      const std::size_t before = skip_space_back(header, at);
      if (before > 0 && header[before - 1] == '.') continue;
      const std::size_t after = skip_space_forward(header, at + keyword.size());
      if (after < header.size() && is_identifier_char(header[after]) && after > at + keyword.size()) return true;
    }
  }
  return false;
}

BlockKind classify_block(std::string_view header, BlockKind parent) {
  const std::size_t end = skip_space_back(header, header.size());
  const std::size_t begin = skip_space_forward(header, 0);
  const std::string_view h = begin < end ? header.substr(begin, end - begin) : std::string_view{};
  if (declares_type(h)) return BlockKind::class_body;
  if (!h.empty() && h.back() == ')') {
    auto open = matching_open(h, h.size() - 1);
    if (open) {
      std::size_t name_end = skip_space_back(h, *open);
      if (name_end > 0 && h[name_end - 1] == '>') {
        auto lt = matching_open_angle(h, name_end - 1);
        if (lt) name_end = skip_space_back(h, *lt);
      }
      // walk back over a dotted class name to a `new`
      std::size_t w = word_start(h, name_end);
      while (w > 0 && skip_space_back(h, w) > 0 && h[skip_space_back(h, w) - 1] == '.')
        w = word_start(h, skip_space_back(h, skip_space_back(h, w) - 1));
      const std::size_t q = skip_space_back(h, w);
      const std::size_t nw = word_start(h, q);
      if (h.substr(nw, q - nw) == "new") return BlockKind::class_body;  // an anonymous class
    }
    return parent == BlockKind::class_body ? BlockKind::method_body : BlockKind::other;
  }
  if (parent != BlockKind::class_body) return BlockKind::other;
  if (has_word(h, "throws")) return BlockKind::method_body;
  if (h.find('=') != std::string_view::npos || h.find("->") != std::string_view::npos) return BlockKind::other;
  return BlockKind::initializer;
}

}  // namespace

std::vector<Block> java_blocks(const std::vector<std::string>& masked) {
  const FlatText flat = flatten(masked);
  const std::string_view t = flat.text;
  std::vector<Block> blocks;
  std::vector<int> open_blocks;
  std::size_t header_start = 0;  // just after the last ; { or }
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '{') {
      Block b;
      b.open = flat.position(i);
      b.close = flat.position(t.size() - 1);
      b.parent = open_blocks.empty() ? -1 : open_blocks.back();
      const BlockKind parent_kind = b.parent < 0 ? BlockKind::other : blocks[static_cast<std::size_t>(b.parent)].kind;
      b.kind = classify_block(t.substr(header_start, i - header_start), b.parent < 0 ? BlockKind::other : parent_kind);
      // at top level only a type declaration opens a block
      if (b.parent < 0 && b.kind != BlockKind::class_body) b.kind = BlockKind::other;
      blocks.push_back(b);
      open_blocks.push_back(static_cast<int>(blocks.size() - 1));
      header_start = i + 1;
    } else if (c == '}') {
      if (!open_blocks.empty()) {
        blocks[static_cast<std::size_t>(open_blocks.back())].close = flat.position(i);
        open_blocks.pop_back();
      }
      header_start = i + 1;
    } else if (c == ';') {
      header_start = i + 1;
    }
  }
  return blocks;
}

int innermost_block(const std::vector<Block>& blocks, Position p, BlockKind kind) {
  int best = -1;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].kind != kind || !blocks[i].contains(p)) continue;
    if (best < 0 || blocks[static_cast<std::size_t>(best)].open < blocks[i].open) best = static_cast<int>(i);
  }
  return best;
}

std::vector<std::size_t> find_word(std::string_view text, std::string_view word) {
  std::vector<std::size_t> out;
  if (word.empty()) return out;
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at > 0 && is_identifier_char(text[at - 1])) || (end < text.size() && is_identifier_char(text[end]))) continue;
    out.push_back(at);
  }
  return out;
}

namespace {

// The declared type when `name` at column `at` of `line` is the name of a declaration.
std::optional<std::string> declaration_type_at(std::string_view line, std::size_t at, std::size_t name_size) {
  // after the name: = (not ==), ;, ,, ), or the : of a for-each (not ::)
  const std::size_t after = skip_space_forward(line, at + name_size);
  if (after >= line.size()) return std::nullopt;
  const char next = line[after];
  const bool ends_declaration = (next == '=' && (after + 1 >= line.size() || line[after + 1] != '=')) || next == ';' ||
                                next == ',' || next == ')' || (next == ':' && (after + 1 >= line.size() || line[after + 1] != ':'));
  if (!ends_declaration) return std::nullopt;
  std::size_t q = skip_space_back(line, at);
  std::string suffix;
  while (q > 0 && line[q - 1] == ']') {  // String[] names
    auto open = matching_open(line, q - 1);
    if (!open) return std::nullopt;
    suffix += "[]";
    q = skip_space_back(line, *open);
  }
  if (q > 0 && line[q - 1] == '>') {
    auto lt = matching_open_angle(line, q - 1);
    if (!lt) return std::nullopt;
    q = skip_space_back(line, *lt);
  }
  if (q == 0 || !is_identifier_char(line[q - 1])) return std::nullopt;
  const std::size_t w = word_start(line, q);
  const std::string type(line.substr(w, q - w));
  if (std::isdigit(static_cast<unsigned char>(type.front()))) return std::nullopt;
  if (type == "var" && next == '=') {
    // var m = new java.util.HashMap<>(): the class it creates
    const std::string_view rest = line.substr(after + 1);
    const std::size_t n = skip_space_forward(rest, 0);
    if (rest.substr(n, 4) != "new " && rest.substr(n, 4) != "new\t") return std::nullopt;
    std::size_t e = skip_space_forward(rest, n + 3);
    std::size_t last = e;
    while (e < rest.size() && (is_identifier_char(rest[e]) || rest[e] == '.')) {
      if (rest[e] == '.') last = e + 1;
      ++e;
    }
    if (last >= e) return std::nullopt;
    return std::string(rest.substr(last, e - last)) + suffix;
  }
  if (is_java_keyword(type) && !is_primitive(type)) return std::nullopt;
  return type + suffix;
}

}  // namespace

std::optional<std::string> declared_type(const std::vector<std::string>& masked, std::string_view name, std::size_t near_line) {
  if (masked.empty() || name.empty()) return std::nullopt;
  near_line = std::min(near_line, masked.size() - 1);
  std::vector<std::size_t> order;
  for (std::size_t i = near_line + 1; i-- > 0;) order.push_back(i);
  for (std::size_t i = near_line + 1; i < masked.size(); ++i) order.push_back(i);
  for (const std::size_t i : order) {
    for (const std::size_t at : find_word(masked[i], name)) {
      if (auto type = declaration_type_at(masked[i], at, name.size())) return type;
    }
  }
  return std::nullopt;
}

std::string fresh_name(const std::vector<std::string>& masked, const std::string& base) {
  const auto used = [&](const std::string& n) {
    return std::any_of(masked.begin(), masked.end(), [&](const std::string& l) { return has_word(l, n); });
  };
  if (!used(base)) return base;
  for (int i = 1;; ++i) {
    const std::string candidate = base + std::to_string(i);
    if (!used(candidate)) return candidate;
  }
}

}  // namespace flakescan::shuffle
