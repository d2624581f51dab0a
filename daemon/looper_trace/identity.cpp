#include "looper_trace/identity.hpp"

#include <cstdint>
#include <cstdio>

namespace flakescan::looper_trace {

std::string_view role_name(Role role) {
  switch (role) {
    case Role::main: return "main";
    case Role::testing: return "testing";
    case Role::background: return "background";
  }
  return "background";
}

std::optional<Role> parse_role(std::string_view name) {
  for (auto role : {Role::main, Role::testing, Role::background})
    if (role_name(role) == name) return role;
  return std::nullopt;
}

std::string normalise_class(std::string_view class_name) {
  auto lambda = class_name.find("$$Lambda");
  if (lambda == std::string_view::npos) return std::string(class_name);
  return std::string(class_name.substr(0, lambda)) + "$$Lambda";
}

std::vector<std::string> stable_stack(const std::vector<core::Frame>& frames) {
  std::vector<std::string> out;
  out.reserve(frames.size());
  for (const auto& f : frames) out.push_back(normalise_class(f.class_name) + "." + f.method);
  return out;
}

std::string stack_hash(const std::vector<std::string>& stack) {
  std::uint64_t h = 1469598103934665603ull;
  for (const auto& frame : stack) {
    for (unsigned char c : frame) h = (h ^ c) * 1099511628211ull;
    h = (h ^ '\n') * 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(h ^ (h >> 32)));
  return buf;
}

std::string EventIdentity::key() const {
  return std::string(role_name(role)) + " " + stack_hash(stack) + " #" + std::to_string(occurrence);
}

std::string EventIdentity::str() const { return "line " + std::to_string(statement_line) + " " + key(); }

int OccurrenceCounter::next(Role role, const std::vector<std::string>& stack) {
  return seen_[std::string(role_name(role)) + "\n" + stack_hash(stack)]++;
}

}  // namespace flakescan::looper_trace
