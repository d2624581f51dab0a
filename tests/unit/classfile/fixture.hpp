#pragma once
// The Java fixture compiled at build time (fixture/registry/Registry.java).
#include <catch2/catch.hpp>

#include <filesystem>
#include <vector>

#include "classfile/classfile.hpp"
#include "classfile/classpath.hpp"

namespace flakescan::classfile::test {

inline Bytes fixture_bytes(std::string_view name) {
  std::vector<std::filesystem::path> classpath{FLAKESCAN_CLASSFILE_FIXTURE_DIR};
  auto bytes = read_class_bytes(classpath, name);
  REQUIRE(bytes);
  return *bytes;
}

inline ClassFile fixture_class(std::string_view name) {
  auto parsed = parse_class(fixture_bytes(name));
  if (!parsed) FAIL(parsed.error().message);
  return *parsed;
}

inline const Member& method(const ClassFile& c, std::string_view name) {
  const Member* m = c.find_method(name);
  REQUIRE(m);
  REQUIRE(m->code);
  return *m;
}

}  // namespace flakescan::classfile::test
