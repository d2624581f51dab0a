#include "core/signature.hpp"

namespace flakescan::core {

namespace {

// "\tat pkg.Cls.method(Cls.java:31)" -> ("pkg.Cls.method", "31")
bool parse_frame(std::string_view line, std::string_view& where, std::string_view& number) {
  size_t at = line.find("at ");
  if (at == std::string_view::npos) return false;
  for (size_t i = 0; i < at; ++i) if (line[i] != ' ' && line[i] != '\t') return false;
  line.remove_prefix(at + 3);
  size_t paren = line.find('(');
  if (paren == std::string_view::npos) return false;
  where = line.substr(0, paren);
  // Module prefixes like "java.base/" are dropped.
  if (size_t slash = where.find('/'); slash != std::string_view::npos) where.remove_prefix(slash + 1);
  std::string_view inside = line.substr(paren + 1);
  size_t colon = inside.rfind(':');
  size_t close = inside.find(')');
  number = (colon != std::string_view::npos && close != std::string_view::npos && colon < close)
               ? inside.substr(colon + 1, close - colon - 1)
               : std::string_view{};
  return true;
}

}  // namespace

std::string failure_signature(std::string_view exception_type, std::string_view stack,
                              std::string_view test_id, int frames) {
  std::string_view cls = test_id.substr(0, test_id.find('#'));
  std::string_view outer = cls.substr(0, cls.find('$'));
  std::string out(exception_type.empty() ? "unknown" : exception_type);
  int taken = 0;
  while (!stack.empty() && taken < frames) {
    size_t nl = stack.find('\n');
    std::string_view line = stack.substr(0, nl);
    stack.remove_prefix(nl == std::string_view::npos ? stack.size() : nl + 1);
    std::string_view where, number;
    if (!parse_frame(line, where, number)) {
      // Only the first exception's frames count, not its causes'.
      if (taken > 0 && line.starts_with("Caused by")) break;
      continue;
    }
    bool own = where.starts_with(outer) && where.size() > outer.size() &&
               (where[outer.size()] == '.' || where[outer.size()] == '$');
    if (!own) continue;
    out += taken == 0 ? " at " : " < ";
    out += where;
    if (!number.empty()) {
      out += ':';
      out += number;
    }
    ++taken;
  }
  return out;
}

}  // namespace flakescan::core
