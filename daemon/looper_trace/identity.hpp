#pragma once
// Event identity that stays the same from run to run (docs/explore.md, strategy flakescanner): the test
// statement executing when the event was posted, the posting thread's role, the posting
// stack (class.method per frame) and an occurrence counter. Runtime ids never enter it.
// HotSpot's lambda classes carry a per-run counter and address
// ("demo.android.Screen$$Lambda$36/0x00007fa0cc011c38"): they are cut at "$$Lambda".
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/vm.hpp"

namespace flakescan::looper_trace {

enum class Role { main, testing, background };
std::string_view role_name(Role role);
// The inverse of role_name; nullopt for any other text.
std::optional<Role> parse_role(std::string_view name);

// "pkg.Outer$$Lambda$36/0x..." -> "pkg.Outer$$Lambda"; other names unchanged.
std::string normalise_class(std::string_view class_name);
// One stable string per frame: "pkg.Class.method".
std::vector<std::string> stable_stack(const std::vector<core::Frame>& frames);
// Short stable hash of a stack (FNV-1a, hex), for identity strings.
std::string stack_hash(const std::vector<std::string>& stack);

struct EventIdentity {
  int statement_line = -1;         // line of the test statement executing (-1: before the test)
  Role role = Role::background;
  std::vector<std::string> stack;  // stable_stack of the posting thread
  int occurrence = 0;              // how many earlier events had the same role and stack

  // "line 32 background 9f3a0c1d #0"
  std::string str() const;
  // What identifies the event across runs whatever statement it lands in: role, stack and
  // occurrence. Under the debugger an event is often posted a statement later than in a
  // plain run, so schedules match events by this key.
  std::string key() const;
};

// Hands out occurrence counters: the n-th event with the same role and stack gets n.
class OccurrenceCounter {
 public:
  int next(Role role, const std::vector<std::string>& stack);

 private:
  std::map<std::string, int> seen_;
};

}  // namespace flakescan::looper_trace
