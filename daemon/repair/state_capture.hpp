#pragma once
// Capturing the static state a test starts from, at a stop (vm_stops.hpp): every static field
// of every initialised project class (one only loaded holds defaults, not state), and the
// JDK's globals that tests change through public API (System.setProperty, Locale.setDefault,
// TimeZone.setDefault), each walked within bounds and reduced to a FieldState (field_state.hpp).
#include <string>
#include <utility>
#include <vector>

#include "core/vm.hpp"
#include "repair/field_state.hpp"
#include "repair/java_names.hpp"

namespace flakescan::repair {

// The JDK fields whose values are JVM-wide defaults tests change: (class, field).
const std::vector<std::pair<std::string, std::string>>& jdk_globals();

struct Capture {
  std::vector<std::string> classes;  // project classes captured, in load order
  FieldStates fields;
  bool truncated = false;            // some walk hit a bound
};

struct CaptureOptions {
  core::GraphBounds bounds{.max_depth = 5, .max_objects = 2000, .max_array_elements = 256, .max_string_length = 512};
  std::size_t max_classes = 3000;
};

// `only`: capture these classes (initialising those not initialised yet, on `thread`), not the
// initialised ones.
util::Result<Capture> capture_state(core::Vm& vm, core::ThreadRef thread, const CaptureOptions& options,
                                    const std::vector<std::string>* only = nullptr);

}  // namespace flakescan::repair
