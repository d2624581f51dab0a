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

// One pass over the document: `i_` is where it reads, `open_` the elements not yet closed.
class XmlParser {
 public:
  XmlParser(std::string_view s, const XmlLimits& limits) : s_(s), n_(s.size()), limits_(limits) {}

  util::Result<XmlDocument> parse() {
    while (i_ < n_) {
      if (s_[i_] != '<') {
        if (auto r = text(); !r) return std::unexpected(r.error());
        continue;
      }
      if (s_.substr(i_, 4) == "<!--") {
        if (!skip_to("-->")) return std::unexpected(truncated());
        continue;
      }
      if (s_.substr(i_, 9) == "<![CDATA[") {
        if (!skip_to("]]>")) return std::unexpected(truncated());
        continue;
      }
      if (s_.substr(i_, 2) == "<?" || s_.substr(i_, 2) == "<!") {
        if (!skip_to(">")) return std::unexpected(truncated());
        continue;
      }
      auto r = s_.substr(i_, 2) == "</" ? closing_tag() : start_tag();
      if (!r) return std::unexpected(r.error());
    }
    if (!open_.empty() || doc_.elements.empty()) return std::unexpected(truncated());
    return std::move(doc_);
  }

 private:
  bool skip_to(std::string_view end) {
    auto at = s_.find(end, i_);
    if (at == std::string_view::npos) return false;
    i_ = at + end.size();
    return true;
  }
  void skip_space() {
    while (i_ < n_ && is_space(s_[i_])) ++i_;
  }

  // Outside tags only white space (and a byte order mark first) is allowed.
  util::Result<void> text() {
    if (open_.empty() && !is_space(s_[i_]) && !(i_ == 0 && s_.substr(0, 3) == "\xEF\xBB\xBF"))
      return std::unexpected(bad(i_, "text outside the document element"));
    if (i_ == 0 && s_.substr(0, 3) == "\xEF\xBB\xBF") {
      i_ = 3;
      return {};
    }
    ++i_;
    return {};
  }

  util::Result<void> closing_tag() {
    i_ += 2;
    auto start = i_;
    while (i_ < n_ && is_name_char(s_[i_])) ++i_;
    auto name = s_.substr(start, i_ - start);
    skip_space();
    if (i_ >= n_) return std::unexpected(truncated());
    if (s_[i_] != '>') return std::unexpected(bad(i_, "bad closing tag"));
    ++i_;
    if (open_.empty() || doc_.elements[open_.back()].name != name)
      return std::unexpected(bad(start, "mismatched closing tag"));
    open_.pop_back();
    if (open_.empty()) root_closed_ = true;
    return {};
  }

  util::Result<void> start_tag() {
    if (root_closed_) return std::unexpected(bad(i_, "second document element"));
    ++i_;
    auto start = i_;
    while (i_ < n_ && is_name_char(s_[i_])) ++i_;
    if (i_ >= n_) return std::unexpected(truncated());
    if (i_ == start) return std::unexpected(bad(i_, "empty element name"));
    if (open_.size() >= limits_.max_depth) return std::unexpected(bad(i_, "elements nested too deep"));
    if (doc_.elements.size() >= limits_.max_elements) return std::unexpected(bad(i_, "too many elements"));
    XmlElement el;
    el.name = std::string(s_.substr(start, i_ - start));
    el.depth = static_cast<std::uint32_t>(open_.size());
    bool self_closing = false;
    while (true) {
      skip_space();
      if (i_ >= n_) return std::unexpected(truncated());
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      if (s_[i_] == '/') {
        if (i_ + 1 >= n_) return std::unexpected(truncated());
        if (s_[i_ + 1] != '>') return std::unexpected(bad(i_, "bad '/' in tag"));
        i_ += 2;
        self_closing = true;
        break;
      }
      if (auto r = attribute(el); !r) return r;
    }
    auto index = static_cast<std::uint32_t>(doc_.elements.size());
    if (!open_.empty()) doc_.elements[open_.back()].children.push_back(index);
    doc_.elements.push_back(std::move(el));
    if (self_closing) {
      if (open_.empty()) root_closed_ = true;
    } else {
      open_.push_back(index);
    }
    return {};
  }

  // key="value" or key='value', entities decoded.
  util::Result<void> attribute(XmlElement& el) {
    auto key_start = i_;
    while (i_ < n_ && is_name_char(s_[i_])) ++i_;
    if (i_ == key_start) return std::unexpected(bad(i_, "bad attribute"));
    auto key = s_.substr(key_start, i_ - key_start);
    skip_space();
    if (i_ >= n_) return std::unexpected(truncated());
    if (s_[i_] != '=') return std::unexpected(bad(i_, "attribute without value"));
    ++i_;
    skip_space();
    if (i_ >= n_) return std::unexpected(truncated());
    char quote = s_[i_];
    if (quote != '"' && quote != '\'') return std::unexpected(bad(i_, "unquoted attribute value"));
    auto close = s_.find(quote, i_ + 1);
    if (close == std::string_view::npos) return std::unexpected(truncated());
    std::string value;
    if (!decode_entities(s_.substr(i_ + 1, close - i_ - 1), value))
      return std::unexpected(bad(i_, "bad entity"));
    el.attributes.emplace_back(std::string(key), std::move(value));
    i_ = close + 1;
    return {};
  }

  const std::string_view s_;
  const std::size_t n_;
  const XmlLimits& limits_;
  std::size_t i_ = 0;
  XmlDocument doc_;
  std::vector<std::uint32_t> open_;
  bool root_closed_ = false;
};

}  // namespace

util::Result<XmlDocument> parse_xml(std::string_view s, const XmlLimits& limits) {
  return XmlParser(s, limits).parse();
}

}  // namespace flakescan::tarpit
