#pragma once
// Which test methods change static state, read from their bytecode: for the suite's round that
// runs them last in their class (docs/suite.md), so that what they leave behind reaches the
// next classes instead of being reset by their own class's later tests. Pure: class files in
// (through a lookup), names out.
//
// A method changes static state when its code
//   - writes a static field (putstatic) outside a static initialiser,
//   - calls a mutator (is_mutator_name) on a value read from a static field, or
//   - calls one of the JDK's global setters (System.setProperty, clearProperty, setProperties,
//     setOut, setErr, setIn; Locale.setDefault; TimeZone.setDefault),
// or calls a method that does, in a class the lookup knows, up to `depth` calls away. A test
// `pkg.Class#m` is its method `m` and the lambdas javac made of its body (call_reach.hpp).
#include <set>
#include <string>
#include <vector>

#include "classfile/call_reach.hpp"

namespace flakescan::classfile {

// The ids of `tests` whose method changes static state. Malformed bytecode counts as no change.
std::set<std::string> static_writers(const std::vector<std::string>& tests, const ClassLookup& lookup, int depth = 3);

}  // namespace flakescan::classfile
