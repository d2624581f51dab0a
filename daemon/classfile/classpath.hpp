#pragma once
// Reading a class's bytes by name from a classpath. The only I/O of this library; the
// parser (classfile.hpp) never calls it.
#include <filesystem>
#include <span>
#include <string_view>

#include "classfile/classfile.hpp"

namespace flakescan::classfile {

// Looks `class_name` ("com.example.Registry", "com/example/Registry" or with `$Inner`) up
// in each classpath entry in order and returns the first file's bytes.
// Only directories are searched for now: jar entries are skipped (reading them needs a zip
// reader, not a child process; left for later, issue #15).
// Errors: invalid_argument (empty name, "..", absolute path), not_found, too_large, io.
util::Result<Bytes> read_class_bytes(std::span<const std::filesystem::path> classpath, std::string_view class_name,
                                     const Limits& limits = {});

}  // namespace flakescan::classfile
