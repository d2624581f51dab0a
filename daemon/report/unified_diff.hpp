#pragma once
// Reads a unified diff (as git diff, diff -u and the report's own patches write it) back into
// the changes it makes, per file: the shape a SARIF fix (§3.55, artifactChanges[].replacements[])
// needs. Pure: no file system.
#include <string>
#include <string_view>
#include <vector>

#include "util/error.hpp"

namespace flakescan::report {

// One run of changed lines: `deleted_lines` lines of the old file starting at `start_line`
// (1-based) replaced by `inserted`. A pure insertion has deleted_lines == 0 and goes in front
// of old line start_line (old line count + 1 when appended at the end).
struct DiffReplacement {
  long start_line = 1;
  long deleted_lines = 0;
  std::string inserted;  // the added lines, each ending in "\n" (but one marked "\ No newline at end of file")
};

struct DiffFile {
  std::string old_path;  // "a/" and "b/" cut off; "/dev/null" for a new file
  std::string new_path;  // "/dev/null" for a deleted file
  std::vector<DiffReplacement> replacements;  // in file order
  // The path the diff changes: new_path, or old_path for a deleted file.
  const std::string& path() const { return new_path == "/dev/null" ? old_path : new_path; }
};

// Every file section of the diff in order; "diff --git", "index" and other header lines are
// skipped. malformed: a hunk header that does not parse, or a hunk with fewer or more lines
// than its header counts.
util::Result<std::vector<DiffFile>> parse_unified_diff(std::string_view diff);

}  // namespace flakescan::report
