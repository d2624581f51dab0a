#pragma once
// Reads the package name out of an APK without aapt: an APK is a zip; its
// AndroidManifest.xml is binary XML (AXML). We read the zip central directory, inflate the
// manifest (stored or deflate, via Boost.Beast's zlib), then walk AXML chunks: the string
// pool and the first start tag <manifest>, whose `package` attribute is the answer.
// Sizes are capped; malformed input is an error, never a crash.
//
// AXML chunk:    +-----------+-----------------+-----------+---------------+
//                | type: u16 | header size u16 | size: u32 | body ...      |  (little-endian)
//                +-----------+-----------------+-----------+---------------+
//   0x0003 XML file (outer)  0x0001 string pool  0x0180 resource map  0x0102 start tag
// Start tag body: line u32, comment u32, ns u32, name u32, attrStart u16, attrSize u16,
//   attrCount u16, ...; attribute: ns u32, name u32, rawValue u32, size u16, 0 u8, type u8, data u32.
#include <span>
#include <string>
#include <string_view>

#include "util/error.hpp"

namespace flakescan::backend::adb {

constexpr std::size_t max_manifest_bytes = 8 << 20;

// The bytes of one zip entry (stored or deflated).
util::Result<std::string> zip_entry(std::string_view zip, std::string_view name);
// The `package` attribute of <manifest> in a binary AndroidManifest.xml.
util::Result<std::string> axml_package(std::string_view axml);
// zip_entry(apk, "AndroidManifest.xml") + axml_package, then checked against the package grammar.
util::Result<std::string> apk_package(std::string_view apk_bytes);
util::Result<std::string> apk_package_from_file(const std::string& path);

}  // namespace flakescan::backend::adb
