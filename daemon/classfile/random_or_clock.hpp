#pragma once
// Which test methods draw a random number or read the clock, read from their bytecode: for the
// suite's rounds, which run such a test several times in a row, as they run a test that created
// threads (docs/suite.md). A test that draws an unseeded random number or reads the time of day
// may pass or fail with what it drew or read, and more executions are more draws. Pure: class
// files in (through a lookup), names out.
//
// A method does when its code calls one of the JDK's sources of chance or of the time
// (is_random_or_clock: an unseeded java.util.Random or a SecureRandom made, Math.random,
// ThreadLocalRandom.current, UUID.randomUUID, Collections.shuffle without a Random,
// System.currentTimeMillis and nanoTime, the java.time classes' now(), Clock.systemUTC and
// systemDefaultZone, a Date, Calendar or GregorianCalendar of the current time), or calls a
// method that does, in a class the lookup knows, up to `depth` calls away; and so does what
// JUnit runs before each test (its class's constructors and @Before / @BeforeEach methods:
// marine-api's DateTest compares a Date its @Before made with a calendar of the current time
// its @Before made too, and fails when midnight passes between them; call_reach.hpp).
// A java.util.Random made with a seed is not chance: it draws the same numbers every run.
#include <set>
#include <string>
#include <vector>

#include "classfile/call_reach.hpp"

namespace flakescan::classfile {

bool is_random_or_clock(const MemberRef& callee);

// The ids of `tests` whose method draws a random number or reads the clock.
std::set<std::string> random_or_clock_readers(const std::vector<std::string>& tests, const ClassLookup& lookup,
                                              int depth = 3);

}  // namespace flakescan::classfile
