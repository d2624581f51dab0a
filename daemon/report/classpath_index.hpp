#pragma once
// Which classes a project's test classpath holds, so the @FlakyTest patch only uses annotations
// the project can compile against (flaky_annotation.hpp). Entries are directories of classes,
// jars (zip files: only their central directory is read) and `dir/*` wildcards (every jar in
// dir, as `java -cp` reads them). An entry that does not exist, or a jar that cannot be read
// (not a zip, zip64, over the caps), holds nothing. Directory lookups and jar listings are
// done on first use and memoised. Not thread-safe (one index per report run).
//
// Zip end of central directory (EOCD), last 22 bytes + comment (<= 65535):
//   +------------+-----+-----+---------+---------+-----------+-----------+-------------+
//   | 0x06054b50 | disk| cd  | n here  | n total | cd size   | cd offset | comment len |
//   |    u32     | u16 | u16 |   u16   |   u16   |   u32     |   u32     |    u16      |
//   +------------+-----+-----+---------+---------+-----------+-----------+-------------+
// Central directory entry: 0x02014b50 u32, ... name length u16 at +28, extra u16 at +30,
// comment u16 at +32, name at +46.  (little-endian)
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::report {

struct CentralDirectory {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::size_t entries = 0;
};

// Pure: the central directory's place, from the last bytes of a zip file (at most
// 22 + 65535 of them are needed).
util::Result<CentralDirectory> find_central_directory(std::string_view tail);
// Pure: the entry names of a central directory's bytes.
util::Result<std::vector<std::string>> central_directory_names(std::string_view cd, std::size_t entries);

class ClasspathIndex {
 public:
  ClasspathIndex() = default;  // unknown: nothing was said about the classpath
  // `entries` as given to --classpath (each may itself hold several, ':'-separated).
  explicit ClasspathIndex(const std::vector<std::string>& entries);

  // False when no classpath was given: then nothing can be said about what it holds.
  bool known() const { return !entries_.empty(); }
  // "pkg.Outer" or "pkg.Outer$Inner".
  bool has_class(std::string_view binary_name);

 private:
  const std::set<std::string>& jar_names(const std::filesystem::path& jar);

  std::vector<std::filesystem::path> entries_;
  std::map<std::filesystem::path, std::set<std::string>> jars_;
  std::map<std::string, bool, std::less<>> answers_;
  static constexpr std::uint64_t max_central_directory_bytes_ = 64u << 20;
};

}  // namespace flakescan::report
