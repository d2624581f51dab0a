#pragma once
// Decodes the runner's results stream (one JSON object per line, written by
// daemon/runner's ResultSink) into per-test results. Pure: text in, structs out.
//
//   {"event":"started","index":0,"test":"p.C#m"}
//   {"event":"finished","index":0,"test":"p.C#m","outcome":"fail","message":..,
//    "exception":..,"stack":..,"duration_ms":12.5,
//    "shuffled":[{"key":..,"api":..,"via":[..],"frames":[..],"seen":3,"shuffled":3,"size":4}]}
//                                              ("shuffled": runs on the shuffling JDK only)
//    "threads":{...}                           (runs under the threads agent only: the test's
//                                              schedule record, threads/schedule_record.hpp)
//   {"event":"exit","index":0,"test":"p.C#m","at":"p.C.m(C.java:10)","stack":..}
//                                              (System.exit called while entry 0 ran)
//   {"event":"test","test":"p.C#m"}            (discover mode)
//   {"event":"missing","test":"p.C","reason":..} (discover mode)
//   {"event":"classpath","shadowed":"p/x.txt in dir and a.jar"} (discover mode: a file of a
//                                              class directory is also in a jar; no
//                                              "shadowed": none is)
//   {"event":"direct","junit4":true}           (discover mode: runs of these tests go to
//                                              JUnit 4 without the Platform, so waiting
//                                              JVMs need warm JUnit 4 alone; run mode: this
//                                              run's tests went that way, or did not)
//   {"event":"done"}
//
// A torn last line (the JVM died while writing) is ignored; any other bad line is an error.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/test_executor.hpp"
#include "core/run.hpp"
#include "util/error.hpp"

namespace flakescan::backend {

// Who called System.exit while an entry ran (the runner's shutdown hook saw it).
struct ExitCall {
  size_t index = 0;
  std::string at;     // the calling frame, "p.C.m(C.java:10)"
  std::string stack;  // from that frame down
};

struct RunnerStream {
  std::vector<std::optional<core::TestResult>> finished;  // by index
  std::optional<size_t> started_unfinished;                // index of a test cut short
  std::optional<ExitCall> exit_call;
  std::optional<bool> junit4_direct;  // the run's "direct" line: its tests skipped the Platform (none: an older runner)
  bool done = false;
};

util::Result<RunnerStream> parse_run_stream(std::string_view text, size_t expected_tests);

struct DiscoverStream {
  core::TestExecutor::Discovery discovery;
  bool classpath_checked = false;  // the "classpath" line came
  std::string shadowed;            // what it named: a file in a class directory and a jar
  bool junit4_direct = false;      // the "direct" line said runs skip the Platform
  bool done = false;
};

util::Result<DiscoverStream> parse_discover_stream(std::string_view text);

// Fills `report.results` for every entry of `tests`, turning what the stream lacks into
// infra outcomes that say how the process ended. A test that called System.exit stays infra
// (its JVM ended: the techniques continue after it as after any crash), and its message and
// stack name the call.
void assemble_report(const RunnerStream& stream, const std::vector<std::string>& tests,
                     const std::string& process_end, core::RunReport& report);

}  // namespace flakescan::backend
