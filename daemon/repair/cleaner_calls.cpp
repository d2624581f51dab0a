#include "repair/cleaner_calls.hpp"

#include <algorithm>
#include <set>

#include "classfile/bytecode.hpp"
#include "repair/java_names.hpp"
#include "report/text.hpp"

namespace flakescan::repair {

namespace {

// Parameter descriptors of a method descriptor: "(ILjava/lang/String;)V" -> {"I", "Ljava/lang/String;"}.
std::optional<std::vector<std::string>> parameters(const std::string& descriptor) {
  std::vector<std::string> out;
  if (descriptor.empty() || descriptor[0] != '(') return std::nullopt;
  std::size_t i = 1;
  while (i < descriptor.size() && descriptor[i] != ')') {
    std::size_t start = i;
    while (descriptor[i] == '[') ++i;
    if (descriptor[i] == 'L') {
      auto semi = descriptor.find(';', i);
      if (semi == std::string::npos) return std::nullopt;
      i = semi + 1;
    } else {
      ++i;
    }
    out.push_back(descriptor.substr(start, i - start));
  }
  return out;
}

// The class and its superclasses that are known, from `name` (internal) up.
std::vector<const classfile::ClassFile*> chain(const std::string& name, const ClassFiles& classes) {
  std::vector<const classfile::ClassFile*> out;
  std::string at = name;
  while (!at.empty()) {
    auto it = classes.find(at);
    if (it == classes.end()) break;
    out.push_back(&it->second);
    at = it->second.super_name.value_or("");
    if (at == "java/lang/Object") break;
  }
  return out;
}

bool is_enum(const std::string& internal_name, const ClassFiles& classes) {
  auto it = classes.find(internal_name);
  return it != classes.end() && (it->second.access_flags & classfile::access::enum_) != 0;
}

// How undoing a name sounds: 0 undoes (reset, clear, remove, unregister), 1 sets, 2 adds.
int name_rank(const std::string& name) {
  for (const char* p : {"reset", "clear", "remove", "unregister", "restore", "logout", "close"})
    if (name.starts_with(p)) return 0;
  for (const char* p : {"put", "add", "register", "compute", "merge", "replace", "retain"})
    if (name.starts_with(p)) return 2;
  return 1;
}

struct Ranked {
  Call call;
  int rank = 0;
};

}  // namespace

std::optional<JdkDefault> jdk_default_for(const std::string& type_descriptor) {
  static const std::map<std::string, JdkDefault> defaults{
      {"Ljava/util/TimeZone;", {"java.util.TimeZone", "getDefault", "()Ljava/util/TimeZone;"}},
      {"Ljava/util/Locale;", {"java.util.Locale", "getDefault", "()Ljava/util/Locale;"}},
      {"Ljava/time/ZoneId;", {"java.time.ZoneId", "systemDefault", "()Ljava/time/ZoneId;"}},
      {"Ljava/nio/charset/Charset;", {"java.nio.charset.Charset", "defaultCharset", "()Ljava/nio/charset/Charset;"}},
      {"Ljava/time/Clock;", {"java.time.Clock", "systemDefaultZone", "()Ljava/time/Clock;"}},
  };
  auto it = defaults.find(type_descriptor);
  if (it == defaults.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> missing_classes(const PollutedField& field, const ClassFiles& known) {
  std::vector<std::string> out;
  for (const std::string& start : {internal_name(field.owner), internal_name(field.value_class)}) {
    if (start.empty()) continue;
    std::string at = start;
    while (!at.empty() && at != "java/lang/Object") {
      auto it = known.find(at);
      if (it == known.end()) {
        if (std::find(out.begin(), out.end(), at) == out.end()) out.push_back(at);
        break;
      }
      at = it->second.super_name.value_or("");
    }
  }
  return out;
}

std::vector<std::string> missing_enum_candidates(const std::vector<classfile::ResetCandidate>& methods, const ClassFiles& known) {
  std::set<std::string> out;
  for (const auto& m : methods) {
    auto params = parameters(m.method_descriptor);
    if (!params) continue;
    for (const auto& p : *params) {
      auto cls = classfile::descriptor_class(p);
      if (!cls || cls->front() == '[' || known.contains(*cls)) continue;
      // Only nested types of the method's own class are fetched (Locale$Category): a full
      // closure over every parameter type would fetch half the JDK.
      if (cls->starts_with(m.class_name + "$")) out.insert(*cls);
    }
  }
  return {out.begin(), out.end()};
}

util::Result<std::vector<classfile::ResetCandidate>> reset_methods(const PollutedField& field, const ClassFiles& classes) {
  std::vector<classfile::ClassFile> all;
  all.reserve(classes.size());
  for (const auto& [name, cls] : classes) all.push_back(cls);
  return classfile::find_reset_candidates(all, {internal_name(field.owner), field.name, field.descriptor});
}

namespace {

// The calls candidate_calls() ranks: for each method, up to 6 argument lists from the
// options for each parameter type, ranked by what the method is and by its arity.
class CandidateList {
 public:
  CandidateList(const PollutedField& field, const ClassFiles& classes, const classfile::Literals& literals)
      : field_(field), classes_(classes), literals_(literals) {
    // The types the field's value has: its class and superclasses, and the declared type.
    for (const auto* c : chain(internal_name(field.value_class), classes)) value_types_.insert(c->name);
    if (auto declared = classfile::descriptor_class(field.descriptor)) value_types_.insert(*declared);
  }

  void add_resets(const std::vector<classfile::ResetCandidate>& resets);
  void add_value_mutators();
  std::vector<Call> best(std::size_t max_calls);

 private:
  std::vector<Arg> options_for(const std::string& p) const;
  void add_method(const std::string& owner, const std::string& name, const std::string& desc, bool on_value, int rank,
                  const std::string& why, const std::string& getter = {});

  const PollutedField& field_;
  const ClassFiles& classes_;
  const classfile::Literals& literals_;
  std::set<std::string> value_types_;
  std::vector<Ranked> ranked_;
  std::set<std::tuple<std::string, std::string, std::string>> seen_;
};

// The arguments tried for a parameter of type `p`; none for float and double parameters.
std::vector<Arg> CandidateList::options_for(const std::string& p) const {
  std::vector<Arg> out;
  auto add = [&](Arg a) {
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(std::move(a));
  };
  switch (p[0]) {
    case 'I': case 'S': case 'B': case 'C':
      for (std::size_t i = 0; i < literals_.ints.size() && i < 3; ++i) add({Arg::Kind::int_, literals_.ints[i], "", p});
      add({Arg::Kind::int_, 0, "", p});
      return out;
    case 'J':
      for (std::size_t i = 0; i < literals_.longs.size() && i < 3; ++i) add({Arg::Kind::long_, literals_.longs[i]});
      add({Arg::Kind::long_, 0});
      return out;
    case 'Z':
      add({Arg::Kind::boolean, 0});
      add({Arg::Kind::boolean, 1});
      return out;
    case 'F': case 'D': return out;  // no float literals are mined: such methods are left out
    default: break;
  }
  auto cls = classfile::descriptor_class(p);
  if (cls && value_types_.contains(*cls)) add({Arg::Kind::original, 0, "", p});
  if (jdk_default_for(p)) add({Arg::Kind::jdk_default, 0, "", p});
  if (cls && (*cls == "java/lang/String" || *cls == "java/lang/Object" || *cls == "java/lang/CharSequence"))
    for (std::size_t i = 0; i < literals_.strings.size() && i < 6; ++i) add({Arg::Kind::string, 0, literals_.strings[i]});
  if (cls && is_enum(*cls, classes_)) {
    const auto& e = classes_.at(*cls);
    for (const auto& f : e.fields)
      if (f.access_flags & classfile::access::enum_) add({Arg::Kind::enum_constant, 0, f.name, binary_name(*cls)});
  }
  add({Arg::Kind::null, 0, "", p});
  return out;
}

void CandidateList::add_method(const std::string& owner, const std::string& name, const std::string& desc, bool on_value,
                               int rank, const std::string& why, const std::string& getter) {
  if (!seen_.insert({owner, name, desc}).second) return;
  auto params = parameters(desc);
  if (!params || params->size() > 3) return;
  std::vector<std::vector<Arg>> options;
  for (const auto& p : *params) {
    auto o = options_for(p);
    if (o.empty()) return;
    options.push_back(std::move(o));
  }
  // Up to 6 argument lists, varying the last argument fastest.
  std::vector<std::size_t> pick(options.size(), 0);
  for (int n = 0; n < 6; ++n) {
    Call c{on_value, binary_name(owner), name, desc, {}, why, getter};
    for (std::size_t i = 0; i < options.size(); ++i) c.args.push_back(options[i][pick[i]]);
    ranked_.push_back({std::move(c), rank * 10 + static_cast<int>(options.size())});
    std::size_t k = options.size();
    while (k > 0) {
      if (++pick[k - 1] < options[k - 1].size()) break;
      pick[k - 1] = 0;
      --k;
    }
    if (k == 0) break;
  }
}

// 1. Methods that write the field or mutate its value.
void CandidateList::add_resets(const std::vector<classfile::ResetCandidate>& resets) {
  for (const auto& r : resets) {
    if (r.method_name == "<init>" || (r.access_flags & classfile::access::private_)) continue;
    const bool is_static = (r.access_flags & classfile::access::static_) != 0;
    auto only = [&](classfile::ResetKind kind) {
      return std::all_of(r.sites.begin(), r.sites.end(), [kind](const classfile::ResetSite& x) { return x.kind == kind; });
    };
    const bool only_calls = only(classfile::ResetKind::calls_reset);
    // A method that only fills some value of the field's type, or only calls a reset, is a reset
    // only in the project or the field's own class: in the JDK, every class that fills some map
    // would count, and every getter that initialises a default lazily (DateFormat's).
    const bool own_or_project = r.class_name == internal_name(field_.owner) || is_project_class(binary_name(r.class_name));
    if ((only(classfile::ResetKind::mutates_field_type) || only_calls) && !own_or_project) continue;
    std::string getter;
    if (!is_static && !value_types_.contains(r.class_name)) {
      auto g = instance_getter(binary_name(r.class_name), classes_);
      if (!g) continue;
      getter = *g;
    }
    // Callers come after the methods they call unless their name undoes (`shutdown` after
    // `stop`, still before an adder).
    int rank = r.writes_field() && is_static ? std::min(name_rank(r.method_name), 1) : name_rank(r.method_name);
    if (only_calls && rank > 0) rank += 1;
    std::string why = r.writes_field() ? "writes the field" : "mutates the field's value";
    if (only_calls) why = "calls " + binary_name(r.sites.front().call.owner) + "." + r.sites.front().call.name + ", which resets the field";
    add_method(r.class_name, r.method_name, r.method_descriptor, !is_static && getter.empty(), rank, why, getter);
  }
}

// 2. The value's own mutators, and methods of a project class that write its fields. A
// String or a boxed number has none, whatever its methods are called (`replace`).
void CandidateList::add_value_mutators() {
  static const std::set<std::string> immutable{"java.lang.String", "java.lang.Integer", "java.lang.Long", "java.lang.Short",
                                                "java.lang.Byte", "java.lang.Character", "java.lang.Boolean", "java.lang.Double",
                                                "java.lang.Float"};
  const bool mutable_value = !immutable.contains(field_.value_class);
  for (const auto* cls : mutable_value ? chain(internal_name(field_.value_class), classes_) : std::vector<const classfile::ClassFile*>{}) {
    for (const auto& m : cls->methods) {
      if (m.is_static() || m.name == "<init>" || !m.code) continue;
      if (!(m.access_flags & classfile::access::public_)) continue;
      bool writes_own = false;
      if (is_project_class(binary_name(cls->name))) {
        if (auto s = classfile::summarize(*cls, *m.code))
          writes_own = std::any_of(s->fields.begin(), s->fields.end(), [&](const classfile::FieldAccess& f) {
            return f.op == classfile::FieldOp::put_field && f.field.owner == cls->name;
          });
      }
      if (!writes_own && !classfile::is_mutator_name(m.name)) continue;
      add_method(cls->name, m.name, m.descriptor, true, 3 + name_rank(m.name),
                 writes_own ? "writes a field of the value" : "mutator of the value's class");
    }
  }
}

std::vector<Call> CandidateList::best(std::size_t max_calls) {
  std::stable_sort(ranked_.begin(), ranked_.end(), [](const Ranked& a, const Ranked& b) { return a.rank < b.rank; });
  std::vector<Call> out;
  for (auto& r : ranked_) {
    if (out.size() >= max_calls) break;
    out.push_back(std::move(r.call));
  }
  return out;
}

}  // namespace

std::vector<Call> candidate_calls(const PollutedField& field, const std::vector<classfile::ResetCandidate>& resets,
                                  const ClassFiles& classes, const classfile::Literals& literals, std::size_t max_calls) {
  CandidateList list(field, classes, literals);
  list.add_resets(resets);
  list.add_value_mutators();
  return list.best(max_calls);
}

std::string source_name(const std::string& binary_name) {
  std::string s = binary_name;
  std::replace(s.begin(), s.end(), '$', '.');
  return s;
}

std::optional<std::string> field_expression(const PollutedField& field, const ClassFiles& classes, const std::string& from_package) {
  auto it = classes.find(internal_name(field.owner));
  if (it == classes.end()) return std::nullopt;
  const auto& cls = it->second;
  const bool same_package = package_of(field.owner) == from_package;
  // A class's own access flags say public or package (nested classes' private/protected live
  // in InnerClasses; not read here).
  if (!(cls.access_flags & classfile::access::public_) && !same_package) return std::nullopt;
  auto accessible = [&](std::uint16_t flags) {
    return (flags & classfile::access::public_) || (same_package && !(flags & classfile::access::private_));
  };
  if (const auto* f = cls.find_field(field.name); f && accessible(f->access_flags))
    return source_name(field.owner) + "." + field.name;
  for (const auto& m : cls.methods) {
    if (!m.is_static() || !m.code || !accessible(m.access_flags) || m.descriptor != "()" + field.descriptor) continue;
    auto s = classfile::summarize(cls, *m.code);
    if (!s) continue;
    auto touches = [&](classfile::FieldOp op) {
      return std::any_of(s->fields.begin(), s->fields.end(), [&](const classfile::FieldAccess& f) {
        return f.op == op && f.field.owner == cls.name && f.field.name == field.name;
      });
    };
    // A getter reads the field and does not write it (Counter.next() is no getter).
    if (touches(classfile::FieldOp::get_static) && !touches(classfile::FieldOp::put_static)) return source_name(field.owner) + "." + m.name + "()";
  }
  return std::nullopt;
}

namespace {
// A field descriptor as a Java source type: "[Ljava/lang/String;" -> "java.lang.String[]".
std::string java_type(std::string_view d) { return source_name(classfile::java_type_name(d)); }
}  // namespace

std::optional<std::string> java_statement(const Call& call, const std::optional<std::string>& receiver,
                                          const std::optional<std::string>& original) {
  std::string args;
  for (const auto& a : call.args) {
    if (!args.empty()) args += ", ";
    switch (a.kind) {
      case Arg::Kind::null: {
        args += a.type.empty() ? "null" : "(" + java_type(a.type) + ") null";
        break;
      }
      case Arg::Kind::int_:
        // No implicit narrowing in a method call: s((short) 0), not s(0).
        if (a.type == "S" || a.type == "B" || a.type == "C") args += "(" + java_type(a.type) + ") ";
        args += std::to_string(a.integer);
        break;
      case Arg::Kind::long_: args += std::to_string(a.integer) + "L"; break;
      case Arg::Kind::boolean: args += a.integer ? "true" : "false"; break;
      case Arg::Kind::string: args += report::java_string_literal(a.text); break;
      case Arg::Kind::enum_constant: args += source_name(a.type) + "." + a.text; break;
      case Arg::Kind::original:
        if (!original) return std::nullopt;
        args += *original;
        break;
      case Arg::Kind::jdk_default: {
        auto d = jdk_default_for(a.type);
        if (!d) return std::nullopt;
        args += d->owner + "." + d->method + "()";
        break;
      }
    }
  }
  if (call.on_value) {
    if (!receiver) return std::nullopt;
    return *receiver + "." + call.method + "(" + args + ");";
  }
  if (!call.instance_getter.empty())
    return source_name(call.owner) + "." + call.instance_getter + "()." + call.method + "(" + args + ");";
  return source_name(call.owner) + "." + call.method + "(" + args + ");";
}

std::optional<std::string> instance_getter(const std::string& class_name, const ClassFiles& classes,
                                           const std::string& from_package) {
  auto it = classes.find(internal_name(class_name));
  if (it == classes.end()) return std::nullopt;
  const bool same_package = !from_package.empty() && package_of(class_name) == from_package;
  const std::string own_type = "()L" + it->second.name + ";";
  for (const auto& m : it->second.methods) {
    if (!m.is_static() || m.descriptor != own_type) continue;
    if ((m.access_flags & classfile::access::public_) || (same_package && !(m.access_flags & classfile::access::private_)))
      return m.name;
  }
  return std::nullopt;
}

std::string describe(const Call& call) {
  std::string args;
  for (const auto& a : call.args) {
    if (!args.empty()) args += ", ";
    switch (a.kind) {
      case Arg::Kind::null: args += "null"; break;
      case Arg::Kind::int_: args += std::to_string(a.integer); break;
      case Arg::Kind::long_: args += std::to_string(a.integer) + "L"; break;
      case Arg::Kind::boolean: args += a.integer ? "true" : "false"; break;
      case Arg::Kind::string: args += report::java_string_literal(a.text); break;
      case Arg::Kind::enum_constant: args += source_name(a.type) + "." + a.text; break;
      case Arg::Kind::original: args += "<value before the polluter>"; break;
      case Arg::Kind::jdk_default: {
        auto d = jdk_default_for(a.type);
        args += d ? d->owner + "." + d->method + "()" : "<the JVM's default>";
        break;
      }
    }
  }
  std::string receiver = call.on_value ? "<field value>."
                         : call.instance_getter.empty() ? source_name(call.owner) + "."
                                                        : source_name(call.owner) + "." + call.instance_getter + "().";
  return receiver + call.method + "(" + args + ")";
}

}  // namespace flakescan::repair
