// The classpath index: class directories, jars (central directory only), wildcards, and what
// an unreadable entry holds (nothing).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "report/classpath_index.hpp"

using namespace flakescan::report;
namespace fs = std::filesystem;

namespace {

void put_u16(std::string& b, unsigned v) { b += static_cast<char>(v & 0xff), b += static_cast<char>(v >> 8 & 0xff); }
void put_u32(std::string& b, unsigned v) { put_u16(b, v & 0xffff), put_u16(b, v >> 16); }

// A zip whose central directory names `names` (no entry data: only the directory is read),
// with a comment after the end record as some tools write.
std::string zip_with(const std::vector<std::string>& names, const std::string& comment = "") {
  std::string cd;
  for (const auto& n : names) {
    put_u32(cd, 0x02014b50);
    cd.append(24, '\0');  // versions, flags, method, time, date, crc, sizes
    put_u16(cd, static_cast<unsigned>(n.size()));
    put_u16(cd, 0), put_u16(cd, 0), put_u16(cd, 0), put_u16(cd, 0);
    put_u32(cd, 0), put_u32(cd, 0);
    cd += n;
  }
  std::string zip = "leading bytes";
  const auto offset = static_cast<unsigned>(zip.size());
  zip += cd;
  put_u32(zip, 0x06054b50);
  put_u16(zip, 0), put_u16(zip, 0);
  put_u16(zip, static_cast<unsigned>(names.size())), put_u16(zip, static_cast<unsigned>(names.size()));
  put_u32(zip, static_cast<unsigned>(cd.size())), put_u32(zip, offset);
  put_u16(zip, static_cast<unsigned>(comment.size()));
  return zip + comment;
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("flakescan_cp_" + std::to_string(::getpid()));
  TempDir() { fs::remove_all(path), fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  fs::path write(const std::string& rel, const std::string& bytes) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel, std::ios::binary) << bytes;
    return path / rel;
  }
};

}  // namespace

TEST_CASE("the central directory of a zip gives its entry names", "[report][classpath]") {
  const auto zip = zip_with({"META-INF/MANIFEST.MF", "androidx/test/filters/FlakyTest.class"}, "a comment");
  auto cd = find_central_directory(zip);
  REQUIRE(cd);
  CHECK(cd->entries == 2);
  CHECK(cd->offset == std::string("leading bytes").size());
  auto names = central_directory_names(std::string_view(zip).substr(cd->offset, cd->size), cd->entries);
  REQUIRE(names);
  CHECK(*names == std::vector<std::string>{"META-INF/MANIFEST.MF", "androidx/test/filters/FlakyTest.class"});

  CHECK(find_central_directory("not a zip at all, but long enough").error().code == flakescan::util::Errc::malformed);
  CHECK(!central_directory_names(std::string_view(zip).substr(cd->offset, cd->size - 1), cd->entries));
  CHECK(!central_directory_names("PK\x01\x02 short", 1));
}

TEST_CASE("a classpath holds the classes of its directories and jars", "[report][classpath]") {
  TempDir t;
  t.write("classes/com/example/FlakyTests.class", "");
  t.write("libs/runner.jar", zip_with({"androidx/", "androidx/test/filters/FlakyTest.class"}));
  t.write("libs/other.jar", zip_with({"org/junit/jupiter/api/Tag.class"}));
  t.write("broken.jar", "PK but not a zip");

  ClasspathIndex cp({(t.path / "classes").string() + ":" + (t.path / "broken.jar").string() + ":" +
                     (t.path / "missing.jar").string(),
                     (t.path / "libs/runner.jar").string()});
  CHECK(cp.known());
  CHECK(cp.has_class("com.example.FlakyTests"));
  CHECK(cp.has_class("androidx.test.filters.FlakyTest"));
  CHECK_FALSE(cp.has_class("org.junit.jupiter.api.Tag"));  // only in other.jar, not listed
  CHECK_FALSE(cp.has_class("com.example.Missing"));
  CHECK_FALSE(cp.has_class("androidx.test.filters"));     // a folder entry is no class

  ClasspathIndex wildcard({(t.path / "libs").string() + "/*"});
  CHECK(wildcard.has_class("org.junit.jupiter.api.Tag"));
  CHECK(wildcard.has_class("androidx.test.filters.FlakyTest"));
  CHECK_FALSE(wildcard.has_class("com.example.FlakyTests"));

  CHECK_FALSE(ClasspathIndex().known());
  CHECK_FALSE(ClasspathIndex({"", ":"}).known());
}

TEST_CASE("Debian's JUnit jars are read as they are", "[report][classpath]") {
  // The jars the integration tests compile against (scripts/bootstrap installs them).
  ClasspathIndex junit4({"/usr/share/java/junit4.jar"});
  CHECK(junit4.has_class("org.junit.experimental.categories.Category"));
  CHECK(junit4.has_class("org.junit.runners.Parameterized$Parameters"));
  CHECK_FALSE(junit4.has_class("org.junit.jupiter.api.Tag"));
  ClasspathIndex jupiter({"/usr/share/java/junit-jupiter-api.jar"});
  CHECK(jupiter.has_class("org.junit.jupiter.api.Tag"));
  CHECK_FALSE(jupiter.has_class("androidx.test.filters.FlakyTest"));
}
