// Replays the ADB host-protocol fuzz seed corpus (tests/fixtures/adb/host_corpus) through the
// fuzz entry in every build, so that the corpus is exercised even where libFuzzer is not.
#include "fuzz/corpus_replay.hpp"

#include "fuzz_one.hpp"

TEST_CASE("the adb host-protocol fuzz corpus replays without a property violation", "[adb][fuzz]") {
  int files = flakescan::fuzz::replay_corpus(FLAKESCAN_SOURCE_DIR "/tests/fixtures/adb/host_corpus",
                                             flakescan::adb_protocol::fuzz::fuzz_one, 1);
  CHECK(files >= 8);
}
