#include "tarpit/ui_trace.hpp"

#include <algorithm>
#include <array>

namespace flakescan::tarpit {

namespace {
constexpr std::array<std::string_view, 13> action_names = {
    "click", "long_click", "touch", "context_click", "menu", "back",
    "swipe", "scroll", "text", "home", "restart", "none", "other",
};
}  // namespace

std::string_view action_type_name(ActionType type) {
  return action_names[static_cast<std::size_t>(type)];
}

ActionType parse_action_type(std::string_view name) {
  for (std::size_t i = 0; i < action_names.size(); ++i)
    if (action_names[i] == name) return static_cast<ActionType>(i);
  return ActionType::other;
}

ActionType action_type_from_toller(std::int64_t ua_type) {
  switch (ua_type) {
    case 0: return ActionType::click;
    case 1: return ActionType::long_click;
    case 2: return ActionType::touch;
    case 3: return ActionType::context_click;
    case 7: return ActionType::menu;
    case 100: return ActionType::back;
    default: return ActionType::other;
  }
}

StringPool::StringPool() { intern(""); }

std::uint32_t StringPool::intern(std::string_view s) {
  auto it = index_.find(std::string(s));
  if (it != index_.end()) return it->second;
  auto index = static_cast<std::uint32_t>(strings_.size());
  strings_.emplace_back(s);
  index_.emplace(strings_.back(), index);
  return index;
}

const Screen* Trace::screen_at(std::int64_t time_ms) const {
  auto it = std::lower_bound(screens.begin(), screens.end(), time_ms,
                             [](const Screen& s, std::int64_t t) { return s.time_ms < t; });
  if (it == screens.end() || it->time_ms != time_ms) return nullptr;
  return &*it;
}

void compute_subtree_ends(std::vector<Element>& elements) {
  // A stack of open elements: an element closes when one at its depth or shallower starts.
  std::vector<std::uint32_t> open;
  for (std::uint32_t k = 0; k < elements.size(); ++k) {
    while (!open.empty() && elements[open.back()].depth >= elements[k].depth) {
      elements[open.back()].end = k;
      open.pop_back();
    }
    open.push_back(k);
  }
  for (auto k : open) elements[k].end = static_cast<std::uint32_t>(elements.size());
}

}  // namespace flakescan::tarpit
