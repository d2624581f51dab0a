#include "classfile/reset_candidates.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace flakescan::classfile {

namespace {

template <class T>
void add_unique(std::vector<T>& list, const T& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

util::Error in_method(const util::Error& e, const ClassFile& cls, const Member& m) {
  return util::Error{e.code, cls.name + "." + m.name + m.descriptor + ": " + e.message};
}

}  // namespace

bool ResetCandidate::writes_field() const {
  return std::any_of(sites.begin(), sites.end(), [](const ResetSite& s) { return s.kind == ResetKind::writes_field; });
}

bool is_mutator_name(std::string_view name) {
  if (name == "clear" || name == "merge") return true;
  static constexpr std::array<std::string_view, 10> prefixes = {
      "put", "add", "remove", "set", "reset", "register", "unregister", "compute", "replace", "retain"};
  for (std::string_view p : prefixes) {
    if (!name.starts_with(p)) continue;
    if (name.size() == p.size()) return true;
    unsigned char next = static_cast<unsigned char>(name[p.size()]);
    if (std::isupper(next) || std::isdigit(next)) return true;
  }
  return false;
}

util::Result<std::vector<ResetCandidate>> find_reset_candidates(std::span<const ClassFile> classes,
                                                                 const StaticField& field) {
  const auto field_type = descriptor_class(field.descriptor);
  auto is_the_field = [&](const MemberRef& r) {
    return r.owner == field.owner && r.name == field.name && r.descriptor == field.descriptor;
  };
  struct Summarized {
    const ClassFile* cls;
    const Member* method;
    MethodSummary summary;
  };
  std::vector<Summarized> methods;
  for (const ClassFile& cls : classes) {
    for (const Member& m : cls.methods) {
      if (!m.code || m.name == "<clinit>") continue;
      auto summary = summarize(cls, *m.code);
      if (!summary) return std::unexpected(in_method(summary.error(), cls, m));
      methods.push_back({&cls, &m, std::move(*summary)});
    }
  }
  std::vector<ResetCandidate> out;
  std::vector<bool> is_candidate(methods.size(), false);
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const auto& [cls, m, summary] = methods[i];
    std::vector<ResetSite> sites;
    for (const FieldAccess& f : summary.fields)
      if (f.op == FieldOp::put_static && is_the_field(f.field)) sites.push_back(ResetSite{ResetKind::writes_field, f.offset, {}});
    for (const MethodCall& c : summary.calls) {
      if (c.op == CallOp::static_ || c.op == CallOp::dynamic || !is_mutator_name(c.method.name)) continue;
      const FieldAccess* receiver = c.receiver_field ? &summary.fields[*c.receiver_field] : nullptr;
      bool from_field = receiver && receiver->op == FieldOp::get_static && is_the_field(receiver->field);
      bool of_type = (field_type && c.method.owner == *field_type) || (receiver && receiver->field.descriptor == field.descriptor);
      if (from_field) {
        sites.push_back(ResetSite{ResetKind::mutates_field, c.offset, c.method});
      } else if (of_type) {
        sites.push_back(ResetSite{ResetKind::mutates_field_type, c.offset, c.method});
      }
    }
    if (sites.empty()) continue;
    std::sort(sites.begin(), sites.end(), [](const ResetSite& a, const ResetSite& b) { return a.offset < b.offset; });
    out.push_back(ResetCandidate{cls->name, m->name, m->descriptor, m->access_flags, std::move(sites)});
    is_candidate[i] = true;
  }
  // Callers of what writes or mutates the field itself (a public `shutdown(name)` whose private
  // `stop(name)` removes the entry), up to kCallerDepth calls away.
  constexpr int kCallerDepth = 3;
  auto resets_the_field = [](const ResetCandidate& r) {
    return std::any_of(r.sites.begin(), r.sites.end(), [](const ResetSite& s) { return s.kind != ResetKind::mutates_field_type; });
  };
  for (int depth = 0; depth < kCallerDepth; ++depth) {
    std::vector<ResetCandidate> found;
    for (std::size_t i = 0; i < methods.size(); ++i) {
      if (is_candidate[i]) continue;
      const auto& [cls, m, summary] = methods[i];
      std::vector<ResetSite> sites;
      for (const MethodCall& c : summary.calls) {
        if (c.op == CallOp::dynamic) continue;
        bool calls_reset = std::any_of(out.begin(), out.end(), [&](const ResetCandidate& r) {
          return r.class_name == c.method.owner && r.method_name == c.method.name && r.method_descriptor == c.method.descriptor &&
                 resets_the_field(r);
        });
        if (calls_reset) sites.push_back(ResetSite{ResetKind::calls_reset, c.offset, c.method});
      }
      if (sites.empty()) continue;
      found.push_back(ResetCandidate{cls->name, m->name, m->descriptor, m->access_flags, std::move(sites)});
      is_candidate[i] = true;
    }
    if (found.empty()) break;
    out.insert(out.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  return out;
}

util::Result<Literals> collect_literals(const ClassFile& cls) {
  Literals out;
  for (const Constant& k : cls.pool) {
    switch (k.tag) {
      case ConstantTag::string: {
        auto text = cls.utf8(k.first);
        if (!text) return std::unexpected(text.error());
        add_unique(out.strings, std::string(*text));
        break;
      }
      case ConstantTag::integer: add_unique(out.ints, static_cast<std::int32_t>(k.int_value)); break;
      case ConstantTag::long_: add_unique(out.longs, k.int_value); break;
      default: break;
    }
  }
  for (const Member& m : cls.methods) {
    if (!m.code) continue;
    auto summary = summarize(cls, *m.code);
    if (!summary) return std::unexpected(in_method(summary.error(), cls, m));
    for (const LoadedConstant& c : summary->constants)
      if (c.kind == ConstantKind::integer) add_unique(out.ints, static_cast<std::int32_t>(c.int_value));
  }
  return out;
}

util::Result<Literals> collect_method_literals(const ClassFile& cls, std::string_view method_name) {
  Literals out;
  const std::string lambda_prefix = "lambda$" + std::string(method_name) + "$";
  for (const Member& m : cls.methods) {
    if (!m.code || (m.name != method_name && !m.name.starts_with(lambda_prefix))) continue;
    auto summary = summarize(cls, *m.code);
    if (!summary) return std::unexpected(in_method(summary.error(), cls, m));
    for (const LoadedConstant& c : summary->constants) {
      switch (c.kind) {
        case ConstantKind::string: add_unique(out.strings, c.text); break;
        case ConstantKind::integer: add_unique(out.ints, static_cast<std::int32_t>(c.int_value)); break;
        case ConstantKind::long_: add_unique(out.longs, c.int_value); break;
        default: break;
      }
    }
  }
  return out;
}

void merge(Literals& into, const Literals& from) {
  for (const auto& s : from.strings) add_unique(into.strings, s);
  for (auto v : from.ints) add_unique(into.ints, v);
  for (auto v : from.longs) add_unique(into.longs, v);
}

}  // namespace flakescan::classfile
