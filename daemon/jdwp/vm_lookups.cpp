// JdwpVm's lookups: Java <-> JNI names, the cached class, method, field and line-table
// lookups every other part uses (cache policy in jdwp_vm.hpp), and value conversions
// between core::Value and JDWP values.
#include "jdwp/jdwp_vm.hpp"

#include <algorithm>

#include "classfile/classfile.hpp"
#include "jdwp/vm_descriptors.hpp"

namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

// ---- names --------------------------------------------------------------------------------

std::string JdwpVm::java_name(const std::string& sig) { return classfile::java_type_name(sig); }

std::string JdwpVm::jni_signature(const std::string& name) {
  std::string n = name;
  std::replace(n.begin(), n.end(), '.', '/');
  return "L" + n + ";";
}

// ---- lookups ------------------------------------------------------------------------------

util::Result<std::vector<ReferenceTypeId>> JdwpVm::classes_named(const std::string& class_name, Deadline deadline) {
  auto reply = client_->call<VmClassesBySignature>({jni_signature(class_name)}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::vector<ReferenceTypeId> out;
  for (const auto& c : reply->classes) out.push_back(c.type);
  return out;
}

util::Result<ReferenceTypeId> JdwpVm::class_named(const std::string& class_name, Deadline deadline) {
  auto all = classes_named(class_name, deadline);
  if (!all) return std::unexpected(all.error());
  if (all->empty()) return fail(Errc::not_found, "class " + class_name + " is not loaded");
  return all->front();
}

util::Result<std::string> JdwpVm::signature_of(ReferenceTypeId type, Deadline deadline) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = signatures_.find(type.value); it != signatures_.end()) return it->second;
  }
  auto reply = client_->call<RtSignature>({type}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::lock_guard lock(mutex_);
  signatures_[type.value] = reply->value;
  return reply->value;
}

util::Result<std::vector<JdwpVm::MethodInfo>> JdwpVm::methods_of(ReferenceTypeId type, Deadline deadline) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = methods_.find(type.value); it != methods_.end()) return it->second;
  }
  auto reply = client_->call<RtMethods>({type}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::vector<MethodInfo> out;
  for (const auto& m : reply->methods) out.push_back({m.method, m.name, m.signature, m.modifiers});
  std::lock_guard lock(mutex_);
  methods_[type.value] = out;
  return out;
}

util::Result<ReferenceTypeId> JdwpVm::superclass_of(ReferenceTypeId type, Deadline deadline) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = supers_.find(type.value); it != supers_.end()) return it->second;
  }
  auto reply = client_->call<CtSuperclass>({type}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::lock_guard lock(mutex_);
  supers_[type.value] = reply->type;
  return reply->type;
}

util::Result<JdwpVm::MethodInfo> JdwpVm::method_named(ReferenceTypeId type, const std::string& name,
                                                      const std::string& signature, bool search_super,
                                                      ReferenceTypeId* declaring, Deadline deadline) {
  for (ReferenceTypeId t = type; t;) {
    auto methods = methods_of(t, deadline);
    if (!methods) return std::unexpected(methods.error());
    std::vector<MethodInfo> hits;
    for (const auto& m : *methods) {
      if (m.name == name && (signature.empty() || m.signature == signature)) hits.push_back(m);
    }
    if (hits.size() > 1) return fail(Errc::invalid_argument, "method " + name + " is overloaded: give its signature");
    if (hits.size() == 1) {
      if (declaring) *declaring = t;
      return hits.front();
    }
    if (!search_super) break;
    auto super = superclass_of(t, deadline);
    if (!super) return std::unexpected(super.error());
    t = *super;
  }
  return fail(Errc::not_found, "no method " + name + signature);
}

util::Result<std::vector<JdwpVm::FieldInfo>> JdwpVm::own_fields(ReferenceTypeId type, Deadline deadline) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = fields_.find(type.value); it != fields_.end()) return it->second;
  }
  auto reply = client_->call<RtFields>({type}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::vector<FieldInfo> out;
  for (const auto& f : reply->fields_) out.push_back({f.field, type, f.name, f.signature, f.modifiers});
  std::lock_guard lock(mutex_);
  fields_[type.value] = out;
  return out;
}

util::Result<std::vector<JdwpVm::FieldInfo>> JdwpVm::instance_fields(ReferenceTypeId type, Deadline deadline) {
  std::vector<FieldInfo> out;
  for (ReferenceTypeId t = type; t;) {
    auto own = own_fields(t, deadline);
    if (!own) return std::unexpected(own.error());
    for (const auto& f : *own) {
      if (!(f.modifiers & acc_static)) out.push_back(f);
    }
    auto super = superclass_of(t, deadline);
    if (!super) {
      // Arrays and interfaces have no ClassType: stop there.
      break;
    }
    t = *super;
  }
  return out;
}

