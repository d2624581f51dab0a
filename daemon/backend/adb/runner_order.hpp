#pragma once
// What a device's test runner lets us choose about order, learnt from what it did.
//
// AndroidJUnitRunner gets `-e class C#m,D#n,...` and decides the order itself: the tests of
// one class run together, in JUnit's method order (deterministic per class, not the order
// listed). A RunSpec asks for an exact order, and techniques reason about that order, so the
// executor runs a spec as consecutive instrumentations ("segments"), each of which the runner
// will execute exactly as listed:
//   * a segment never repeats a test (the runner filters by name);
//   * a class's tests are contiguous in a segment (C, D, C starts a new one at the second C);
//   * two tests of one class appear only in the runner's own relative order, as learnt from
//     earlier instrumentations (discovery with `-e log true` lists every class in that order).
// Each segment is a fresh app process on the device, so in-memory state does not cross a
// segment boundary (state on disk does): that is the platform's truth, not a choice.
//
// Policy: learning only adds pairs "a runs before b" of one class; an observation that
// contradicts an earlier one replaces it (the code changed between runs). Not thread-safe:
// the executor guards it.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace flakescan::backend::adb {

class RunnerOrder {
 public:
  // `executed`: method ids in the order the runner ran them (one instrumentation).
  void learn(const std::vector<std::string>& executed);

  // Splits `tests` into segments the runner will run exactly in the listed order (as far
  // as it is known). Concatenated, the segments are `tests`.
  std::vector<std::vector<std::string>> segments(const std::vector<std::string>& tests) const;

  // Every test its own segment: always faithful, whatever the runner does.
  static std::vector<std::vector<std::string>> singletons(const std::vector<std::string>& tests);

  // True when the requested tests that ran came in the requested order.
  static bool ran_as_listed(const std::vector<std::string>& requested, const std::vector<std::string>& executed);

  bool knows(const std::string& first, const std::string& second) const { return before_.count({first, second}) > 0; }

 private:
  std::set<std::pair<std::string, std::string>> before_;  // (a, b): a runs before b
};

// "pkg.Class#method" -> "pkg.Class" (the whole id when there is no '#').
std::string class_of(const std::string& test);

}  // namespace flakescan::backend::adb
