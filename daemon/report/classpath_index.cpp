#include "report/classpath_index.hpp"

#include <fstream>

namespace flakescan::report {

namespace fs = std::filesystem;
using util::Errc;

namespace {

std::uint32_t u16(std::string_view b, std::size_t at) {
  return static_cast<unsigned char>(b[at]) | static_cast<unsigned char>(b[at + 1]) << 8;
}
std::uint32_t u32(std::string_view b, std::size_t at) {
  return u16(b, at) | u16(b, at + 2) << 16;
}

bool read_range(const fs::path& file, std::uint64_t offset, std::uint64_t size, std::string& out) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  in.seekg(static_cast<std::streamoff>(offset));
  out.assign(size, '\0');
  in.read(out.data(), static_cast<std::streamsize>(size));
  return static_cast<std::uint64_t>(in.gcount()) == size;
}

void split_entries(const std::string& text, std::vector<fs::path>& out) {
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find(':', start);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(start, end - start);
    if (part == "*" || part.ends_with("/*")) {
      // A wildcard: every .jar in the folder, in name order (java's order is unspecified).
      const fs::path dir = part == "*" ? fs::path(".") : fs::path(part.substr(0, part.size() - 2));
      std::error_code ec;
      std::set<fs::path> jars;
      for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".jar" || e.path().extension() == ".JAR") jars.insert(e.path());
      out.insert(out.end(), jars.begin(), jars.end());
    } else if (!part.empty()) {
      out.emplace_back(part);
    }
    start = end + 1;
  }
}

}  // namespace

util::Result<CentralDirectory> find_central_directory(std::string_view tail) {
  if (tail.size() < 22) return util::fail(Errc::malformed, "not a zip file (too short)");
  const std::size_t lowest = tail.size() > 22 + 65535 ? tail.size() - 22 - 65535 : 0;
  for (std::size_t i = tail.size() - 22 + 1; i-- > lowest;) {
    if (u32(tail, i) != 0x06054b50) continue;
    CentralDirectory cd{u32(tail, i + 16), u32(tail, i + 12), u16(tail, i + 10)};
    if (cd.offset == 0xffffffffu || cd.size == 0xffffffffu || cd.entries == 0xffffu)
      return util::fail(Errc::unsupported, "zip64 archives are not read");
    return cd;
  }
  return util::fail(Errc::malformed, "not a zip file (no end of central directory)");
}

util::Result<std::vector<std::string>> central_directory_names(std::string_view cd, std::size_t entries) {
  std::vector<std::string> names;
  std::size_t at = 0;
  for (std::size_t n = 0; n < entries; ++n) {
    if (at + 46 > cd.size() || u32(cd, at) != 0x02014b50) return util::fail(Errc::malformed, "zip: bad central directory");
    const std::size_t name_len = u16(cd, at + 28), extra = u16(cd, at + 30), comment = u16(cd, at + 32);
    if (at + 46 + name_len > cd.size()) return util::fail(Errc::malformed, "zip: bad central directory name");
    names.emplace_back(cd.substr(at + 46, name_len));
    at += 46 + name_len + extra + comment;
  }
  return names;
}

ClasspathIndex::ClasspathIndex(const std::vector<std::string>& entries) {
  for (const auto& e : entries) split_entries(e, entries_);
}

const std::set<std::string>& ClasspathIndex::jar_names(const fs::path& jar) {
  if (auto it = jars_.find(jar); it != jars_.end()) return it->second;
  auto& names = jars_[jar];
  std::error_code ec;
  const std::uint64_t size = fs::file_size(jar, ec);
  if (ec) return names;
  const std::uint64_t tail_size = std::min<std::uint64_t>(size, 22 + 65535);
  std::string tail, cd_bytes;
  if (!read_range(jar, size - tail_size, tail_size, tail)) return names;
  auto cd = find_central_directory(tail);
  if (!cd || cd->size > max_central_directory_bytes_ || cd->offset + cd->size > size) return names;
  if (!read_range(jar, cd->offset, cd->size, cd_bytes)) return names;
  if (auto list = central_directory_names(cd_bytes, cd->entries)) names.insert(list->begin(), list->end());
  return names;
}

bool ClasspathIndex::has_class(std::string_view binary_name) {
  if (auto it = answers_.find(binary_name); it != answers_.end()) return it->second;
  std::string file(binary_name);
  for (auto& c : file)
    if (c == '.') c = '/';
  file += ".class";
  bool found = false;
  for (const auto& entry : entries_) {
    std::error_code ec;
    if (fs::is_directory(entry, ec)) found = fs::is_regular_file(entry / file, ec);
    else if (fs::is_regular_file(entry, ec)) found = jar_names(entry).contains(file);
    if (found) break;
  }
  answers_.emplace(std::string(binary_name), found);
  return found;
}

}  // namespace flakescan::report
