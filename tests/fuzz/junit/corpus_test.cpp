// Replays the JUnit XML importer's fuzz seed corpus (tests/fixtures/junit/corpus) through the
// fuzz entry in every build.
#include "fuzz/corpus_replay.hpp"

#include "fuzz_one.hpp"

TEST_CASE("the JUnit XML import fuzz corpus replays without a property violation", "[report][fuzz]") {
  int files = flakescan::fuzz::replay_corpus(FLAKESCAN_SOURCE_DIR "/tests/fixtures/junit/corpus",
                                             flakescan::report::fuzz::fuzz_one, 11);
  CHECK(files >= 7);
}
