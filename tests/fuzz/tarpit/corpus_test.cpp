// Replays the UI trace importers' fuzz seed corpus (tests/fixtures/tarpit/corpus: tar archives
// and flattened trace folders, see fuzz_one.hpp) through the fuzz entry in every build.
#include "fuzz/corpus_replay.hpp"

#include "fuzz_one.hpp"

TEST_CASE("the UI trace import fuzz corpus replays without a property violation", "[tarpit][fuzz]") {
  int files = flakescan::fuzz::replay_corpus(FLAKESCAN_SOURCE_DIR "/tests/fixtures/tarpit/corpus",
                                             flakescan::tarpit::fuzz::fuzz_one, 97);
  CHECK(files >= 4);
}
