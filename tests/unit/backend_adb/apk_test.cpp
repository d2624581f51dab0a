#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backend/adb/apk.hpp"
#include "support/fake_adb/apk_builder.hpp"

using namespace flakescan::backend::adb;
using flakescan::util::Errc;

TEST_CASE("package name from APKs: deflated or stored, UTF-16 or UTF-8 string pool", "[backend_adb][apk]") {
  for (bool deflate : {true, false})
    for (bool utf8 : {true, false}) {
      INFO("deflate=" << deflate << " utf8=" << utf8);
      CHECK(*apk_package(flakescan::test::build_apk("com.example.app", deflate, utf8)) == "com.example.app");
    }
}

TEST_CASE("broken APKs are errors, never crashes", "[backend_adb][apk]") {
  CHECK(apk_package("").error().code == Errc::malformed);
  CHECK(apk_package("PK\3\4 not really a zip at all, just some bytes").error().code == Errc::malformed);
  auto no_manifest = flakescan::test::build_zip({{"classes.dex", "dex", false}});
  CHECK(apk_package(no_manifest).error().code == Errc::not_found);
  auto text_manifest = flakescan::test::build_zip({{"AndroidManifest.xml", "<manifest package=\"a.b\"/>", false}});
  CHECK(apk_package(text_manifest).error().code == Errc::malformed);
  // A package attribute that would be a shell injection is refused by the grammar.
  CHECK(apk_package(flakescan::test::build_apk("com.x;reboot")).error().code == Errc::invalid_argument);
  // Every truncation of a valid APK fails cleanly.
  std::string apk = flakescan::test::build_apk("com.example.app");
  for (std::size_t cut = 0; cut < apk.size(); cut += 3) CHECK_FALSE(apk_package(apk.substr(0, cut)).has_value());
  // Every single-byte corruption of the manifest either still parses or fails cleanly.
  std::string axml = flakescan::test::build_axml("com.example.app");
  for (std::size_t i = 0; i < axml.size(); ++i) {
    std::string bad = axml;
    bad[i] = char(0xFF);
    auto r = axml_package(bad);
    if (r) CHECK_FALSE(r->empty());
  }
}

TEST_CASE("an APK zipped by Info-ZIP (`zip -9`) reads the same", "[backend_adb][apk]") {
  if (std::system("command -v zip >/dev/null 2>&1") != 0) {
    WARN("`zip` not installed (Debian package zip): skipped the Info-ZIP cross-check");
    return;
  }
  std::string dir = std::string(FLAKESCAN_BINARY_DIR) + "/apk_test_zip";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream m(dir + "/AndroidManifest.xml", std::ios::binary);
    m << flakescan::test::build_axml("org.example.zipped");
    std::ofstream d(dir + "/classes.dex", std::ios::binary);
    d << std::string(4096, 'd');
  }
  REQUIRE(std::system(("cd " + dir + " && zip -q -9 app.apk classes.dex AndroidManifest.xml").c_str()) == 0);
  CHECK(*apk_package_from_file(dir + "/app.apk") == "org.example.zipped");
}
