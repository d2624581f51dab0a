#include "tarpit/md5.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace flakescan::tarpit {

namespace {

constexpr std::array<std::uint32_t, 64> shifts = {
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};

// K[i] = floor(2^32 * |sin(i + 1)|), computed once.
const std::array<std::uint32_t, 64>& constants() {
  static const auto table = [] {
    std::array<std::uint32_t, 64> k{};
    for (int i = 0; i < 64; ++i)
      k[i] = static_cast<std::uint32_t>(std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
    return k;
  }();
  return table;
}

inline std::uint32_t rotl(std::uint32_t x, std::uint32_t c) { return (x << c) | (x >> (32 - c)); }

void block(std::array<std::uint32_t, 4>& h, const unsigned char* p) {
  const auto& k = constants();
  std::uint32_t m[16];
  for (int i = 0; i < 16; ++i)
    m[i] = std::uint32_t(p[4 * i]) | std::uint32_t(p[4 * i + 1]) << 8 |
           std::uint32_t(p[4 * i + 2]) << 16 | std::uint32_t(p[4 * i + 3]) << 24;
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
  for (std::uint32_t i = 0; i < 64; ++i) {
    std::uint32_t f, g;
    if (i < 16) { f = (b & c) | (~b & d); g = i; }
    else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) % 16; }
    else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) % 16; }
    else { f = c ^ (b | ~d); g = (7 * i) % 16; }
    std::uint32_t next = b + rotl(a + f + k[i] + m[g], shifts[i]);
    a = d; d = c; c = b; b = next;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d;
}

}  // namespace

std::string md5_hex(std::string_view data) {
  std::array<std::uint32_t, 4> h = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t n = data.size();
  std::size_t full = n / 64;
  for (std::size_t i = 0; i < full; ++i) block(h, bytes + 64 * i);
  unsigned char tail[128] = {};
  std::size_t rest = n - 64 * full;
  if (rest) std::memcpy(tail, bytes + 64 * full, rest);
  tail[rest] = 0x80;
  std::size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  std::uint64_t bits = static_cast<std::uint64_t>(n) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 8 + i] = static_cast<unsigned char>(bits >> (8 * i));
  for (std::size_t off = 0; off < tail_len; off += 64) block(h, tail + off);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(32);
  for (auto word : h)
    for (int i = 0; i < 4; ++i) {
      auto byte = static_cast<unsigned char>(word >> (8 * i));
      out += hex[byte >> 4];
      out += hex[byte & 15];
    }
  return out;
}

}  // namespace flakescan::tarpit
