// Replays the instrumentation-output fuzz seed corpus (tests/fixtures/instrumentation/corpus:
// byte 0 a chunk size, then recorded `am instrument -r` output) through the fuzz entry in
// every build.
#include "fuzz/corpus_replay.hpp"

#include "fuzz_one.hpp"

TEST_CASE("the instrumentation-output fuzz corpus replays without a property violation", "[adb][fuzz]") {
  int files = flakescan::fuzz::replay_corpus(FLAKESCAN_SOURCE_DIR "/tests/fixtures/instrumentation/corpus",
                                             flakescan::backend::adb::fuzz::fuzz_one, 13);
  CHECK(files >= 6);
}
