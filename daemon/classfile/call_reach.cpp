#include "classfile/call_reach.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace flakescan::classfile {

namespace {

class Walker {
 public:
  Walker(const ClassLookup& lookup, int depth, const Direct& direct, Roots roots)
      : lookup_(lookup), depth_(depth), direct_(direct), roots_(roots) {}

  bool test_reaches(const std::string& test) {
    const auto hash = test.find('#');
    if (hash == std::string::npos) return false;
    std::string owner = test.substr(0, hash);
    std::replace(owner.begin(), owner.end(), '.', '/');
    const std::string method = test.substr(hash + 1);
    const ClassFile* cls = lookup_(owner);
    if (!cls) return false;
    const std::string lambda = "lambda$" + method + "$";
    for (const Member& m : cls->methods)
      if ((m.name == method || m.name.starts_with(lambda)) && reaches(*cls, m, depth_)) return true;
    return roots_ == Roots::with_setup && setup_reaches(*cls);
  }

 private:
  bool reaches(const ClassFile& cls, const Member& m, int depth) {
    if (!m.code || m.name == "<clinit>") return false;
    const auto key = std::make_tuple(cls.name, m.name, m.descriptor);
    if (auto it = known_.find(key); it != known_.end() && it->second.second >= depth) return it->second.first;
    known_[key] = {false, depth};  // a call cycle counts as not reaching
    auto summary = summarize(cls, *m.code);
    if (!summary) return false;
    bool found = direct_(*summary);
    for (const MethodCall& c : summary->calls) {
      if (found || depth <= 0) break;
      if (c.op != CallOp::dynamic) found = call_reaches(c.method, depth - 1);
    }
    known_[key] = {found, depth};
    return found;
  }

  // The test class's constructors, and the @Before / @BeforeEach methods of it and of the
  // superclasses the lookup knows.
  bool setup_reaches(const ClassFile& test_class) {
    for (const Member& m : test_class.methods)
      if (m.name == "<init>" && reaches(test_class, m, depth_)) return true;
    const ClassFile* cls = &test_class;
    for (int hops = 0; hops < 8 && cls; ++hops) {
      for (const Member& m : cls->methods)
        if (is_before_each(*cls, m) && reaches(*cls, m, depth_)) return true;
      cls = cls->super_name ? lookup_(*cls->super_name) : nullptr;
    }
    return false;
  }

  static bool is_before_each(const ClassFile& cls, const Member& m) {
    auto types = annotation_types(cls, m.attributes);
    return types && std::any_of(types->begin(), types->end(), [](const std::string& t) {
             return t == "Lorg/junit/Before;" || t == "Lorg/junit/jupiter/api/BeforeEach;";
           });
  }

  bool call_reaches(const MemberRef& callee, int depth) {
    // The declaring class or, for an inherited method, the first superclass the lookup knows
    // that declares it.
    std::string at = callee.owner;
    for (int hops = 0; hops < 8 && !at.empty(); ++hops) {
      const ClassFile* cls = lookup_(at);
      if (!cls) return false;
      if (const Member* m = cls->find_method(callee.name, callee.descriptor)) return reaches(*cls, *m, depth);
      at = cls->super_name.value_or("");
    }
    return false;
  }

  const ClassLookup& lookup_;
  int depth_;
  const Direct& direct_;
  Roots roots_;
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<bool, int>> known_;  // -> (reaches, depth looked)
};

}  // namespace

std::set<std::string> tests_reaching(const std::vector<std::string>& tests, const ClassLookup& lookup, int depth,
                                     const Direct& direct, Roots roots) {
  Walker walker(lookup, depth, direct, roots);
  std::set<std::string> out;
  for (const auto& t : tests)
    if (walker.test_reaches(t)) out.insert(t);
  return out;
}

}  // namespace flakescan::classfile
