#pragma once
// The shuffling JDK of technique `shuffle` (docs/shuffle.md): a copy of the project's JDK whose
// unspecified orders (HashMap iteration, getDeclaredMethods, File.list, ...) come out as
// seeded permutations once the runner starts shuffling. It is made from the JDK the tests run
// on, by daemon/shuffling_jdk's Prepare program (patched java.base classes, and a jlinked
// image with its own class data archive when the JDK has jmods), never shipped.
//
// Policy: one preparation per (JDK, Prepare jar) on this machine, in a cache folder shared by
// every daemon and scan (`<cache>/<key>/`, key: the java binary's real path, the JDK's
// `release` file, its `lib/modules` size and time, and the bytes of the Prepare jar). A file
// lock (`<key>.lock`) makes the first caller prepare while others, in this process or another,
// wait for it; the result is published by renaming a finished folder into place, so a folder
// that exists is whole. A preparation that failed is not tried again by this object (its
// message is returned to every later caller). Thread-safe.
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "util/error.hpp"

namespace flakescan::backend {

struct ShufflingJdkConfig {
  std::string java = "java";                  // the JDK the tests run on
  std::filesystem::path prepare_jar;          // flakescan-shuffling-jdk.jar
  std::vector<std::string> asm_jars;          // Debian's ASM jars Prepare needs
  std::filesystem::path cache_dir;            // shared by every daemon on the machine
  int prepare_timeout_s = 900;
};

struct ShufflingJava {
  std::string java;                    // the launcher to start shuffled runs with
  std::vector<std::string> jvm_args;   // what it needs besides (--patch-module without an image)
  bool image = false;                  // a jlinked image (keeps class data sharing)
  std::string description;             // "OpenJDK 17.0.15 (/usr/lib/jvm/...), jlinked image"
};

// Where the cache goes by default: $FLAKESCAN_CACHE_DIR, else $XDG_CACHE_HOME/flakescan, else
// ~/.cache/flakescan, each with "/shuffling-jdk" appended.
std::filesystem::path default_shuffling_jdk_cache();

class ShufflingJdk {
 public:
  explicit ShufflingJdk(ShufflingJdkConfig config) : config_(std::move(config)) {}

  // The prepared JDK, preparing it first when this machine has none for this JDK yet.
  util::Result<ShufflingJava> get();

 private:
  util::Result<ShufflingJava> prepare();
  ShufflingJdkConfig config_;
  std::mutex mutex_;
  std::optional<util::Result<ShufflingJava>> result_;
};

}  // namespace flakescan::backend
