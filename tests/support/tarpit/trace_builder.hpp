#pragma once
// Hand-built screens for tests: a tiny tree notation and helpers that append screens to a
// Trace, so a test reads like the hierarchy it describes.
//   "Frame:root(Button:ok Text:title(Span))"  -> Frame id=root with two children; Span has
//   no id ("-1"). A leading '!' marks an element hidden, a leading '*' the element acted on.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tarpit/ui_trace.hpp"

namespace flakescan::tarpit::testing {

struct NodeSpec {
  std::string cls, id = "-1", text;
  bool hidden = false, source = false;
  Bounds bounds{0, 0, 1080, 1920};
  std::vector<NodeSpec> children;
};

NodeSpec parse_tree(std::string_view notation);

// Appends a screen (activity, tree, action) at time_ms; returns its index.
std::size_t add_screen(Trace& trace, std::int64_t time_ms, std::string_view activity, const NodeSpec& root,
                       ActionType action = ActionType::click);
std::size_t add_screen(Trace& trace, std::int64_t time_ms, std::string_view activity, std::string_view notation,
                       ActionType action = ActionType::click);

// Recreates a NodeSpec tree from a screen of a trace (for writing it out in a format).
NodeSpec to_spec(const Trace& trace, const Screen& screen);

}  // namespace flakescan::tarpit::testing
