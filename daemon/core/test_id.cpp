#include "core/test_id.hpp"

namespace flakescan::core {

namespace {

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool ident_part(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// A Java method name, optionally followed by one "[...]" parameter suffix made of
// characters that are harmless in a shell word after quoting: letters, digits, " _-.,=:".
bool valid_method(std::string_view s) {
  if (s.empty() || s.size() > 512) return false;
  size_t bracket = s.find('[');
  std::string_view name = s.substr(0, bracket);
  if (name.empty() || !ident_start(name[0])) return false;
  for (char c : name) if (!ident_part(c)) return false;
  if (bracket == std::string_view::npos) return true;
  std::string_view suffix = s.substr(bracket);
  if (suffix.size() < 2 || suffix.back() != ']') return false;
  for (char c : suffix.substr(1, suffix.size() - 2)) {
    bool ok = ident_part(c) || c == ' ' || c == '-' || c == '.' || c == ',' || c == '=' || c == ':';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool valid_binary_name(std::string_view s) {
  if (s.empty() || s.size() > 512) return false;
  bool at_start = true;
  for (char c : s) {
    if (c == '.') {
      if (at_start) return false;
      at_start = true;
    } else if (at_start ? ident_start(c) : ident_part(c)) {
      at_start = false;
    } else {
      return false;
    }
  }
  return !at_start;
}

util::Result<TestId> TestId::parse(std::string_view text) {
  size_t hash = text.find('#');
  std::string_view cls = text.substr(0, hash);
  if (!valid_binary_name(cls))
    return util::fail(util::Errc::invalid_argument, "not a test id (want pkg.Class or pkg.Class#method): '" + std::string(text) + "'");
  if (hash == std::string_view::npos) return TestId{std::string(cls), {}};
  std::string_view method = text.substr(hash + 1);
  if (!valid_method(method))
    return util::fail(util::Errc::invalid_argument, "not a test method name: '" + std::string(text) + "'");
  return TestId{std::string(cls), std::string(method)};
}

util::Result<std::vector<TestId>> parse_test_ids(std::string_view list) {
  std::vector<TestId> out;
  while (true) {
    size_t comma = list.find(',');
    // A comma inside a parameter suffix belongs to the method name.
    size_t open = list.find('[');
    if (open != std::string_view::npos && comma != std::string_view::npos && open < comma) {
      size_t close = list.find(']', open);
      comma = close == std::string_view::npos ? std::string_view::npos : list.find(',', close);
    }
    auto id = TestId::parse(list.substr(0, comma));
    if (!id) return std::unexpected(id.error());
    out.push_back(std::move(*id));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace flakescan::core
