// Replays the API body fuzz seed corpus (tests/fixtures/api/corpus: byte 0 the route, then a
// JSON body) through the fuzz entry in every build.
#include "fuzz/corpus_replay.hpp"

#include "fuzz_one.hpp"
#include "scan/technique_table.hpp"

TEST_CASE("the API body fuzz corpus replays without a property violation", "[api][fuzz]") {
  int files = flakescan::fuzz::replay_corpus(FLAKESCAN_SOURCE_DIR "/tests/fixtures/api/corpus",
                                             flakescan::api::fuzz::fuzz_one, 5);
  CHECK(files >= 8);
}

TEST_CASE("the API fuzzer knows the daemon's technique names", "[api][fuzz]") {
  auto names = flakescan::scan::technique_names();
  auto fuzzed = flakescan::api::fuzz::technique_names();
  std::sort(names.begin(), names.end());
  std::sort(fuzzed.begin(), fuzzed.end());
  CHECK(names == fuzzed);
}
