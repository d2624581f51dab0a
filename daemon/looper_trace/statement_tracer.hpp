#pragma once
// Algorithm 1 (tracing): the test runs statement by statement. At each line breakpoint of
// the test method the testing thread is held until the previous statement's effects have
// settled: no main-queue event for `quiet` and the main queue idle; only then does the next
// statement start. Every main-queue event is recorded with the statement executing, its
// stable identity and whether it is async.
#include <chrono>

#include "looper_trace/looper_session.hpp"
#include "looper_trace/statement_trace.hpp"

namespace flakescan::looper_trace {

struct StatementTraceOptions {
  HookConfig hook;
  std::chrono::milliseconds quiet{300};
  std::chrono::milliseconds max_settle{5000};   // a statement that never settles goes on anyway
  std::chrono::milliseconds deadline{90000};    // the whole traced run
};

// Drives one debugged run of `test` (the VM suspended at start) and fills `out` (the
// outcome is the caller's to set from the run's report).
util::Result<void> trace_statements(core::Vm& vm, const std::string& test, const StatementTraceOptions& options, StatementTrace& out);

}  // namespace flakescan::looper_trace