util::Result<MLineTable::Reply> JdwpVm::line_table(ReferenceTypeId type, MethodId method, Deadline deadline) {
  const auto key = std::make_pair(type.value, method.value);
  {
    std::lock_guard lock(mutex_);
    if (auto it = line_tables_.find(key); it != line_tables_.end()) return it->second;
  }
  auto reply = client_->call<MLineTable>({type, method}, deadline);
  MLineTable::Reply table;
  if (reply) {
    table = std::move(*reply);
  } else if (reply.error().code != Errc::not_found && reply.error().code != Errc::unsupported) {
    // ABSENT_INFORMATION (no -g) and NATIVE_METHOD mean "no lines", anything else is real.
    return std::unexpected(reply.error());
  } else {
    table.start = table.end = -1;
  }
  std::lock_guard lock(mutex_);
  line_tables_[key] = table;
  return table;
}

util::Result<core::Frame> JdwpVm::resolve(const Location& location, Deadline deadline) {
  // A location whose class and method are in the caches is resolved there, under the lock,
  // with no copy of the class's method list or the method's line table (every frame of every
  // stack read comes here).
  if (auto cached = resolve_cached(location)) return std::move(*cached);
  core::Frame frame;
  auto sig = signature_of(location.class_id, deadline);
  if (!sig) return std::unexpected(sig.error());
  frame.class_name = java_name(*sig);
  auto methods = methods_of(location.class_id, deadline);
  if (!methods) return std::unexpected(methods.error());
  for (const auto& m : *methods) {
    if (m.id == location.method) {
      frame.method = m.name;
      frame.signature = m.signature;
      break;
    }
  }
  auto table = line_table(location.class_id, location.method, deadline);
  if (!table) return std::unexpected(table.error());
  std::int64_t best = -1;
  for (const auto& l : table->lines) {
    if (l.code_index <= static_cast<std::int64_t>(location.index) && l.code_index >= best) {
      best = l.code_index;
      frame.line = l.line;
    }
  }
  return frame;
}

util::Result<ReferenceTypeId> JdwpVm::type_of(ObjectId object, Deadline deadline) {
  auto reply = client_->call<OrReferenceType>({object}, deadline);
  if (!reply) return std::unexpected(reply.error());
  return reply->type;
}

// ---- values -------------------------------------------------------------------------------

core::Value JdwpVm::to_core(const Value& v) const {
  using K = core::Value::Kind;
  core::Value out;
  switch (v.tag) {
    case Tag::void_: out.kind = K::void_; break;
    case Tag::boolean: out.kind = K::boolean; out.integer = v.bits ? 1 : 0; break;
    case Tag::byte_: out.kind = K::byte_; out.integer = v.as_int(); break;
    case Tag::char_: out.kind = K::char_; out.integer = static_cast<std::int64_t>(v.bits & 0xffff); break;
    case Tag::short_: out.kind = K::short_; out.integer = v.as_int(); break;
    case Tag::int_: out.kind = K::int_; out.integer = v.as_int(); break;
    case Tag::long_: out.kind = K::long_; out.integer = v.as_int(); break;
    case Tag::float_: out.kind = K::float_; out.floating = v.as_float(); break;
    case Tag::double_: out.kind = K::double_; out.floating = v.as_double(); break;
    case Tag::string: out.kind = v.bits ? K::string : K::null; out.object.id = v.bits; break;
    case Tag::array: out.kind = v.bits ? K::array : K::null; out.object.id = v.bits; break;
    default: out.kind = v.bits ? K::object : K::null; out.object.id = v.bits; break;
  }
  return out;
}

Value JdwpVm::to_jdwp(const core::Value& v, Tag tag) const {
  using K = core::Value::Kind;
  Value out{tag, 0};
  if (is_object_tag(tag)) {
    out.bits = v.object.id;
    if (v.kind == K::string) out.tag = Tag::string;
    else if (v.kind == K::array) out.tag = Tag::array;
    return out;
  }
  const bool from_float = v.kind == K::float_ || v.kind == K::double_;
  switch (tag) {
    case Tag::float_: return Value::float32(static_cast<float>(from_float ? v.floating : static_cast<double>(v.integer)));
    case Tag::double_: return Value::float64(from_float ? v.floating : static_cast<double>(v.integer));
    default:
      out.bits = static_cast<std::uint64_t>(from_float ? static_cast<std::int64_t>(v.floating) : v.integer);
      return out;
  }
}

util::Result<std::vector<Value>> JdwpVm::to_jdwp_args(const std::string& signature, const std::vector<core::Value>& args) const {
  auto tags = parameter_tags(signature);
  if (tags.size() != args.size()) {
    return fail(Errc::invalid_argument, signature + " takes " + std::to_string(tags.size()) + " arguments, got " +
                                            std::to_string(args.size()));
  }
  std::vector<Value> out;
  for (std::size_t i = 0; i < args.size(); ++i) out.push_back(to_jdwp(args[i], tags[i]));
  return out;
}

}  // namespace flakescan::jdwp
