#include "classfile/static_writers.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "classfile/bytecode.hpp"
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

class Walker {
 public:
  Walker(const ClassLookup& lookup, int depth) : lookup_(lookup), depth_(depth) {}

  bool test_writes(const std::string& test) {
    const auto hash = test.find('#');
    if (hash == std::string::npos) return false;
    std::string owner = test.substr(0, hash);
    std::replace(owner.begin(), owner.end(), '.', '/');
    const std::string method = test.substr(hash + 1);
    const ClassFile* cls = lookup_(owner);
    if (!cls) return false;
    const std::string lambda = "lambda$" + method + "$";
    for (const Member& m : cls->methods)
      if ((m.name == method || m.name.starts_with(lambda)) && writes(*cls, m, depth_)) return true;
    return false;
  }

 private:
  bool writes(const ClassFile& cls, const Member& m, int depth) {
    if (!m.code || m.name == "<clinit>") return false;
    const auto key = std::make_tuple(cls.name, m.name, m.descriptor);
    if (auto it = known_.find(key); it != known_.end() && it->second.second >= depth) return it->second.first;
    known_[key] = {false, depth};  // a call cycle counts as no change
    auto summary = summarize(cls, *m.code);
    if (!summary) return false;
    bool found = std::any_of(summary->fields.begin(), summary->fields.end(),
                             [](const FieldAccess& f) { return f.op == FieldOp::put_static; });
    for (const MethodCall& c : summary->calls) {
      if (found) break;
      if (c.op == CallOp::dynamic) continue;
      if (c.op == CallOp::static_ && is_global_setter(c.method)) found = true;
      const bool on_static = c.receiver_field && summary->fields[*c.receiver_field].op == FieldOp::get_static;
      if (on_static && is_mutator_name(c.method.name)) found = true;
      if (!found && depth > 0) found = call_writes(c.method, depth - 1);
    }
    known_[key] = {found, depth};
    return found;
  }

  bool call_writes(const MemberRef& callee, int depth) {
    // The declaring class or, for an inherited method, the first superclass the lookup knows
    // that declares it.
    std::string at = callee.owner;
    for (int hops = 0; hops < 8 && !at.empty(); ++hops) {
      const ClassFile* cls = lookup_(at);
      if (!cls) return false;
      if (const Member* m = cls->find_method(callee.name, callee.descriptor)) return writes(*cls, *m, depth);
      at = cls->super_name.value_or("");
    }
    return false;
  }

  const ClassLookup& lookup_;
  int depth_;
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<bool, int>> known_;  // -> (writes, depth looked)
};

}  // namespace

std::set<std::string> static_writers(const std::vector<std::string>& tests, const ClassLookup& lookup, int depth) {
  Walker walker(lookup, depth);
  std::set<std::string> out;
  for (const auto& t : tests)
    if (walker.test_writes(t)) out.insert(t);
  return out;
}

}  // namespace flakescan::classfile
