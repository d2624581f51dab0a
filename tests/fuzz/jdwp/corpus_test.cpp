// Replays the fuzz seed corpus (tests/fixtures/jdwp/corpus) through the fuzz entry point in
// every build, so that the corpus is exercised even where libFuzzer is not available.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz_one.hpp"

TEST_CASE("the decoder fuzz corpus replays without a property violation", "[jdwp][fuzz]") {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(FLAKESCAN_SOURCE_DIR "/tests/fixtures/jdwp/corpus")) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(entry.path().filename().string());
    CHECK(flakescan::jdwp::fuzz::fuzz_one(bytes.data(), bytes.size()));
    // Every prefix is an input too: truncation must never break a property.
    for (std::size_t n = 0; n < bytes.size(); n += 7) CHECK(flakescan::jdwp::fuzz::fuzz_one(bytes.data(), n));
    ++files;
  }
  CHECK(files >= 10);
}
