#include "support/tarpit/trace_builder.hpp"

#include <stdexcept>

namespace flakescan::tarpit::testing {

namespace {

struct Parser {
  std::string_view s;
  std::size_t i = 0;

  void skip() { while (i < s.size() && s[i] == ' ') ++i; }
  NodeSpec node() {
    skip();
    NodeSpec n;
    while (i < s.size() && (s[i] == '!' || s[i] == '*')) {
      if (s[i] == '!') n.hidden = true;
      if (s[i] == '*') n.source = true;
      ++i;
    }
    auto start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '(' && s[i] != ')' && s[i] != ':') ++i;
    n.cls = std::string(s.substr(start, i - start));
    if (i < s.size() && s[i] == ':') {
      start = ++i;
      while (i < s.size() && s[i] != ' ' && s[i] != '(' && s[i] != ')') ++i;
      n.id = std::string(s.substr(start, i - start));
    }
    if (n.cls.empty()) throw std::invalid_argument("tree notation: empty class at " + std::to_string(i));
    skip();
    if (i < s.size() && s[i] == '(') {
      ++i;
      skip();
      while (i < s.size() && s[i] != ')') {
        n.children.push_back(node());
        skip();
      }
      if (i >= s.size()) throw std::invalid_argument("tree notation: missing ')'");
      ++i;
    }
    return n;
  }
};

void flatten(Trace& trace, const NodeSpec& n, std::uint16_t depth, Screen& screen) {
  Element e;
  e.id = trace.pool.intern(n.id);
  e.cls = trace.pool.intern(n.cls);
  e.text = trace.pool.intern(n.text);
  e.bounds = n.bounds;
  e.has_bounds = true;
  e.hidden = n.hidden;
  e.depth = depth;
  if (n.source && screen.source < 0) screen.source = static_cast<std::int32_t>(screen.elements.size());
  screen.elements.push_back(e);
  for (const auto& c : n.children) flatten(trace, c, std::uint16_t(depth + 1), screen);
}

}  // namespace

NodeSpec parse_tree(std::string_view notation) {
  Parser p{notation};
  auto n = p.node();
  p.skip();
  if (p.i != notation.size()) throw std::invalid_argument("tree notation: trailing text");
  return n;
}

std::size_t add_screen(Trace& trace, std::int64_t time_ms, std::string_view activity, const NodeSpec& root,
                       ActionType action) {
  Screen s;
  s.time_ms = time_ms;
  s.activity = trace.pool.intern(activity);
  s.has_activity = true;
  s.focus = true;
  s.action = action;
  s.file = std::to_string(time_ms) + ".json";
  flatten(trace, root, 0, s);
  compute_subtree_ends(s.elements);
  trace.screens.push_back(std::move(s));
  trace.timeline.push_back(time_ms);
  return trace.screens.size() - 1;
}

std::size_t add_screen(Trace& trace, std::int64_t time_ms, std::string_view activity, std::string_view notation,
                       ActionType action) {
  return add_screen(trace, time_ms, activity, parse_tree(notation), action);
}

NodeSpec to_spec(const Trace& trace, const Screen& screen) {
  // Rebuild the tree from the pre-order list with a stack of open nodes.
  std::vector<NodeSpec> stack;
  std::vector<std::uint16_t> depths;
  NodeSpec root;
  auto close_one = [&] {
    NodeSpec done = std::move(stack.back());
    stack.pop_back();
    depths.pop_back();
    if (stack.empty()) root = std::move(done);
    else stack.back().children.push_back(std::move(done));
  };
  for (std::size_t k = 0; k < screen.elements.size(); ++k) {
    const auto& e = screen.elements[k];
    while (!depths.empty() && depths.back() >= e.depth) close_one();
    NodeSpec n;
    n.cls = trace.pool.at(e.cls);
    n.id = trace.pool.at(e.id);
    n.text = trace.pool.at(e.text);
    n.hidden = e.hidden;
    n.bounds = e.bounds;
    n.source = screen.source == std::int32_t(k);
    stack.push_back(std::move(n));
    depths.push_back(e.depth);
  }
  while (!stack.empty()) close_one();
  return root;
}

}  // namespace flakescan::tarpit::testing
