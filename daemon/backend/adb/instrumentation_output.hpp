#pragma once
// Parser of `am instrument -r` raw output (AndroidJUnitRunner's InstrumentationResultPrinter
// plus the Instrumentation framework's own lines). Incremental: feed() chunks as they come
// off the device, each with the time it arrived, so that a stream cut off mid-test still
// says which tests ended and which one was running. No I/O.
//
// Wire shape (one key per line, values may run over several lines until the next line that
// starts with a marker):
//   INSTRUMENTATION_STATUS: class=com.example.FooTest      <- keys of one status block
//   INSTRUMENTATION_STATUS: test=bar
//   INSTRUMENTATION_STATUS: stack=java.lang.AssertionError  <- multi-line value
//   	at ...
//   INSTRUMENTATION_STATUS_CODE: -2                         <- ends the block
//   INSTRUMENTATION_RESULT: shortMsg=Process crashed.        <- result keys at the end
//   INSTRUMENTATION_CODE: -1                                 <- the instrumentation finished
//   INSTRUMENTATION_FAILED: pkg/runner                       <- could not start at all
// Status codes: 1 start, 0 ok, -1 error, -2 failure, -3 ignored, -4 assumption failure,
// 2 custom status (extra keys for the running test).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flakescan::backend::adb {

enum class StatusCode : int {
  start = 1, ok = 0, error = -1, failure = -2, ignored = -3, assumption_failure = -4, in_progress = 2,
};

struct InstrumentedTest {
  std::string class_name;
  std::string method;               // "null" for a class-level entry (ignored class)
  std::optional<int> code;          // the final code; empty while the test is running
  std::string stack;                // "stack" key of the final status
  std::string stream;               // "stream" key of the final status
  std::map<std::string, std::string> extras;  // other keys (custom ones included)
  double started_ms = 0, ended_ms = 0;
  bool ended() const { return code.has_value(); }
  std::string id() const { return class_name + "#" + method; }
};

struct InstrumentationOutput {
  std::vector<InstrumentedTest> tests;           // in the order the runner started them
  int num_tests = -1;                            // "numtests" when the runner said it
  std::map<std::string, std::string> result;     // INSTRUMENTATION_RESULT keys
  std::optional<int> code;                       // INSTRUMENTATION_CODE: present = it finished
  std::string failed;                            // INSTRUMENTATION_FAILED text
  std::string aborted;                           // INSTRUMENTATION_ABORTED text
  std::string other;                             // lines outside any marker (shell errors)

  bool finished() const { return code.has_value(); }
  // The runner's process died ("Process crashed." / "Native crash" in the result).
  bool process_crashed() const;
  // Best human-readable reason the instrumentation as a whole went wrong, or "".
  std::string failure_reason() const;
};

class InstrumentationParser {
 public:
  void feed(std::string_view chunk, double now_ms);
  // Flushes a last line without a newline; the output is complete afterwards.
  const InstrumentationOutput& finish(double now_ms);
  const InstrumentationOutput& output() const { return out_; }

 private:
  void line(std::string_view text, double now_ms);
  void close_value();
  void end_status(int code, double now_ms);

  InstrumentationOutput out_;
  std::string pending_;                          // partial line
  std::map<std::string, std::string> status_;    // keys of the current status block
  std::string* value_ = nullptr;                 // value that continuation lines extend
  std::optional<std::size_t> running_;           // index of the running test
};

InstrumentationOutput parse_instrumentation(std::string_view text);

}  // namespace flakescan::backend::adb
