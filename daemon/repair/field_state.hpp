#pragma once
// The state a test starts from, per static field (ODRepair's capture, docs/repair.md):
// for each root of a HeapGraph ("pkg.Class.field" -> value), a canonical text of
// everything reachable from it within the walk's bounds, and its hash. Object ids differ
// between JVMs, so the canonical form numbers objects in the order a depth-first walk from
// the root first meets them; a shared or cyclic object is written once and then referred to
// by its number. Instance fields named `hash`, `hashIsZero` or `hashCode*` (hash codes cached on first use,
// as String and Locale keep them) are left out. Two captures of one field compare equal exactly when their canonical texts
// do. Pure: no VM, no I/O.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/vm.hpp"

namespace flakescan::repair {

struct FieldState {
  std::uint64_t hash = 0;  // FNV-1a of `canonical`
  std::string canonical;   // the whole canonical text
  std::string summary;     // its first 200 characters, for evidence
  bool truncated = false;  // the walk stopped at a bound somewhere under this field
};

// "pkg.Class.field" -> its state.
using FieldStates = std::map<std::string, FieldState>;

// One entry per root of `graph`.
FieldStates field_states(const core::HeapGraph& graph);

// A field whose state differs between the failing and the passing capture, or that only one
// of them has.
struct FieldDiff {
  std::string field;
  std::string failing;  // summary; empty when absent
  std::string passing;  // summary; empty when absent
};
// In field-name order.
std::vector<FieldDiff> diff_fields(const FieldStates& failing, const FieldStates& passing);

// "pkg.Outer$Inner.field" -> {"pkg.Outer$Inner", "field"}.
std::pair<std::string, std::string> split_field(const std::string& field);

}  // namespace flakescan::repair
