#pragma once
// One fuzz input through the JDWP decoders; shared by the libFuzzer target and the corpus
// replay test. Returns false when a decoder property is violated (the fuzzer aborts then).
#include <cstddef>
#include <cstdint>

namespace flakescan::jdwp::fuzz {

// Input: byte 0 picks the id sizes (low 3 bits + 1 for object ids, next bits for the
// others), the rest is a stream of packets as a debugger would read it.
bool fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace flakescan::jdwp::fuzz
