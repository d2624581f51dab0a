#pragma once
// Debugged runs that stop right before chosen entries of their test list, and the calls
// `repair` makes there through the runner's StateKeeper (daemon/runner). The stop is a
// breakpoint on the runner's ResultSink.started(int, String), which runs on the thread that
// is about to run the entry, before its @Before methods; the thread is suspended there by an
// event, so methods can be invoked on it (the JVM's rule for JDWP invocations).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/test_executor.hpp"
#include "core/vm.hpp"

namespace flakescan::repair {

using StopFn = std::function<util::Result<void>(core::Vm&, core::ThreadRef)>;
struct Stop {
  std::size_t index = 0;  // the entry of RunSpec::tests before which to stop
  StopFn action;
};

// A drive for TestExecutor::run_debugged / RunLog::run_debugged. It fails when the run ends
// before a stop was reached, or when an action fails.
core::TestExecutor::DriveFn stop_before(std::vector<Stop> stops);

// The value of a static field (and its descriptor when asked). Errors: not_found (no such
// field, or the class is not loaded), and the VM's.
util::Result<core::Value> static_value(core::Vm& vm, const std::string& owner, const std::string& name,
                                       std::string* descriptor = nullptr);

// ---- StateKeeper: helpers inside the test JVM ------------------------------------------------
// Initialises a class by name (its static initialiser runs).
util::Result<void> load_class(core::Vm& vm, core::ThreadRef thread, const std::string& class_name);
// A deep copy of `value`, kept alive in the VM. Copies made in one JVM share their objects:
// two fields that refer to one object get copies that refer to one copy.
util::Result<core::Value> keep_copy(core::Vm& vm, core::ThreadRef thread, const core::Value& value);
// A value as Base64 text of its Java serialisation (StateKeeper.serialize), to be rebuilt in
// another JVM; nullopt when it cannot be serialised. `value` must be a non-null reference.
util::Result<std::optional<std::string>> serialize_value(core::Vm& vm, core::ThreadRef thread, const core::Value& value);
// The value serialize_value wrote, rebuilt in this JVM and kept alive there.
util::Result<core::Value> deserialize_value(core::Vm& vm, core::ThreadRef thread, const std::string& text);
// A class file's bytes as the JVM's loaders see it (jars, the JDK); empty when none.
util::Result<std::vector<std::uint8_t>> class_bytes(core::Vm& vm, core::ThreadRef thread, const std::string& class_name);

}  // namespace flakescan::repair
