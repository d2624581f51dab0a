#include "tarpit/tar.hpp"

#include <algorithm>
#include <cstring>

namespace flakescan::tarpit {

namespace {

constexpr std::size_t block_size = 512;

std::string_view field(std::string_view header, std::size_t offset, std::size_t size) {
  auto f = header.substr(offset, size);
  auto nul = f.find('\0');
  return nul == std::string_view::npos ? f : f.substr(0, nul);
}

// Octal, space/NUL padded; or GNU base-256 when the top bit of the first byte is set.
bool parse_number(std::string_view raw, std::uint64_t& out) {
  out = 0;
  if (!raw.empty() && (static_cast<unsigned char>(raw[0]) & 0x80)) {
    for (std::size_t i = 0; i < raw.size(); ++i) {
      auto byte = static_cast<unsigned char>(raw[i]);
      if (i == 0) byte &= 0x7f;
      if (out >> 56) return false;
      out = (out << 8) | byte;
    }
    return true;
  }
  std::size_t i = 0;
  while (i < raw.size() && raw[i] == ' ') ++i;
  bool any = false;
  for (; i < raw.size() && raw[i] >= '0' && raw[i] <= '7'; ++i) {
    if (out >> 60) return false;
    out = out * 8 + std::uint64_t(raw[i] - '0');
    any = true;
  }
  for (; i < raw.size(); ++i)
    if (raw[i] != ' ' && raw[i] != '\0') return false;
  return any;
}

bool checksum_ok(std::string_view header) {
  std::uint64_t stored = 0;
  if (!parse_number(header.substr(148, 8), stored)) return false;
  std::uint64_t sum_unsigned = 0;
  std::int64_t sum_signed = 0;
  for (std::size_t i = 0; i < block_size; ++i) {
    char c = (i >= 148 && i < 156) ? ' ' : header[i];
    sum_unsigned += static_cast<unsigned char>(c);
    sum_signed += static_cast<signed char>(c);
  }
  return stored == sum_unsigned || std::int64_t(stored) == sum_signed;
}

std::string clean_path(std::string path) {
  while (path.starts_with("./")) path.erase(0, 2);
  while (path.starts_with('/')) path.erase(0, 1);
  return path;
}

// pax records: "<len> <key>=<value>\n", len counting the whole record.
bool parse_pax(std::string_view data, std::string& path, std::uint64_t& size, bool& has_size) {
  while (!data.empty()) {
    auto space = data.find(' ');
    if (space == std::string_view::npos) return false;
    std::uint64_t len = 0;
    for (char c : data.substr(0, space)) {
      if (c < '0' || c > '9' || len > data.size()) return false;
      len = len * 10 + std::uint64_t(c - '0');
    }
    if (len <= space + 1 || len > data.size() || data[len - 1] != '\n') return false;
    auto record = data.substr(space + 1, len - space - 2);
    auto eq = record.find('=');
    if (eq == std::string_view::npos) return false;
    auto key = record.substr(0, eq), value = record.substr(eq + 1);
    if (key == "path") path = std::string(value);
    if (key == "size") {
      has_size = true;
      size = 0;
      for (char c : value) {
        if (c < '0' || c > '9' || size >> 58) return false;
        size = size * 10 + std::uint64_t(c - '0');
      }
    }
    data.remove_prefix(len);
  }
  return true;
}

}  // namespace

util::Result<std::vector<TarMember>> read_tar(std::string_view bytes, const TarLimits& limits) {
  std::vector<TarMember> out;
  std::size_t pos = 0;
  std::string next_path;  // from a GNU 'L' or pax 'x' member
  std::uint64_t next_size = 0;
  bool next_has_size = false;
  std::size_t members = 0;
  while (true) {
    if (bytes.size() - pos < block_size)
      return util::fail(util::Errc::need_more, "tar: archive ends before its end marker");
    auto header = bytes.substr(pos, block_size);
    if (std::all_of(header.begin(), header.end(), [](char c) { return c == '\0'; })) return out;
    if (!checksum_ok(header))
      return util::fail(util::Errc::malformed, "tar: bad header checksum at offset " + std::to_string(pos));
    std::uint64_t size = 0;
    if (!parse_number(header.substr(124, 12), size))
      return util::fail(util::Errc::malformed, "tar: bad size field at offset " + std::to_string(pos));
    const char type = header[156];
    if (next_has_size && type != 'x' && type != 'L') size = next_size;
    if (size > limits.max_member_bytes)
      return util::fail(util::Errc::too_large, "tar: member of " + std::to_string(size) + " bytes");
    if (++members > limits.max_members)
      return util::fail(util::Errc::too_large, "tar: more than " + std::to_string(limits.max_members) + " members");
    pos += block_size;
    if (bytes.size() - pos < size)
      return util::fail(util::Errc::need_more, "tar: archive ends inside a member");
    auto data = bytes.substr(pos, size);
    pos += (size + block_size - 1) / block_size * block_size;
    if (pos > bytes.size()) pos = bytes.size();

    if (type == 'L') {
      next_path = std::string(field(data, 0, data.size()));
      continue;
    }
    if (type == 'x') {
      if (!parse_pax(data, next_path, next_size, next_has_size))
        return util::fail(util::Errc::malformed, "tar: bad pax header");
      continue;
    }
    if (type == 'g') continue;
    std::string path;
    if (!next_path.empty()) {
      path = std::move(next_path);
    } else {
      auto name = field(header, 0, 100);
      auto prefix = field(header, 345, 155);
      bool ustar = header.substr(257, 5) == "ustar";
      path = (ustar && !prefix.empty()) ? std::string(prefix) + "/" + std::string(name) : std::string(name);
    }
    next_path.clear();
    next_has_size = false;
    if (type == '0' || type == '\0' || type == '7') out.push_back(TarMember{clean_path(std::move(path)), data});
  }
}

namespace {

void put_octal(char* dst, std::size_t width, std::uint64_t value) {
  // width - 1 octal digits, then NUL.
  std::memset(dst, '0', width - 1);
  dst[width - 1] = '\0';
  for (std::size_t i = width - 1; i-- > 0 && value;) {
    dst[i] = char('0' + (value & 7));
    value >>= 3;
  }
}

void put_member(std::string& out, std::string_view name, char type, std::string_view data) {
  char h[block_size] = {};
  std::memcpy(h, name.data(), std::min<std::size_t>(name.size(), 100));
  put_octal(h + 100, 8, 0644);
  put_octal(h + 108, 8, 0);
  put_octal(h + 116, 8, 0);
  put_octal(h + 124, 12, data.size());
  put_octal(h + 136, 12, 0);
  h[156] = type;
  std::memcpy(h + 257, "ustar", 6);
  std::memcpy(h + 263, "00", 2);
  std::memset(h + 148, ' ', 8);
  std::uint64_t sum = 0;
  for (char c : h) sum += static_cast<unsigned char>(c);
  put_octal(h + 148, 7, sum);
  h[155] = ' ';
  out.append(h, block_size);
  out.append(data);
  out.append((block_size - data.size() % block_size) % block_size, '\0');
}

}  // namespace

std::string write_tar(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string out;
  for (const auto& [path, data] : files) {
    if (path.size() > 100) {
      std::string record = " path=" + path + "\n";
      // The length prefix counts itself.
      std::size_t len = record.size() + 1;
      while (std::to_string(len).size() + record.size() != len) ++len;
      put_member(out, "PaxHeader", 'x', std::to_string(len) + record);
      put_member(out, path.substr(0, 100), '0', data);
    } else {
      put_member(out, path, '0', data);
    }
  }
  out.append(2 * block_size, '\0');
  return out;
}

}  // namespace flakescan::tarpit
