#pragma once
// One fuzz input through the `am instrument -r` output parser
// (backend/adb/instrumentation_output.hpp); shared by the libFuzzer target and the corpus
// replay test. Returns false when a property breaks.
#include <cstddef>
#include <cstdint>

namespace flakescan::backend::adb::fuzz {

// Input: byte 0 picks the chunk size the device output arrives in (1..64 bytes); the rest is
// the output. Properties: parsing in chunks gives what parsing the whole text gives, and no
// test ends before it started.
bool fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace flakescan::backend::adb::fuzz
