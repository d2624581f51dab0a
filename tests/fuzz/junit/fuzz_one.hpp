#pragma once
// One fuzz input through the JUnit XML importer (report/junit_import.hpp, POST /v1/results);
// shared by the libFuzzer target and the corpus replay test. Returns false when a property
// breaks.
#include <cstddef>
#include <cstdint>

namespace flakescan::report::fuzz {

// Input: a JUnit XML document. Properties: no crash (deep nesting included: the XML parser
// recurses), and what imports is sane: ids "Class#method", durations finite and not
// negative, messages one line within the size cap, attempts counted from 0.
bool fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace flakescan::report::fuzz
