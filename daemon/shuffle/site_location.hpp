#pragma once
// Which call site's shuffle makes an implementation-dependent test fail (NonDex's debug mode,
// by call site instead of by call count): delta debugging (order/ddmin.hpp) over the sites the
// failing run shuffled, each probe a run of the test alone under the same seed and mode with
// only a subset of the sites shuffled. A site's permutations depend only on the seed, its key
// and its own call count, so a subset reproduces the same permutations at the sites it keeps.
// The result is 1-minimal: usually one site; when several are needed together, all of them.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::shuffle {

struct Located {
  std::vector<core::ShuffledSite> sites;  // the minimal set whose shuffle alone fails the test
  std::int64_t run = 0;                   // a run that shuffled only those and failed (0: none made)
  int runs = 0;                           // runs made to find them
  bool complete = true;                   // false: stopped early (`stopped` says why); `sites` still fail
  std::string stopped;
};

// `failing`: the seed and mode the test failed under, every site shuffled; `shuffled`: the
// sites that run permuted. Errors only when a run could not be made at all.
util::Result<Located> locate_sites(const std::string& test, const core::ShuffleSpec& failing,
                                   const std::vector<core::ShuffledSite>& shuffled, core::RunLog& log, int max_runs);

// A stack frame as the shuffling JDK writes it: "pkg.Outer$Inner.method(File.java:41)".
struct Frame {
  std::string class_name;  // "pkg.Outer$Inner"
  std::string method;
  std::string file;        // "File.java"; empty when unknown
  int line = 0;            // 0 when unknown
};
std::optional<Frame> parse_frame(const std::string& text);

// The first of the site's frames whose class has a source file (`source_of` answers with its
// path, or nullopt): the line of the project's own code that reads the order. nullopt when
// none has one.
struct UserFrame {
  Frame frame;
  std::string text;         // the frame as written
  std::string source_path;  // what source_of answered
};
std::optional<UserFrame> user_frame(const core::ShuffledSite& site,
                                    const std::function<std::optional<std::string>(const std::string& class_name)>& source_of);

}  // namespace flakescan::shuffle
