#pragma once
// The threads agent's progress file (threads_agent's Progress: "key=value" lines written about
// once a second of a controlled test) as the sentence a run killed at its deadline adds to
// its reason: how far the schedule got, which a killed JVM could not write in its record
// (docs/threads.md, "Leaving control, stalls and deadlocks"). Pure.
#include <string>
#include <string_view>

namespace flakescan::threads {

// "under control the test had passed 3,012,400 scheduling points (2,998,100 while its threads
// ran together), with 5 threads; the running thread was last at pkg.C.m(C.java:12)", or
// "... and control had ended after the step limit"; empty when `text` holds no point count.
std::string describe_progress(std::string_view text);

}  // namespace flakescan::threads
