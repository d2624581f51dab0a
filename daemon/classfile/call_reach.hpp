#pragma once
// Which test methods do something, read from their bytecode: a test `pkg.Class#m` is its method
// `m` and the lambdas javac made of its body, and it does what one of those methods does in its
// own code, or what a method it calls does, in a class the lookup knows, up to `depth` calls
// away. What "does" means is the caller's (`Direct`): static_writers.hpp (changes static
// state) and random_or_clock.hpp (draws a random number or reads the clock) are the two. Pure:
// class files in (through a lookup), names out.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "classfile/bytecode.hpp"
#include "classfile/classfile.hpp"

namespace flakescan::classfile {

// The class by internal name ("pkg/Class"), or null when it is not known (a JDK or jar class:
// not followed).
using ClassLookup = std::function<const ClassFile*(const std::string& internal_name)>;

// Whether one method's own code does the thing (its calls are followed by the walk, not here).
using Direct = std::function<bool(const MethodSummary&)>;

// What runs of a test besides its method: with `with_setup`, what JUnit runs before each test
// too (the test class's constructors, which hold its field initialisers, and its and its known
// superclasses' @Before and @BeforeEach methods), for a question about what one execution
// does; without it, the test's own method only, for a question about what the test itself
// leaves behind (a class whose @Before resets a static field does not make every test of it a
// writer).
enum class Roots { test_method, with_setup };

// The ids of `tests` that do it. Static initialisers are not followed (they run once per JVM,
// whichever test comes first); a call cycle and malformed bytecode count as not doing it.
std::set<std::string> tests_reaching(const std::vector<std::string>& tests, const ClassLookup& lookup, int depth,
                                     const Direct& direct, Roots roots = Roots::test_method);

}  // namespace flakescan::classfile
