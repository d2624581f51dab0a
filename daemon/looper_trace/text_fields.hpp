#pragma once
// What the two recorded-trace text formats (statement_trace.hpp, message_trace.hpp) share:
// splitting into tab-separated records, whole-field numbers, the "test" and "outcome" records
// both open with, and a posting stack as one field of frames joined by ';'.
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run.hpp"
#include "util/error.hpp"

namespace flakescan::looper_trace::text {

inline std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    auto end = text.find(sep, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

// One line of a text format: its 1-based number and its tab-separated fields.
struct Record {
  int line = 0;
  std::vector<std::string_view> fields;
};

// The non-blank lines of `text` (a trailing '\r' dropped), each split at tabs.
inline std::vector<Record> records(std::string_view text) {
  std::vector<Record> out;
  int number = 0;
  for (auto line : split(text, '\n')) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) out.push_back({number, split(line, '\t')});
  }
  return out;
}

// The whole field as a number, nullopt when any of it is not.
template <typename T>
std::optional<T> number(std::string_view s) {
  T v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// The two records every trace opens with: "test\tNAME\noutcome\tOUTCOME\n".
inline std::string header(const std::string& test, core::Outcome outcome) {
  return "test\t" + test + "\noutcome\t" + std::string(core::outcome_name(outcome)) + "\n";
}

// Reads a "test" or "outcome" record into `test` or `outcome`. False when `fields` is another
// kind of record; an unknown outcome is an error (its message without the line, which the
// caller adds).
inline util::Result<bool> read_header(const std::vector<std::string_view>& fields, std::string& test,
                                      core::Outcome& outcome) {
  if (fields.size() != 2) return false;
  if (fields[0] == "test") {
    test = std::string(fields[1]);
    return true;
  }
  if (fields[0] != "outcome") return false;
  auto o = core::parse_outcome(fields[1]);
  if (!o) return util::fail(util::Errc::malformed, "unknown outcome");
  outcome = *o;
  return true;
}

// A stack's frames as one field, joined by ';' (frames never contain ';' or tabs).
inline std::string stack_field(const std::vector<std::string>& stack) {
  std::string out;
  for (size_t i = 0; i < stack.size(); ++i) out += (i ? ";" : "") + stack[i];
  return out;
}

// The frames of a stack field; an empty field is an empty stack.
inline std::vector<std::string> stack_of(std::string_view field) {
  std::vector<std::string> out;
  if (!field.empty())
    for (auto frame : split(field, ';')) out.emplace_back(frame);
  return out;
}

}  // namespace flakescan::looper_trace::text
