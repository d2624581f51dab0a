#include <catch2/catch.hpp>

#include "core/signature.hpp"

using flakescan::core::failure_signature;

namespace {
const char* stack =
    "java.lang.AssertionError: expected:<42> but was:<0>\n"
    "\tat org.junit.Assert.fail(Assert.java:89)\n"
    "\tat org.junit.Assert.assertEquals(Assert.java:633)\n"
    "\tat demo.AsyncTest.check(AsyncTest.java:40)\n"
    "\tat demo.AsyncTest.waitsForResult(AsyncTest.java:31)\n"
    "\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n";
}

TEST_CASE("signatures keep the exception type and the test's own frames", "[core][signature]") {
  auto sig = failure_signature("java.lang.AssertionError", stack, "demo.AsyncTest#waitsForResult");
  CHECK(sig == "java.lang.AssertionError at demo.AsyncTest.check:40 < demo.AsyncTest.waitsForResult:31");
}

TEST_CASE("signatures ignore other classes with a common prefix", "[core][signature]") {
  auto sig = failure_signature("java.lang.IllegalStateException",
                               "x\n\tat demo.AsyncTestHelper.go(A.java:3)\n\tat demo.AsyncTest$1.run(AsyncTest.java:9)\n",
                               "demo.AsyncTest#m", 2);
  CHECK(sig == "java.lang.IllegalStateException at demo.AsyncTest$1.run:9");
}

TEST_CASE("signatures differ when the failing line differs", "[core][signature]") {
  auto a = failure_signature("E", "\tat p.T.m(T.java:1)\n", "p.T#m");
  auto b = failure_signature("E", "\tat p.T.m(T.java:2)\n", "p.T#m");
  CHECK(a != b);
  CHECK(failure_signature("", "", "p.T#m") == "unknown");
}
