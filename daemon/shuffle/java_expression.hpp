#pragma once
// Just enough Java for order_fix.cpp to edit one expression on one line without a parser:
// the file with comments and literals blanked (so searches find only code), primary
// expressions found backwards from a `.method(` and forwards from their first character,
// argument lists, string literals read and written, the brace blocks of the file (classes,
// methods, initializers) and the declared type of a name. Pure: text in, text out.
// Heuristic by design: a wrong answer costs one candidate that javac or a run refuses.
#include <compare>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flakescan::shuffle {

// The lines with the text of comments, string and char literals and text blocks turned into
// spaces; the quotes of literals stay, so a literal is still seen as one. Each line keeps its
// length, so a column of a masked line is the same column of the real one.
std::vector<std::string> mask_java(const std::vector<std::string>& lines);

bool is_identifier_char(char c);
bool is_java_keyword(std::string_view word);

// On a masked line. The first character of the primary expression that ends at `end`
// (exclusive; spaces before `end` are skipped): names, `this.`, `super.`, dotted chains,
// `.class`, calls `f(...)`, `new T<...>(...)`, indexing `[...]`, a parenthesised group
// (also a cast inside one) and a string or char literal. It stops at operators, commas, an
// unmatched `(`, `=`, `->`, `::` and keywords such as `return`. nullopt when nothing is there.
std::optional<std::size_t> primary_start(std::string_view masked, std::size_t end);

// On a masked line. The end (exclusive) of the primary expression that starts at the first
// non-space at or after `start`; nullopt when none starts there (an operator, a keyword, a cast).
std::optional<std::size_t> primary_end(std::string_view masked, std::size_t start);

// The bracket ((, [, {, <) closing the one at `open` on the same line, or opening the one at
// `close`. Angle brackets count only over text a type argument list can hold.
std::optional<std::size_t> matching_close(std::string_view masked, std::size_t open);
std::optional<std::size_t> matching_open(std::string_view masked, std::size_t close);

// A half-open column range [begin, end) on one line.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  auto operator<=>(const Span&) const = default;
};

// The arguments between `begin` and `end` (the columns just inside a call's parentheses),
// split at top-level commas and trimmed of spaces. Empty for "()".
std::vector<Span> split_arguments(std::string_view masked, std::size_t begin, std::size_t end);

// A call `receiver.name(args)` or `name(args)` on a masked line, its parentheses on the line.
struct Call {
  Span name;
  std::size_t open = 0;   // the '('
  std::size_t close = 0;  // the ')'
  std::optional<std::size_t> dot;             // the '.' before the name, when there is one
  std::optional<std::size_t> receiver_begin;  // where the receiver before the dot starts (primary_start)
  Span whole() const { return {receiver_begin ? *receiver_begin : name.begin, close + 1}; }
  bool no_arguments(std::string_view masked) const;
};

// Every call of a method `name` on a masked line (not `new name(`, not `::name`), left to right.
std::vector<Call> find_calls(std::string_view masked, std::string_view name);

// The receiver of `call` without the spaces before its dot; nullopt when it has none.
std::optional<Span> receiver_of(std::string_view masked, const Call& call);

// `text` is a dotted name whose last part is `simple` (Collectors, java.util.stream.Collectors).
bool is_qualified_name(std::string_view text, std::string_view simple);

// The value of `text` when it is one Java string literal, or several joined with `+`
// ("[a, " + "b]"), and nothing else. nullopt for anything else, and for escapes this does
// not decode (\u, which Java reads before it reads literals, and text blocks).
std::optional<std::string> string_literal_value(std::string_view text);

// What AbstractCollection.toString and AbstractMap.toString print, taken apart: "[a, b]" gives
// {"a", "b"} and `map` false; "{a=1, b=[x, y]}" gives {"a=1", "b=[x, y]"} and `map` true.
// The elements are split at ", " outside brackets; nullopt when the value has another shape
// or its brackets do not balance.
struct PrintedCollection {
  bool map = false;
  std::vector<std::string> elements;
};
std::optional<PrintedCollection> split_printed_collection(std::string_view value);

// A place in the file: 0-based line and column.
struct Position {
  std::size_t line = 0;
  std::size_t column = 0;
  auto operator<=>(const Position&) const = default;
};

// The brace blocks of a masked file. A block is a class body (class, interface, enum,
// record, anonymous class), a method or constructor body (a block right inside a class body
// whose header ends with a parameter list or a throws clause), an initializer (any other
// block right inside a class body: static { }, { }), or anything else (statements, lambdas,
// array initializers).
enum class BlockKind { class_body, method_body, initializer, other };
struct Block {
  Position open;   // the '{'
  Position close;  // the '}' (the end of the file when it is missing)
  BlockKind kind = BlockKind::other;
  int parent = -1;  // index into the same list; -1 at top level
  bool contains(Position p) const { return open < p && p < close; }
};
std::vector<Block> java_blocks(const std::vector<std::string>& masked);

// The innermost block of `kind` containing `p`, as an index into `blocks`; -1 when none.
int innermost_block(const std::vector<Block>& blocks, Position p, BlockKind kind);

// The type `name` is declared with (a local, a parameter, a field or a for-each variable),
// the declaration nearest `near_line` first (upwards, then downwards): its simple name without
// type arguments ("Map" for java.util.Map<String, Integer>), with "[]" appended for an array;
// for `var`, the class the initializer creates with `new`. nullopt when none is found.
std::optional<std::string> declared_type(const std::vector<std::string>& masked, std::string_view name, std::size_t near_line);

// A name for a lambda parameter that is no word of the file: `base`, or base1, base2, ...
std::string fresh_name(const std::vector<std::string>& masked, const std::string& base);

// Every column where `word` starts as a whole word (no identifier character on either side).
std::vector<std::size_t> find_word(std::string_view text, std::string_view word);

}  // namespace flakescan::shuffle
