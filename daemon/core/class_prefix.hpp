#pragma once
// A class-name prefix as technique `threads` takes them (ThreadsSettings::include, the agent's
// flakescan.threads.include, which is comma-separated): dotted Java identifiers, a trailing
// dot allowed ("org.example.", "org.example.Cache"). The request parser and the CLI both check
// with it, so a bad prefix is refused the same way in both.
#include <cctype>
#include <string_view>

namespace flakescan::core {

inline bool is_class_prefix(std::string_view p) {
  if (p.empty() || p.size() > 256) return false;
  bool start = true;  // at the start of an identifier
  for (std::size_t i = 0; i < p.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c == '.') {
      if (start) return false;  // an empty identifier: "..", ".x"
      start = true;
      continue;
    }
    const bool letter = std::isalpha(c) || c == '_' || c == '$';
    if (!letter && !(std::isdigit(c) && !start)) return false;
    start = false;
  }
  return true;
}

}  // namespace flakescan::core
