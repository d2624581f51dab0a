#pragma once
// Screen abstraction (VET's preprocess step): keep the activity and, of the hierarchy, only
// visible elements inside the root's bounds with their resource id and class; identical
// abstract screens become one unique screen. State policy: an Abstraction is built once per
// trace and never changes; unique screens are numbered in order of first appearance.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tarpit/ui_trace.hpp"

namespace flakescan::tarpit {

// One pre-order node of an abstract screen: label (interned "id/class") in the high bits,
// depth in the low 16 bits, so two nodes are equal iff their tokens are equal.
using Token = std::uint64_t;
inline Token make_token(std::uint32_t label, std::uint32_t depth) {
  return (static_cast<Token>(label) << 16) | (depth & 0xffffu);
}

struct UniqueScreen {
  std::uint32_t activity = 0;   // index in the trace's pool
  std::vector<Token> tokens;    // pre-order (label, depth); size() is the node count
  std::string key;              // hex MD5 of VET's canonical string (act_id + "[id class ...]")
  std::size_t first_screen = 0; // index in Trace::screens where it first appeared
};

enum class DropReason : std::uint8_t { kept, no_bounds, no_activity, unknown_activity };

struct Abstraction {
  std::vector<UniqueScreen> uniques;
  std::vector<std::int32_t> screen_unique;  // per Trace::screens entry: unique index, or -1
  std::vector<DropReason> drop_reason;      // per Trace::screens entry
  std::size_t dropped = 0;
};

struct AbstractionOptions {
  // VET keys screens by the MD5 of a string that concatenates id and class without a
  // separator, so two different hierarchies can share a key; VET then treats them as one
  // screen. true reproduces that; false keys by the exact token sequence.
  bool merge_equal_keys = false;
};

// Abstracts the screens trace.screens[begin, end).
Abstraction abstract_screens(const Trace& trace, std::size_t begin, std::size_t end,
                             const AbstractionOptions& options);

std::string_view drop_reason_name(DropReason reason);

}  // namespace flakescan::tarpit
