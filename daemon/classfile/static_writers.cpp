#include "classfile/static_writers.hpp"

#include <algorithm>

#include "classfile/reset_candidates.hpp"

namespace flakescan::classfile {

namespace {

bool is_global_setter(const MemberRef& m) {
  static const std::set<std::pair<std::string, std::string>> setters{
      {"java/lang/System", "setProperty"}, {"java/lang/System", "clearProperty"}, {"java/lang/System", "setProperties"},
      {"java/lang/System", "setOut"},      {"java/lang/System", "setErr"},        {"java/lang/System", "setIn"},
      {"java/util/Locale", "setDefault"},  {"java/util/TimeZone", "setDefault"}};
  return setters.contains({m.owner, m.name});
}

// One method's own code changes static state.
bool writes(const MethodSummary& summary) {
  if (std::any_of(summary.fields.begin(), summary.fields.end(), [](const FieldAccess& f) { return f.op == FieldOp::put_static; }))
    return true;
  return std::any_of(summary.calls.begin(), summary.calls.end(), [&](const MethodCall& c) {
    if (c.op == CallOp::dynamic) return false;
    if (c.op == CallOp::static_ && is_global_setter(c.method)) return true;
    const bool on_static = c.receiver_field && summary.fields[*c.receiver_field].op == FieldOp::get_static;
    return on_static && is_mutator_name(c.method.name);
  });
}

}  // namespace

std::set<std::string> static_writers(const std::vector<std::string>& tests, const ClassLookup& lookup, int depth) {
  return tests_reaching(tests, lookup, depth, writes);
}

}  // namespace flakescan::classfile
