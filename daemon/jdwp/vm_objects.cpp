// JdwpVm's object access: loaded classes and their lines, static and instance fields,
// strings, and static and instance method invocation.
#include "jdwp/jdwp_vm.hpp"

#include "jdwp/vm_descriptors.hpp"

namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

// ---- classes and fields -------------------------------------------------------------------

util::Result<std::vector<std::string>> JdwpVm::loaded_classes(Deadline deadline) {
  auto reply = client_->call<VmAllClasses>({}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::vector<std::string> out;
  for (const auto& c : reply->classes) {
    if (c.tag == TypeTag::class_) out.push_back(java_name(c.signature));
  }
  return out;
}

util::Result<std::vector<std::string>> JdwpVm::initialized_classes(Deadline deadline) {
  constexpr std::int32_t initialized = 4;  // JDWP ClassStatus INITIALIZED
  auto reply = client_->call<VmAllClasses>({}, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::vector<std::string> out;
  for (const auto& c : reply->classes)
    if (c.tag == TypeTag::class_ && (c.status & initialized)) out.push_back(java_name(c.signature));
  return out;
}

util::Result<std::vector<int>> JdwpVm::lines(const std::string& class_name, const std::string& method,
                                             const std::string& signature, Deadline deadline) {
  auto type = class_named(class_name, deadline);
  if (!type) return std::unexpected(type.error());
  auto methods = methods_of(*type, deadline);
  if (!methods) return std::unexpected(methods.error());
  std::set<int> out;
  bool found = false;
  for (const auto& m : *methods) {
    if (m.name != method || (!signature.empty() && m.signature != signature)) continue;
    found = true;
    auto table = line_table(*type, m.id, deadline);
    if (!table) return std::unexpected(table.error());
    for (const auto& l : table->lines) out.insert(l.line);
  }
  if (!found) return fail(Errc::not_found, "no method " + class_name + "." + method + signature);
  return std::vector<int>(out.begin(), out.end());
}

util::Result<std::vector<core::StaticField>> JdwpVm::static_fields(const std::string& class_name, Deadline deadline) {
  auto type = class_named(class_name, deadline);
  if (!type) return std::unexpected(type.error());
  auto fields = own_fields(*type, deadline);
  if (!fields) return std::unexpected(fields.error());
  RtGetValues::Request request{*type, {}};
  std::vector<core::StaticField> out;
  for (const auto& f : *fields) {
    if (!(f.modifiers & acc_static)) continue;
    request.fields_.push_back(f.id);
    out.push_back({f.name, f.signature, (f.modifiers & acc_final) != 0, {}});
  }
  if (out.empty()) return out;
  auto values = client_->call<RtGetValues>(request, deadline);
  if (!values) return std::unexpected(values.error());
  if (values->values.size() != out.size()) return fail(Errc::malformed, "GetValues answered a different number of values");
  for (std::size_t i = 0; i < out.size(); ++i) out[i].value = to_core(values->values[i]);
  return out;
}

util::Result<void> JdwpVm::set_static_field(const std::string& class_name, const std::string& field, const core::Value& value,
                                            Deadline deadline) {
  auto type = class_named(class_name, deadline);
  if (!type) return std::unexpected(type.error());
  auto fields = own_fields(*type, deadline);
  if (!fields) return std::unexpected(fields.error());
  for (const auto& f : *fields) {
    if (f.name != field || !(f.modifiers & acc_static)) continue;
    CtSetValues::Request request{*type, {FieldValue{f.id, UntaggedValue{to_jdwp(value, tag_for_signature(f.signature))}}}};
    auto reply = client_->call<CtSetValues>(request, deadline);
    if (!reply) return std::unexpected(reply.error());
    return {};
  }
  return fail(Errc::not_found, "no static field " + class_name + "." + field);
}

util::Result<core::Value> JdwpVm::get_field(core::ObjectRef object, const std::string& field, Deadline deadline) {
  auto type = type_of(ObjectId{object.id}, deadline);
  if (!type) return std::unexpected(type.error());
  auto fields = instance_fields(*type, deadline);
  if (!fields) return std::unexpected(fields.error());
  for (const auto& f : *fields) {
    if (f.name != field) continue;
    auto values = client_->call<OrGetValues>({ObjectId{object.id}, {f.id}}, deadline);
    if (!values) return std::unexpected(values.error());
    if (values->values.size() != 1) return fail(Errc::malformed, "GetValues answered a different number of values");
    return to_core(values->values.front());
  }
  return fail(Errc::not_found, "no field " + field);
}

util::Result<std::string> JdwpVm::class_of(core::ObjectRef object, Deadline deadline) {
  auto type = type_of(ObjectId{object.id}, deadline);
  if (!type) return std::unexpected(type.error());
  auto sig = signature_of(*type, deadline);
  if (!sig) return std::unexpected(sig.error());
  return java_name(*sig);
}

util::Result<std::string> JdwpVm::string_value(core::ObjectRef string, Deadline deadline) {
  auto reply = client_->call<SrValue>({ObjectId{string.id}}, deadline);
  if (!reply) return std::unexpected(reply.error());
  return reply->value;
}

util::Result<core::Value> JdwpVm::new_string(const std::string& text, Deadline deadline) {
  auto reply = client_->call<VmCreateString>({text}, deadline);
  if (!reply) return std::unexpected(reply.error());
  // Nothing in the VM refers to it yet: keep it from being collected before it is used.
  auto pin = client_->call<OrDisableCollection>({reply->object}, deadline);
  if (!pin) return std::unexpected(pin.error());
  core::Value v;
  v.kind = core::Value::Kind::string;
  v.object.id = reply->object.value;
  return v;
}

// ---- invocation ---------------------------------------------------------------------------

util::Result<core::InvokeResult> JdwpVm::invoke_static(const std::string& class_name, const std::string& method,
                                                       const std::string& signature, const std::vector<core::Value>& arguments,
                                                       core::ThreadRef thread, Deadline deadline) {
  auto type = class_named(class_name, deadline);
  if (!type) return std::unexpected(type.error());
  auto m = method_named(*type, method, signature, false, nullptr, deadline);
  if (!m) return std::unexpected(m.error());
  if (!(m->modifiers & acc_static)) return fail(Errc::invalid_argument, method + " is not static");
  auto args = to_jdwp_args(m->signature, arguments);
  if (!args) return std::unexpected(args.error());
  CtInvokeMethod::Request request{*type, ObjectId{thread.id}, m->id, std::move(*args),
                                  static_cast<std::int32_t>(InvokeOptions::single_threaded)};
  auto reply = client_->call<CtInvokeMethod>(request, deadline);
  if (!reply) return std::unexpected(reply.error());
  return core::InvokeResult{to_core(reply->result), core::ObjectRef{reply->exception.bits}};
}

util::Result<core::InvokeResult> JdwpVm::invoke_method(core::ObjectRef object, const std::string& method,
                                                       const std::string& signature, const std::vector<core::Value>& arguments,
                                                       core::ThreadRef thread, Deadline deadline) {
  auto type = type_of(ObjectId{object.id}, deadline);
  if (!type) return std::unexpected(type.error());
  ReferenceTypeId declaring;
  auto m = method_named(*type, method, signature, true, &declaring, deadline);
  if (!m) return std::unexpected(m.error());
  auto args = to_jdwp_args(m->signature, arguments);
  if (!args) return std::unexpected(args.error());
  OrInvokeMethod::Request request{ObjectId{object.id}, ObjectId{thread.id}, declaring, m->id, std::move(*args),
                                  static_cast<std::int32_t>(InvokeOptions::single_threaded)};
  auto reply = client_->call<OrInvokeMethod>(request, deadline);
  if (!reply) return std::unexpected(reply.error());
  return core::InvokeResult{to_core(reply->result), core::ObjectRef{reply->exception.bits}};
}

}  // namespace flakescan::jdwp
