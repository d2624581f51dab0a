#pragma once
// The patch `repair` offers: statements at the start of the victim's method body (or in an
// instance initializer of its class), as the patched file's lines and a unified diff against the real source file. Pure: text in, text
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

// The same statements in an instance initializer block at the top of the class body: Java runs
// instance initializers and field initializers in textual order, so the block runs before
// the test class's field initializers and its @Before/@BeforeEach methods, for every test
// (JUnit makes an instance per test). For victims whose state is read while the test instance
// is built. `class_name` is the binary name ("pkg.Outer$Inner": the class Inner). Errors:
// not_found (no declaration of the class), unsupported (its body does not open at the end of
// a line within 20 lines of the declaration).
util::Result<MethodPatch> insert_at_class_start(const std::vector<std::string>& lines, const std::string& class_name,
                                                const std::string& path, const std::string& comment,
                                                const std::vector<std::string>& statements);

}  // namespace flakescan::repair
