#include "core/shard.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>

namespace flakescan::core {

namespace {

using util::Errc;

std::optional<int> number(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// FNV-1a, 64 bits, then MurmurHash3's 64-bit finaliser: the same on every machine and every
// build (std::hash is not), and its low bits mix every byte (FNV-1a's alone cycle with the last
// character, so Test1..Test9 would fall in turn and long runs of one shard could follow).
std::uint64_t stable_hash(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

}  // namespace

util::Result<Shard> parse_shard(const std::string& text) {
  auto slash = text.find('/');
  auto index = slash == std::string::npos ? std::nullopt : number(std::string_view(text).substr(0, slash));
  auto count = slash == std::string::npos ? std::nullopt : number(std::string_view(text).substr(slash + 1));
  if (!index || !count || *count < 1 || *count > 1000 || *index < 1 || *index > *count)
    return util::fail(Errc::invalid_argument, "shard '" + text + "' must be I/N with 1 <= I <= N <= 1000, e.g. 2/4");
  return Shard{*index, *count};
}

util::Result<std::string> check_group(const std::string& group) {
  bool ok = !group.empty() && group.size() <= 128 && std::all_of(group.begin(), group.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':' || c == '-';
  });
  if (!ok) return util::fail(Errc::invalid_argument, "group '" + group + "' must be 1-128 characters of A-Z a-z 0-9 . _ : -");
  return group;
}

bool in_shard(const std::string& test, const Shard& shard) {
  std::string_view cls = std::string_view(test).substr(0, test.find('#'));
  return int(stable_hash(cls) % std::uint64_t(shard.count)) == shard.index - 1;
}

std::vector<std::string> shard_share(const std::vector<std::string>& tests, const Shard& shard) {
  std::vector<std::string> out;
  for (const auto& t : tests)
    if (in_shard(t, shard)) out.push_back(t);
  return out;
}

}  // namespace flakescan::core
