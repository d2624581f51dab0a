#pragma once
// The one internal model of a UI trace, whatever recorded it (TOLLER's JSON folders or
// flakescan's UI Automator dumps plus actions file). A trace owns a string pool; elements
// refer to interned strings by index so that a one-hour trace of 50,000 screens stays small
// and the analysis compares integers, never strings.
// Invariants: screens are in ascending time order; each screen's elements are in pre-order,
// element 0 is the root, and element k's subtree is [k, elements[k].end).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace flakescan::tarpit {

// What the exploration tool did on a screen. TOLLER's ua_type codes map onto the first six.
enum class ActionType : std::uint8_t {
  click, long_click, touch, context_click, menu, back,
  swipe, scroll, text, home, restart, none, other,
};

std::string_view action_type_name(ActionType type);
// Accepts the names above ("long_click", ...); unknown names give ActionType::other.
ActionType parse_action_type(std::string_view name);
// TOLLER's ua_type (0 click, 1 long click, 2 touch, 3 context click, 7 menu, 100 back).
ActionType action_type_from_toller(std::int64_t ua_type);

class StringPool {
 public:
  StringPool();  // index 0 is the empty string
  std::uint32_t intern(std::string_view s);
  const std::string& at(std::uint32_t index) const { return strings_[index]; }
  std::size_t size() const { return strings_.size(); }

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> index_;
};

struct Bounds {
  std::int32_t left = 0, top = 0, right = 0, bottom = 0;
  friend bool operator==(const Bounds&, const Bounds&) = default;
};

struct Element {
  std::uint32_t id = 0;      // resource id as written ("-1" when the recorder had none)
  std::uint32_t cls = 0;     // class name
  std::uint32_t text = 0;    // visible text, for describing actions only
  std::uint32_t desc = 0;    // content description, for describing actions only
  Bounds bounds;
  bool has_bounds = false;
  bool hidden = false;       // recorder said not visible (TOLLER vis != 0, visible-to-user=false)
  std::uint16_t depth = 0;
  std::uint32_t end = 0;     // one past the last element of this element's subtree
};

struct Screen {
  std::int64_t time_ms = 0;
  std::uint32_t activity = 0;  // interned activity class name
  bool has_activity = false;
  bool focus = false;          // the window had focus when captured
  ActionType action = ActionType::none;
  std::int64_t action_code = -1;  // the recorder's own code (TOLLER ua_type), -1 if none
  std::int32_t source = -1;       // index of the element acted on, -1 if none (e.g. back)
  std::string file;               // where the screen came from, relative to the trace folder
  std::vector<Element> elements;  // pre-order; empty when the capture had no root bounds
};

struct Problem {
  std::string file;     // the file (or "line N of actions.jsonl") that was skipped
  std::string message;  // why
};

struct Trace {
  std::string name;    // folder name
  std::string format;  // "toller" or "flakescan"
  StringPool pool;
  std::vector<Screen> screens;
  // Every capture time the recorder announced (file names or action lines), including screens
  // that were unreadable or dropped: VET's trace cut and padding are computed on these.
  std::vector<std::int64_t> timeline;
  std::vector<Problem> problems;

  // The screen captured at `time_ms` exactly, or nullptr.
  const Screen* screen_at(std::int64_t time_ms) const;
};

// Fills each element's `end` from the depths (elements must be in pre-order).
void compute_subtree_ends(std::vector<Element>& elements);

}  // namespace flakescan::tarpit
