#include "backend/adb/apk.hpp"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <vector>
#include <algorithm>

#include <boost/beast/zlib/inflate_stream.hpp>

#include "backend/adb/shell_command.hpp"

namespace flakescan::backend::adb {

using util::Errc;
using util::fail;

namespace {

std::uint32_t u16(std::string_view s, std::size_t at) {
  return std::uint32_t(std::uint8_t(s[at])) | std::uint32_t(std::uint8_t(s[at + 1])) << 8;
}
std::uint32_t u32(std::string_view s, std::size_t at) { return u16(s, at) | u16(s, at + 2) << 16; }

util::Result<std::string> inflate(std::string_view in, std::size_t out_size) {
  namespace zlib = boost::beast::zlib;
  zlib::inflate_stream stream;
  stream.reset(15);  // Beast.zlib speaks raw deflate, as zip does
  std::string out(out_size, '\0');
  zlib::z_params zs;
  zs.next_in = in.data();
  zs.avail_in = in.size();
  zs.next_out = out.data();
  zs.avail_out = out.size();
  boost::system::error_code ec;
  stream.write(zs, zlib::Flush::finish, ec);
  if (ec && ec != zlib::error::end_of_stream) return fail(Errc::malformed, "apk: cannot inflate manifest: " + ec.message());
  if (zs.total_out != out_size) return fail(Errc::malformed, "apk: manifest inflated to the wrong size");
  return out;
}

}  // namespace

util::Result<std::string> zip_entry(std::string_view zip, std::string_view name) {
  if (zip.size() < 22) return fail(Errc::malformed, "not a zip file (too short)");
  // End of central directory: scan back over a possible comment (at most 65535 bytes).
  std::size_t eocd = std::string_view::npos;
  std::size_t lowest = zip.size() > 22 + 65535 ? zip.size() - 22 - 65535 : 0;
  for (std::size_t i = zip.size() - 22 + 1; i-- > lowest;) {
    if (u32(zip, i) == 0x06054b50) { eocd = i; break; }
  }
  if (eocd == std::string_view::npos) return fail(Errc::malformed, "not a zip file (no end of central directory)");
  std::size_t count = u16(zip, eocd + 10);
  std::size_t cd = u32(zip, eocd + 16);
  for (std::size_t i = 0, at = cd; i < count; ++i) {
    if (at + 46 > zip.size() || u32(zip, at) != 0x02014b50) return fail(Errc::malformed, "zip: bad central directory");
    std::size_t method = u16(zip, at + 10), csize = u32(zip, at + 20), usize = u32(zip, at + 24);
    std::size_t nlen = u16(zip, at + 28), xlen = u16(zip, at + 30), clen = u16(zip, at + 32);
    std::size_t local = u32(zip, at + 42);
    if (at + 46 + nlen > zip.size()) return fail(Errc::malformed, "zip: bad central directory name");
    std::string_view entry_name = zip.substr(at + 46, nlen);
    at += 46 + nlen + xlen + clen;
    if (entry_name != name) continue;
    if (usize > max_manifest_bytes) return fail(Errc::too_large, "zip entry over the size cap");
    if (local + 30 > zip.size() || u32(zip, local) != 0x04034b50) return fail(Errc::malformed, "zip: bad local header");
    std::size_t data = local + 30 + u16(zip, local + 26) + u16(zip, local + 28);
    if (data + csize > zip.size()) return fail(Errc::malformed, "zip: entry runs past the end");
    std::string_view raw = zip.substr(data, csize);
    if (method == 0) {
      if (csize != usize) return fail(Errc::malformed, "zip: stored entry sizes differ");
      return std::string(raw);
    }
    if (method == 8) return inflate(raw, usize);
    return fail(Errc::unsupported, "zip: compression method " + std::to_string(method));
  }
  return fail(Errc::not_found, "zip has no entry " + std::string(name));
}

util::Result<std::string> axml_package(std::string_view x) {
  if (x.size() < 8 || u16(x, 0) != 0x0003) return fail(Errc::malformed, "not a binary AndroidManifest.xml");
  std::size_t end = std::min<std::size_t>(u32(x, 4), x.size());
  std::vector<std::string> strings;
  std::size_t at = u16(x, 2);
  while (at + 8 <= end) {
    std::size_t type = u16(x, at), header = u16(x, at + 2), size = u32(x, at + 4);
    if (size < 8 || at + size > end || header > size) return fail(Errc::malformed, "axml: bad chunk size");
    if (type == 0x0001) {  // string pool
      if (header < 28) return fail(Errc::malformed, "axml: short string pool header");
      std::size_t n = u32(x, at + 8), flags = u32(x, at + 16), start = u32(x, at + 20);
      bool utf8 = flags & (1u << 8);
      if (n > 1'000'000 || header + 4 * n > size) return fail(Errc::malformed, "axml: bad string count");
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t s = at + start + u32(x, at + header + 4 * i);
        if (s + 4 > at + size) return fail(Errc::malformed, "axml: string out of bounds");
        std::string out;
        if (utf8) {
          std::size_t p = s + ((std::uint8_t(x[s]) & 0x80) ? 2 : 1);  // utf-16 length, skipped
          std::size_t len = std::uint8_t(x[p]);
          if (len & 0x80) len = ((len & 0x7F) << 8) | std::uint8_t(x[p + 1]), p += 2;
          else p += 1;
          if (p + len > at + size) return fail(Errc::malformed, "axml: string out of bounds");
          out.assign(x.data() + p, len);
        } else {
          std::size_t len = u16(x, s), p = s + 2;
          if (len & 0x8000) len = ((len & 0x7FFF) << 16) | u16(x, s + 2), p += 2;
          if (p + 2 * len > at + size) return fail(Errc::malformed, "axml: string out of bounds");
          for (std::size_t k = 0; k < len; ++k) {
            auto c = u16(x, p + 2 * k);
            if (c >= 0x80) return fail(Errc::malformed, "axml: non-ASCII character in a manifest name");
            out.push_back(char(c));
          }
        }
        strings.push_back(std::move(out));
      }
    } else if (type == 0x0102) {  // start tag
      if (header < 16 || at + header + 20 > at + size) return fail(Errc::malformed, "axml: short start tag");
      std::size_t body = at + header;
      std::size_t name = u32(x, body + 4);
      std::size_t attr_start = u16(x, body + 8), attr_size = u16(x, body + 10), attr_count = u16(x, body + 12);
      if (name >= strings.size() || strings[name] != "manifest") return fail(Errc::malformed, "axml: first element is not <manifest>");
      if (attr_size < 20) return fail(Errc::malformed, "axml: bad attribute size");
      for (std::size_t i = 0; i < attr_count; ++i) {
        std::size_t a = body + attr_start + i * attr_size;
        if (a + 20 > at + size) return fail(Errc::malformed, "axml: attribute out of bounds");
        std::size_t an = u32(x, a + 4), raw = u32(x, a + 8);
        if (an < strings.size() && strings[an] == "package") {
          if (raw >= strings.size()) return fail(Errc::malformed, "axml: package is not a string");
          return strings[raw];
        }
      }
      return fail(Errc::not_found, "axml: <manifest> has no package attribute");
    }
    at += size;
  }
  return fail(Errc::malformed, "axml: no <manifest> element");
}

util::Result<std::string> apk_package(std::string_view apk_bytes) {
  auto manifest = zip_entry(apk_bytes, "AndroidManifest.xml");
  if (!manifest) return std::unexpected(manifest.error());
  auto pkg = axml_package(*manifest);
  if (!pkg) return pkg;
  if (auto ok = check_package(*pkg); !ok) return std::unexpected(ok.error());
  return pkg;
}

util::Result<std::string> apk_package_from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(Errc::not_found, "cannot open apk " + path);
  std::ostringstream data;
  data << in.rdbuf();
  auto pkg = apk_package(data.str());
  if (!pkg) return fail(pkg.error().code, path + ": " + pkg.error().message);
  return pkg;
}

}  // namespace flakescan::backend::adb
