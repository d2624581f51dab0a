#pragma once
// The patch `repair` offers: statements at the start of the victim's method body, as the
// patched file's lines and a unified diff against the real source file. Pure: text in, text
// out. The caller compiles and verifies the result; a patch that did not verify is not
// offered.
#include <string>
#include <vector>

#include "util/error.hpp"

namespace flakescan::repair {

struct MethodPatch {
  std::vector<std::string> lines;  // the whole patched file
  std::string diff;                // "--- a/<path>" ... ; applies with git apply / patch -p1
};

// `method` may carry a parameter suffix ("name[1]"), dropped. The statements go on the lines
// after the method body's opening brace, indented one level deeper than the declaration, after
// a comment that says why. Errors: not_found (no such method), unsupported (the body opens and
// closes on one line, or no brace follows the declaration within 20 lines).
util::Result<MethodPatch> insert_at_method_start(const std::vector<std::string>& lines, const std::string& method,
                                                 const std::string& path, const std::string& comment,
                                                 const std::vector<std::string>& statements);

}  // namespace flakescan::repair
