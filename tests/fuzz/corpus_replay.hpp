#pragma once
// The corpus replay every build runs for each fuzz target (tests/fuzz/<area>/corpus_test.cpp):
// every file of the seed corpus, and every prefix of it in steps of `step` bytes (a cut-off
// input must never break a property either), through the target's fuzz_one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace flakescan::fuzz {

template <class FuzzOne>
int replay_corpus(const std::filesystem::path& dir, FuzzOne fuzz_one, std::size_t step = 7) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(path.filename().string());
    CHECK(fuzz_one(bytes.data(), bytes.size()));
    for (std::size_t n = 0; n < bytes.size(); n += std::max<std::size_t>(1, step)) {
      INFO("prefix of " << n << " bytes");
      CHECK(fuzz_one(bytes.data(), n));
    }
  }
  return int(files.size());
}

}  // namespace flakescan::fuzz
