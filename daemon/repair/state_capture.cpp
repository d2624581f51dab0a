#include "repair/state_capture.hpp"

#include <algorithm>
#include <chrono>

#include "repair/vm_stops.hpp"

namespace flakescan::repair {

using namespace std::chrono_literals;

const std::vector<std::pair<std::string, std::string>>& jdk_globals() {
  static const std::vector<std::pair<std::string, std::string>> globals{
      {"java.lang.System", "props"},
      {"java.util.Locale", "defaultLocale"},
      {"java.util.Locale", "defaultDisplayLocale"},
      {"java.util.Locale", "defaultFormatLocale"},
      {"java.util.TimeZone", "defaultTimeZone"},
  };
  return globals;
}

util::Result<Capture> capture_state(core::Vm& vm, core::ThreadRef thread, const CaptureOptions& options,
                                    const std::vector<std::string>* only) {
  auto call = [] { return core::deadline_in(60s); };
  Capture out;
  if (only) {
    out.classes = *only;
    auto loaded = vm.initialized_classes(call());
    if (!loaded) return std::unexpected(loaded.error());
    for (const auto& c : out.classes)
      if (std::find(loaded->begin(), loaded->end(), c) == loaded->end()) (void)load_class(vm, thread, c);
  } else {
    // Only initialised classes: one that is merely loaded holds defaults, not state.
    auto loaded = vm.initialized_classes(call());
    if (!loaded) return std::unexpected(loaded.error());
    for (const auto& c : *loaded)
      if (is_project_class(c) && out.classes.size() < options.max_classes) out.classes.push_back(c);
  }
  auto add = [&](const core::HeapGraph& graph) {
    out.truncated = out.truncated || graph.truncated;
    for (auto& [name, state] : field_states(graph)) out.fields[name] = std::move(state);
  };
  for (const auto& c : out.classes) {
    auto graph = vm.walk_statics(c, options.bounds, call());
    if (!graph) {
      if (graph.error().code == util::Errc::not_found) continue;  // not loaded (a failed initialiser)
      return std::unexpected(graph.error());
    }
    add(*graph);
  }
  for (const auto& [cls, field] : jdk_globals()) {
    auto value = static_value(vm, cls, field);
    if (!value) continue;  // an older JDK or Android without that field
    auto graph = vm.walk({{cls + "." + field, *value}}, options.bounds, call());
    if (!graph) return std::unexpected(graph.error());
    add(*graph);
  }
  return out;
}

}  // namespace flakescan::repair
