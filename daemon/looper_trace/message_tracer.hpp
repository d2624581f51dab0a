#pragma once
// One observed run of a test with every message's send and dispatch recorded
// (MessageRecorder). Unlike Algorithm 1's tracer nothing is held: every stop is resumed
// as soon as it is read, so the run keeps its own timing as far as a debugger allows. The
// one exception is the end of the test: the testing thread waits at its end marker (at most
// `end_wait`) while a thread the test started is still busy or a message sent to the main
// queue was not dispatched, so that work that outlasts the test's last statement (a result
// posted just too late, the race the test lost) is in the trace; the outcome is decided by
// then.
#include <chrono>

#include "looper_trace/looper_session.hpp"
#include "looper_trace/message_trace.hpp"

namespace flakescan::looper_trace {

struct MessageTraceOptions {
  HookConfig hook;
  std::chrono::milliseconds end_wait{1000};
  std::chrono::milliseconds deadline{90000};
};

// Drives one debugged run of `test` (the VM suspended at start) and fills `out` (the
// outcome is the caller's to set from the run's report).
util::Result<void> trace_messages(core::Vm& vm, const std::string& test, const MessageTraceOptions& options,
                                  MessageTrace& out);

}  // namespace flakescan::looper_trace
