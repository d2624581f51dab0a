#pragma once
// Failure signatures group failures that have the same cause: the exception type plus the
// first frames of the stack that lie in the test's own class (nested classes included),
// e.g. "java.lang.AssertionError at demo.AsyncTest.waitsForResult:31".
#include <string>
#include <string_view>

namespace flakescan::core {

std::string failure_signature(std::string_view exception_type, std::string_view stack,
                              std::string_view test_id, int frames = 2);

}  // namespace flakescan::core
