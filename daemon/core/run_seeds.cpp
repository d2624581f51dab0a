#include "core/run_seeds.hpp"

namespace flakescan::core {

std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<std::uint64_t> run_seeds(std::uint64_t scan_seed, int n) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < n; ++i) {
    std::uint64_t s = mix64(scan_seed * 0x100000001b3ull + std::uint64_t(i) + 1) >> 16;
    out.push_back(s == 0 ? 1 : s);
  }
  return out;
}

}  // namespace flakescan::core
