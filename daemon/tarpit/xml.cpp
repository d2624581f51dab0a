#include "tarpit/xml.hpp"

namespace flakescan::tarpit {

const std::string* XmlElement::attribute(std::string_view key) const {
  for (const auto& [k, v] : attributes)
    if (k == key) return &v;
  return nullptr;
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_name_char(char c) {
  return !is_space(c) && c != '=' && c != '>' && c != '/' && c != '<' && c != '"' && c != '\'';
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) out += char(cp);
  else if (cp < 0x800) { out += char(0xc0 | (cp >> 6)); out += char(0x80 | (cp & 0x3f)); }
  else if (cp < 0x10000) {
    out += char(0xe0 | (cp >> 12)); out += char(0x80 | ((cp >> 6) & 0x3f)); out += char(0x80 | (cp & 0x3f));
  } else {
    out += char(0xf0 | (cp >> 18)); out += char(0x80 | ((cp >> 12) & 0x3f));
    out += char(0x80 | ((cp >> 6) & 0x3f)); out += char(0x80 | (cp & 0x3f));
  }
}

bool decode_entities(std::string_view raw, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') { out += raw[i]; continue; }
    auto semi = raw.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) return false;
    auto name = raw.substr(i + 1, semi - i - 1);
    if (name == "lt") out += '<';
    else if (name == "gt") out += '>';
    else if (name == "amp") out += '&';
    else if (name == "quot") out += '"';
    else if (name == "apos") out += '\'';
    else if (name.size() > 1 && name[0] == '#') {
      std::uint32_t cp = 0;
      bool hex = name[1] == 'x' || name[1] == 'X';
      auto digits = name.substr(hex ? 2 : 1);
      if (digits.empty()) return false;
      for (char c : digits) {
        int v = (c >= '0' && c <= '9') ? c - '0'
                : (hex && c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (hex && c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (v < 0 || cp > 0x10ffff) return false;
        cp = cp * (hex ? 16 : 10) + std::uint32_t(v);
      }
      if (cp > 0x10ffff) return false;
      append_utf8(out, cp);
    } else {
      return false;
    }
    i = semi;
  }
  return true;
}

util::Error truncated() { return util::Error{util::Errc::need_more, "xml: document ends early"}; }
util::Error bad(std::size_t pos, const char* what) {
  return util::Error{util::Errc::malformed, std::string("xml: ") + what + " at byte " + std::to_string(pos)};
}

}  // namespace

util::Result<XmlDocument> parse_xml(std::string_view s, const XmlLimits& limits) {
  XmlDocument doc;
  std::vector<std::uint32_t> open;
  bool root_closed = false;
  std::size_t i = 0;
  const auto n = s.size();
  auto skip_to = [&](std::string_view end) -> bool {
    auto at = s.find(end, i);
    if (at == std::string_view::npos) return false;
    i = at + end.size();
    return true;
  };
  while (i < n) {
    if (s[i] != '<') {
      if (open.empty() && !is_space(s[i]) && !(i == 0 && s.substr(0, 3) == "\xEF\xBB\xBF"))
        return std::unexpected(bad(i, "text outside the document element"));
      if (i == 0 && s.substr(0, 3) == "\xEF\xBB\xBF") { i = 3; continue; }
      ++i;
      continue;
    }
    if (s.substr(i, 4) == "<!--") {
      if (!skip_to("-->")) return std::unexpected(truncated());
      continue;
    }
    if (s.substr(i, 9) == "<![CDATA[") {
      if (!skip_to("]]>")) return std::unexpected(truncated());
      continue;
    }
    if (s.substr(i, 2) == "<?" || s.substr(i, 2) == "<!") {
      if (!skip_to(">")) return std::unexpected(truncated());
      continue;
    }
    if (s.substr(i, 2) == "</") {
      i += 2;
      auto start = i;
      while (i < n && is_name_char(s[i])) ++i;
      auto name = s.substr(start, i - start);
      while (i < n && is_space(s[i])) ++i;
      if (i >= n) return std::unexpected(truncated());
      if (s[i] != '>') return std::unexpected(bad(i, "bad closing tag"));
      ++i;
      if (open.empty() || doc.elements[open.back()].name != name)
        return std::unexpected(bad(start, "mismatched closing tag"));
      open.pop_back();
      if (open.empty()) root_closed = true;
      continue;
    }
    // Start tag.
    if (root_closed) return std::unexpected(bad(i, "second document element"));
    ++i;
    auto start = i;
    while (i < n && is_name_char(s[i])) ++i;
    if (i >= n) return std::unexpected(truncated());
    if (i == start) return std::unexpected(bad(i, "empty element name"));
    if (open.size() >= limits.max_depth) return std::unexpected(bad(i, "elements nested too deep"));
    if (doc.elements.size() >= limits.max_elements) return std::unexpected(bad(i, "too many elements"));
    XmlElement el;
    el.name = std::string(s.substr(start, i - start));
    el.depth = static_cast<std::uint32_t>(open.size());
    bool self_closing = false;
    while (true) {
      while (i < n && is_space(s[i])) ++i;
      if (i >= n) return std::unexpected(truncated());
      if (s[i] == '>') { ++i; break; }
      if (s[i] == '/') {
        if (i + 1 >= n) return std::unexpected(truncated());
        if (s[i + 1] != '>') return std::unexpected(bad(i, "bad '/' in tag"));
        i += 2;
        self_closing = true;
        break;
      }
      auto key_start = i;
      while (i < n && is_name_char(s[i])) ++i;
      if (i == key_start) return std::unexpected(bad(i, "bad attribute"));
      auto key = s.substr(key_start, i - key_start);
      while (i < n && is_space(s[i])) ++i;
      if (i >= n) return std::unexpected(truncated());
      if (s[i] != '=') return std::unexpected(bad(i, "attribute without value"));
      ++i;
      while (i < n && is_space(s[i])) ++i;
      if (i >= n) return std::unexpected(truncated());
      char quote = s[i];
      if (quote != '"' && quote != '\'') return std::unexpected(bad(i, "unquoted attribute value"));
      auto close = s.find(quote, i + 1);
      if (close == std::string_view::npos) return std::unexpected(truncated());
      std::string value;
      if (!decode_entities(s.substr(i + 1, close - i - 1), value))
        return std::unexpected(bad(i, "bad entity"));
      el.attributes.emplace_back(std::string(key), std::move(value));
      i = close + 1;
    }
    auto index = static_cast<std::uint32_t>(doc.elements.size());
    if (!open.empty()) doc.elements[open.back()].children.push_back(index);
    doc.elements.push_back(std::move(el));
    if (self_closing) {
      if (open.empty()) root_closed = true;
    } else {
      open.push_back(index);
    }
  }
  if (!open.empty() || doc.elements.empty()) return std::unexpected(truncated());
  return doc;
}

}  // namespace flakescan::tarpit
