#pragma once
// Test support: builds small but well-formed APKs (zip + binary AndroidManifest.xml) so
// the backend's APK reader and the install path run on real file formats without aapt.
#include <cstdint>
#include <string>
#include <vector>

#include <boost/beast/zlib/deflate_stream.hpp>

namespace flakescan::test {

inline void put16(std::string& s, std::uint32_t v) { s.push_back(char(v & 0xFF)); s.push_back(char((v >> 8) & 0xFF)); }
inline void put32(std::string& s, std::uint32_t v) { put16(s, v & 0xFFFF); put16(s, v >> 16); }

// Binary XML for <manifest xmlns:android=... package="PKG" android:versionCode="1">.
inline std::string build_axml(const std::string& package, bool utf8_pool = false) {
  std::vector<std::string> strings = {"versionCode", "manifest", "package", "android",
                                      "http://schemas.android.com/apk/res/android", package};
  // String pool.
  std::string data;
  std::vector<std::uint32_t> offsets;
  for (const auto& s : strings) {
    offsets.push_back(std::uint32_t(data.size()));
    if (utf8_pool) {
      data.push_back(char(s.size()));
      data.push_back(char(s.size()));
      data += s;
      data.push_back('\0');
    } else {
      put16(data, std::uint32_t(s.size()));
      for (char c : s) put16(data, std::uint8_t(c));
      put16(data, 0);
    }
  }
  while (data.size() % 4) data.push_back('\0');
  std::string pool;
  std::uint32_t header = 28, start = header + 4 * std::uint32_t(strings.size());
  put16(pool, 0x0001); put16(pool, header); put32(pool, start + std::uint32_t(data.size()));
  put32(pool, std::uint32_t(strings.size())); put32(pool, 0); put32(pool, utf8_pool ? 1u << 8 : 0);
  put32(pool, start); put32(pool, 0);
  for (auto o : offsets) put32(pool, o);
  pool += data;
  // Resource map for the android: attribute (versionCode = 0x0101021b).
  std::string resmap;
  put16(resmap, 0x0180); put16(resmap, 8); put32(resmap, 12); put32(resmap, 0x0101021b);
  // Start tag <manifest> with two attributes.
  std::string tag;
  put16(tag, 0x0102); put16(tag, 16); put32(tag, 16 + 20 + 2 * 20);
  put32(tag, 1); put32(tag, 0xFFFFFFFF);                 // line, comment
  put32(tag, 0xFFFFFFFF); put32(tag, 1);                 // ns, name = "manifest"
  put16(tag, 20); put16(tag, 20); put16(tag, 2);         // attrStart, attrSize, attrCount
  put16(tag, 0); put16(tag, 0); put16(tag, 0);           // id, class, style
  put32(tag, 4); put32(tag, 0); put32(tag, 0xFFFFFFFF);  // android:versionCode, raw none
  put16(tag, 8); tag.push_back('\0'); tag.push_back(char(0x10)); put32(tag, 1);  // TYPE_INT_DEC 1
  put32(tag, 0xFFFFFFFF); put32(tag, 2); put32(tag, 5);  // package = strings[5]
  put16(tag, 8); tag.push_back('\0'); tag.push_back(char(0x03)); put32(tag, 5);  // TYPE_STRING
  std::string end;
  put16(end, 0x0103); put16(end, 16); put32(end, 24);
  put32(end, 1); put32(end, 0xFFFFFFFF); put32(end, 0xFFFFFFFF); put32(end, 1);
  std::string body = pool + resmap + tag + end;
  std::string out;
  put16(out, 0x0003); put16(out, 8); put32(out, 8 + std::uint32_t(body.size()));
  return out + body;
}

inline std::uint32_t crc32(const std::string& s) {
  std::uint32_t c = 0xFFFFFFFF;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320 & (0 - (c & 1)));
  }
  return ~c;
}

inline std::string raw_deflate(const std::string& in) {
  namespace zlib = boost::beast::zlib;
  zlib::deflate_stream ds;
  ds.reset(6, 15, 8, zlib::Strategy::normal);  // raw deflate
  std::string out(in.size() + 1024, '\0');
  zlib::z_params zs;
  zs.next_in = in.data();
  zs.avail_in = in.size();
  zs.next_out = out.data();
  zs.avail_out = out.size();
  boost::system::error_code ec;
  ds.write(zs, zlib::Flush::finish, ec);
  out.resize(zs.total_out);
  return out;
}

struct ZipEntry {
  std::string name;
  std::string data;
  bool deflate = true;
};

inline std::string build_zip(const std::vector<ZipEntry>& entries) {
  std::string out, cd;
  for (const auto& e : entries) {
    std::string stored = e.deflate ? raw_deflate(e.data) : e.data;
    std::uint32_t local = std::uint32_t(out.size()), crc = crc32(e.data);
    put32(out, 0x04034b50); put16(out, 20); put16(out, 0); put16(out, e.deflate ? 8 : 0);
    put16(out, 0); put16(out, 0x21); put32(out, crc);
    put32(out, std::uint32_t(stored.size())); put32(out, std::uint32_t(e.data.size()));
    put16(out, std::uint32_t(e.name.size())); put16(out, 0);
    out += e.name + stored;
    put32(cd, 0x02014b50); put16(cd, 20); put16(cd, 20); put16(cd, 0); put16(cd, e.deflate ? 8 : 0);
    put16(cd, 0); put16(cd, 0x21); put32(cd, crc);
    put32(cd, std::uint32_t(stored.size())); put32(cd, std::uint32_t(e.data.size()));
    put16(cd, std::uint32_t(e.name.size())); put16(cd, 0); put16(cd, 0); put16(cd, 0); put16(cd, 0);
    put32(cd, 0); put32(cd, local);
    cd += e.name;
  }
  std::uint32_t cd_at = std::uint32_t(out.size());
  out += cd;
  put32(out, 0x06054b50); put16(out, 0); put16(out, 0);
  put16(out, std::uint32_t(entries.size())); put16(out, std::uint32_t(entries.size()));
  put32(out, std::uint32_t(cd.size())); put32(out, cd_at); put16(out, 0);
  return out;
}

// An APK whose manifest names `package`, with a classes.dex placeholder entry before it.
inline std::string build_apk(const std::string& package, bool deflate = true, bool utf8_pool = false) {
  return build_zip({{"classes.dex", std::string("dex\n035\0", 8) + std::string(64, '\0'), deflate},
                    {"AndroidManifest.xml", build_axml(package, utf8_pool), deflate}});
}

}  // namespace flakescan::test
