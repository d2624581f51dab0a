// libFuzzer entry point (clang only; cmake/fuzz.cmake).
#include <cstdlib>

#include "fuzz_one.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!flakescan::adb_protocol::fuzz::fuzz_one(data, size)) std::abort();
  return 0;
}
