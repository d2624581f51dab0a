#pragma once
// The Java fixture compiled at build time (fixture/registry/Registry.java).
#include <catch2/catch.hpp>

#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "classfile/call_reach.hpp"
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

// A lookup of the fixture classes `names` ("registry.WritersTest"), parsed into `loaded`.
inline ClassLookup fixture_lookup(std::map<std::string, ClassFile>& loaded, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    auto c = fixture_class(name);
    loaded.emplace(c.name, c);
  }
  return [&loaded](const std::string& name) -> const ClassFile* {
    auto it = loaded.find(name);
    return it == loaded.end() ? nullptr : &it->second;
  };
}

}  // namespace flakescan::classfile::test
