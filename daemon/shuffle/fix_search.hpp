#pragma once
// Step 5 of technique `shuffle`: a verified fix for a located implementation-dependent test.
// The candidates are the known small repairs of the lines the order flows through
// (order_fix.hpp), in the project's own source files that the located site's frames name;
// each is compiled with javac against the test classpath and run, patched (in front of the
// classpath), on the plain JDK, under every seed the test failed with and under two new ones.
// The first that passes all of them, and leaves the scan's other tests passing (one JVM of
// them all with the patch, on the plain JDK, against one without it when some fail), is
// kept; a candidate that did not is never offered.
// Verification runs change the program, so they are recorded as interventions
// (core::intervention_technique) and decide nothing about flakiness.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/technique.hpp"
#include "report/source_locator.hpp"
#include "shuffle/site_location.hpp"

namespace flakescan::shuffle {

struct FixResult {
  bool verified = false;
  std::string kind;         // order_fix.hpp's kinds
  std::string description;  // what the fix does, and where
  std::string diff;         // applies with git apply / patch -p1 from the project folder
  std::string path;         // the file it changes, relative to the project folder
  std::int64_t verified_by_run = 0;  // the patched test passing under the first failing seed
  int tried = 0;
  std::string why_not;      // when none verified: each candidate and why it was refused
};

class FixSearch {
 public:
  FixSearch(const core::TechniqueInput& input, core::RunLog& log, int max_tried);

  // The first frame of the site in the project's sources (under the scan's source roots, or
  // its project folder).
  std::optional<UserFrame> user_frame_of(const core::ShuffledSite& site);

  FixResult find(const std::string& test, const Located& located, const std::vector<std::uint64_t>& failing_seeds,
                 const std::vector<std::uint64_t>& fresh_seeds, const std::string& mode,
                 const std::vector<std::string>& bystanders);

 private:
  // The project-relative path of a source file (the absolute one when outside the project).
  std::string relative(const std::string& path) const;
  // Empty when the patched file passed every check; else why not.
  std::string verify(const std::string& test, const std::string& file_name, const std::vector<std::string>& lines,
                     const std::vector<std::uint64_t>& seeds, const std::string& mode, const std::vector<std::string>& bystanders,
                     std::int64_t& verified_by_run);
  // Empty when the patch (classes in `prepend`) fails none of `bystanders` that pass without it.
  std::string breaks_others(const std::string& test, const std::vector<std::string>& prepend, const std::vector<std::string>& bystanders);

  const core::TechniqueInput& input_;
  core::RunLog& log_;
  int max_tried_;
  report::SourceLocator locator_;
};

}  // namespace flakescan::shuffle
