// Untrusted input never crashes the importers or the analysis: mutated and truncated archives
// of the fixtures go through load_trace_archive and analyze in both modes.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tarpit/analysis.hpp"
#include "tarpit/load.hpp"
#include "tarpit/tar.hpp"

using namespace flakescan::tarpit;
namespace fs = std::filesystem;

TEST_CASE("mutated archives of the fixtures are reported, never fatal", "[tarpit][robustness]") {
  const auto fixtures = fs::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/tarpit";
  std::vector<std::pair<std::string, std::string>> files;
  for (const char* dir : {"toller-small", "recorded-small"}) {
    DiskTraceFiles disk(fixtures / dir);
    for (const auto& n : disk.names()) files.emplace_back(std::string(dir) + "/" + n, *disk.read(n));
  }
  const auto archive = write_tar(files);
  std::uint64_t seed = 99;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  int loaded = 0, analysed = 0;
  for (int round = 0; round < 400; ++round) {
    auto bytes = archive;
    const int flips = 1 + int(next() % 8);
    for (int k = 0; k < flips; ++k) {
      // Mostly in member data (past the first header), where checksums do not catch it.
      auto pos = std::size_t(next() % bytes.size());
      bytes[pos] = static_cast<char>(next() & 0xff);
    }
    if (round % 5 == 0) bytes.resize(std::size_t(next() % bytes.size()));
    auto traces = load_trace_archive(bytes);
    if (!traces) continue;
    ++loaded;
    for (const auto& t : *traces)
      for (auto mode : {Mode::standard, Mode::vet_compatible}) {
        auto a = analyze(t, Options::for_mode(mode));
        analysed += a.usable;
      }
  }
  CHECK(loaded > 0);
  CHECK(analysed > 0);
}
