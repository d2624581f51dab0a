#include "api/auth.hpp"

namespace flakescan::api {

namespace {

bool same(std::string_view a, std::string_view b) {
  // Constant time in the length of the presented value: no early exit on the first mismatch.
  unsigned char diff = a.size() != b.size();
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// "Scheme value": the scheme compared without regard to case (RFC 9110), one space or more.
bool split_scheme(std::string_view header, std::string_view scheme, std::string_view& value) {
  if (header.size() <= scheme.size() || header[scheme.size()] != ' ') return false;
  for (std::size_t i = 0; i < scheme.size(); ++i)
    if ((header[i] | 0x20) != (scheme[i] | 0x20)) return false;
  value = header.substr(scheme.size());
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  return true;
}

}  // namespace

bool base64_decode(std::string_view text, std::string& out) {
  out.clear();
  if (text.size() % 4 != 0) return false;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad) return false;  // data after padding
      v[k] = sextet(c);
      if (v[k] < 0) return false;
    }
    const unsigned bits = unsigned(v[0]) << 18 | unsigned(v[1]) << 12 | unsigned(v[2]) << 6 | unsigned(v[3]);
    out += char(bits >> 16 & 0xff);
    if (pad < 2) out += char(bits >> 8 & 0xff);
    if (pad < 1) out += char(bits & 0xff);
  }
  return true;
}

bool token_accepted(std::string_view authorization, std::string_view token) {
  if (token.empty()) return true;
  std::string_view value;
  if (split_scheme(authorization, "Bearer", value)) return same(value, token);
  if (split_scheme(authorization, "Basic", value)) {
    std::string decoded;
    if (!base64_decode(value, decoded)) return false;
    const auto colon = decoded.find(':');
    if (colon == std::string::npos) return false;
    return same(std::string_view(decoded).substr(colon + 1), token);
  }
  return false;
}

}  // namespace flakescan::api
