#pragma once
// What the two recorded-trace text formats (statement_trace.hpp, message_trace.hpp) share to read
// their tab-separated records: splitting into records and whole-field numbers.
#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

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

}  // namespace flakescan::looper_trace::text
