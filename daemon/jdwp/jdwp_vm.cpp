#include "jdwp/jdwp_vm.hpp"

#include <algorithm>


namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

namespace {

constexpr std::int32_t acc_static = 0x0008;
constexpr std::int32_t acc_final = 0x0010;

SuspendPolicy policy_of(core::SuspendMode mode) {
  switch (mode) {
    case core::SuspendMode::none: return SuspendPolicy::none;
    case core::SuspendMode::thread: return SuspendPolicy::event_thread;
    case core::SuspendMode::all: return SuspendPolicy::all;
  }
  return SuspendPolicy::event_thread;
}

// Tags of a method's parameters, from its JNI descriptor "(ILjava/lang/String;[J)V".
std::vector<Tag> parameter_tags(const std::string& signature) {
  std::vector<Tag> tags;
  std::size_t i = 1;
  while (i < signature.size() && signature[i] != ')') {
    const std::size_t start = i;
    while (signature[i] == '[') ++i;
    if (signature[i] == 'L') i = signature.find(';', i);
    if (i == std::string::npos) break;
    ++i;
    tags.push_back(tag_for_signature(signature.substr(start, i - start)));
  }
  return tags;
}

}  // namespace

// ---- names --------------------------------------------------------------------------------

std::string JdwpVm::java_name(const std::string& sig) {
  std::size_t dims = 0;
  while (dims < sig.size() && sig[dims] == '[') ++dims;
  std::string base;
  std::string_view rest = std::string_view(sig).substr(dims);
  if (rest.size() >= 2 && rest.front() == 'L' && rest.back() == ';') {
    base = std::string(rest.substr(1, rest.size() - 2));
    std::replace(base.begin(), base.end(), '/', '.');
  } else if (rest.size() == 1) {
    switch (rest[0]) {
      case 'Z': base = "boolean"; break;
      case 'B': base = "byte"; break;
      case 'C': base = "char"; break;
      case 'S': base = "short"; break;
      case 'I': base = "int"; break;
      case 'J': base = "long"; break;
      case 'F': base = "float"; break;
      case 'D': base = "double"; break;
      case 'V': base = "void"; break;
      default: base = std::string(rest);
    }
  } else {
    base = std::string(rest);
  }
  for (std::size_t i = 0; i < dims; ++i) base += "[]";
  return base;
}

std::string JdwpVm::jni_signature(const std::string& name) {
  std::string n = name;
  std::replace(n.begin(), n.end(), '.', '/');
  return "L" + n + ";";
}

// ---- life ---------------------------------------------------------------------------------

JdwpVm::JdwpVm(std::unique_ptr<Client> client, VmOptions options) : client_(std::move(client)), options_(std::move(options)) {}

util::Result<std::unique_ptr<JdwpVm>> JdwpVm::create(std::unique_ptr<Client> client, VmOptions options, Deadline deadline) {
  auto version = client->call<VmVersion>({}, deadline);
  if (!version) return std::unexpected(version.error());
  std::unique_ptr<JdwpVm> vm(new JdwpVm(std::move(client), std::move(options)));
  vm->description_ = version->vm_name + " " + version->vm_version;
  vm->pump_ = std::thread([raw = vm.get()] { raw->pump(); });
  vm->arm();
  return vm;
}

util::Result<std::unique_ptr<JdwpVm>> JdwpVm::attach(const std::string& host, unsigned short port, VmOptions options,
                                                     Deadline deadline) {
  auto client = Client::connect(host, port, options.session, deadline);
  if (!client) return std::unexpected(client.error());
  return create(std::move(*client), std::move(options), deadline);
}

util::Result<std::unique_ptr<JdwpVm>> JdwpVm::attach_socket(boost::asio::ip::tcp::socket socket, VmOptions options,
                                                            Deadline deadline) {
  auto client = Client::adopt(std::move(socket), options.session, deadline);
  if (!client) return std::unexpected(client.error());
  return create(std::move(*client), std::move(options), deadline);
}

JdwpVm::~JdwpVm() {
  client_->close("controller destroyed");
  {
    std::lock_guard lock(events_mutex_);
    ended_ = true;
  }
  events_cv_.notify_all();
  {
    std::lock_guard lock(slow_mutex_);
    stopping_ = true;
  }
  slow_cv_.notify_all();
  if (pump_.joinable()) pump_.join();
  // Joins the io thread while this object is still whole: its last handlers touch slow_.
  client_.reset();
}

bool JdwpVm::alive() const { return !client_->closed(); }

util::Result<void> JdwpVm::check_alive() const {
  if (client_->closed()) return fail(Errc::disconnected, "the VM session has ended");
  return {};
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

// ---- breakpoints and watches --------------------------------------------------------------

util::Result<std::int32_t> JdwpVm::set_request(const ErSet::Request& request, core::RequestHandle handle, Deadline deadline) {
  auto reply = client_->call<ErSet>(request, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::lock_guard lock(mutex_);
  by_jdwp_[reply->value] = handle;
  return reply->value;
}

util::Result<void> JdwpVm::install_breakpoint(core::RequestHandle handle, ReferenceTypeId type, Deadline deadline) {
  core::BreakpointSpec spec;
  {
    std::lock_guard lock(mutex_);
    auto it = requests_.find(handle);
    if (it == requests_.end()) return {};  // cleared meanwhile
    if (!it->second.installed_in.insert(type.value).second) return {};
    spec = it->second.spec;
  }
  auto methods = methods_of(type, deadline);
  if (!methods) return std::unexpected(methods.error());
  std::vector<Location> locations;
  for (const auto& m : *methods) {
    if (!spec.method.empty() && m.name != spec.method) continue;
    if (!spec.signature.empty() && m.signature != spec.signature) continue;
    auto table = line_table(type, m.id, deadline);
    if (!table) return std::unexpected(table.error());
    std::int64_t index = -1;
    if (spec.line == 0) {
      index = table->start >= 0 ? table->start : 0;
    } else {
      for (const auto& l : table->lines) {
        if (l.line == spec.line && (index < 0 || l.code_index < index)) index = l.code_index;
      }
    }
    if (index >= 0) locations.push_back(Location{TypeTag::class_, type, m.id, static_cast<std::uint64_t>(index)});
  }
  if (locations.empty()) {
    return fail(Errc::not_found, "no code for " + spec.class_name + "." + (spec.method.empty() ? "*" : spec.method) +
                                     (spec.line > 0 ? " at line " + std::to_string(spec.line) : ""));
  }
  for (const auto& loc : locations) {
    ErSet::Request request;
    request.kind = EventKind::breakpoint;
    request.suspend = policy_of(spec.suspend);
    if (spec.count > 0) request.modifiers.push_back(Modifier::count_of(spec.count));
    if (spec.only_thread) request.modifiers.push_back(Modifier::thread_only(ObjectId{spec.only_thread.id}));
    request.modifiers.push_back(Modifier::location_only(loc));
    auto id = set_request(request, handle, deadline);
    if (!id) return std::unexpected(id.error());
    std::lock_guard lock(mutex_);
    requests_[handle].jdwp_requests.push_back(*id);
  }
  return {};
}

util::Result<core::RequestHandle> JdwpVm::set_breakpoint(const core::BreakpointSpec& spec, Deadline deadline) {
  if (auto ok = check_alive(); !ok) return std::unexpected(ok.error());
  if (spec.class_name.empty()) return fail(Errc::invalid_argument, "breakpoint without a class");
  if (spec.method.empty() && spec.line <= 0) return fail(Errc::invalid_argument, "breakpoint needs a method or a line");
  core::RequestHandle handle;
  {
    std::lock_guard lock(mutex_);
    handle = next_handle_++;
    Request r;
    r.breakpoint = true;
    r.spec = spec;
    requests_[handle] = r;
  }
  // Ask for the class's prepare first, then look at what is loaded: no load slips between.
  ErSet::Request prepare;
  prepare.kind = EventKind::class_prepare;
  prepare.suspend = SuspendPolicy::event_thread;
  prepare.modifiers.push_back(Modifier::class_match(spec.class_name));
  auto prepare_id = set_request(prepare, handle, deadline);
  auto undo = [&](const util::Error& e) -> util::Result<core::RequestHandle> {
    (void)clear(handle, deadline);
    return std::unexpected(e);
  };
  if (!prepare_id) return undo(prepare_id.error());
  {
    std::lock_guard lock(mutex_);
    requests_[handle].prepare_request = *prepare_id;
  }
  auto loaded = classes_named(spec.class_name, deadline);
  if (!loaded) return undo(loaded.error());
  for (auto type : *loaded) {
    if (auto ok = install_breakpoint(handle, type, deadline); !ok) return undo(ok.error());
  }
  return handle;
}

util::Result<core::RequestHandle> JdwpVm::watch(const core::WatchSpec& spec, Deadline deadline) {
  if (auto ok = check_alive(); !ok) return std::unexpected(ok.error());
  ErSet::Request request;
  switch (spec.kind) {
    case core::WatchKind::class_prepare: request.kind = EventKind::class_prepare; break;
    case core::WatchKind::thread_start: request.kind = EventKind::thread_start; break;
    case core::WatchKind::thread_death: request.kind = EventKind::thread_death; break;
    case core::WatchKind::method_entry: request.kind = EventKind::method_entry; break;
    case core::WatchKind::method_exit: request.kind = EventKind::method_exit; break;
    case core::WatchKind::monitor_wait: request.kind = EventKind::monitor_wait; break;
    case core::WatchKind::monitor_waited: request.kind = EventKind::monitor_waited; break;
    case core::WatchKind::exception: request.kind = EventKind::exception; break;
  }
  request.suspend = policy_of(spec.suspend);
  if (!spec.class_pattern.empty()) request.modifiers.push_back(Modifier::class_match(spec.class_pattern));
  if (spec.only_thread) request.modifiers.push_back(Modifier::thread_only(ObjectId{spec.only_thread.id}));
  core::RequestHandle handle;
  {
    std::lock_guard lock(mutex_);
    handle = next_handle_++;
    Request r;
    r.watch = spec;
    requests_[handle] = r;
  }
  auto id = set_request(request, handle, deadline);
  std::lock_guard lock(mutex_);
  if (!id) {
    requests_.erase(handle);
    return std::unexpected(id.error());
  }
  requests_[handle].jdwp_requests.push_back(*id);
  return handle;
}

util::Result<void> JdwpVm::clear(core::RequestHandle handle, Deadline deadline) {
  Request r;
  {
    std::lock_guard lock(mutex_);
    auto it = requests_.find(handle);
    if (it == requests_.end()) return fail(Errc::not_found, "no request with handle " + std::to_string(handle));
    r = std::move(it->second);
    requests_.erase(it);
  }
  EventKind kind = EventKind::breakpoint;
  if (!r.breakpoint) {
    switch (r.watch.kind) {
      case core::WatchKind::class_prepare: kind = EventKind::class_prepare; break;
      case core::WatchKind::thread_start: kind = EventKind::thread_start; break;
      case core::WatchKind::thread_death: kind = EventKind::thread_death; break;
      case core::WatchKind::method_entry: kind = EventKind::method_entry; break;
      case core::WatchKind::method_exit: kind = EventKind::method_exit; break;
      case core::WatchKind::monitor_wait: kind = EventKind::monitor_wait; break;
      case core::WatchKind::monitor_waited: kind = EventKind::monitor_waited; break;
      case core::WatchKind::exception: kind = EventKind::exception; break;
    }
  }
  util::Result<void> result;
  auto clear_one = [&](EventKind k, std::int32_t id) {
    auto reply = client_->call<ErClear>({k, id}, deadline);
    // An expired Count request is already gone on the VM side: not an error.
    if (!reply && reply.error().code != Errc::not_found && result) result = std::unexpected(reply.error());
  };
  if (r.prepare_request) clear_one(EventKind::class_prepare, r.prepare_request);
  for (auto id : r.jdwp_requests) clear_one(kind, id);
  std::lock_guard lock(mutex_);
  for (auto it = by_jdwp_.begin(); it != by_jdwp_.end();) {
    it = it->second == handle ? by_jdwp_.erase(it) : std::next(it);
  }
  return result;
}

core::RequestHandle JdwpVm::handle_for(std::int32_t jdwp_request) {
  if (jdwp_request == 0) return 0;
  // The VM may send an event of a request before we have read the request's own reply:
  // give the requester a moment to record the id.
  for (int attempt = 0; attempt < 50; ++attempt) {
    {
      std::lock_guard lock(mutex_);
      if (auto it = by_jdwp_.find(jdwp_request); it != by_jdwp_.end()) return it->second;
    }
    if (client_->closed()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return 0;
}

// ---- threads ------------------------------------------------------------------------------

util::Result<std::vector<core::ThreadInfo>> JdwpVm::threads(Deadline deadline) {
  auto all = client_->call<VmAllThreads>({}, deadline);
  if (!all) return std::unexpected(all.error());
  std::vector<core::ThreadInfo> out;
  for (auto t : all->objects) {
    auto name = client_->call<TrName>({t}, deadline);
    if (!name) {
      if (name.error().code == Errc::not_found) continue;  // ended meanwhile
      return std::unexpected(name.error());
    }
    out.push_back({core::ThreadRef{t.value}, name->value});
  }
  return out;
}

util::Result<core::ThreadStatus> JdwpVm::thread_status(core::ThreadRef thread, Deadline deadline) {
  auto reply = client_->call<TrStatus>({ObjectId{thread.id}}, deadline);
  if (!reply) return std::unexpected(reply.error());
  core::ThreadStatus out;
  switch (reply->thread_status) {
    case 0: out.state = core::ThreadState::zombie; break;
    case 1: out.state = core::ThreadState::running; break;
    case 2: out.state = core::ThreadState::sleeping; break;
    case 3: out.state = core::ThreadState::monitor; break;
    case 4: out.state = core::ThreadState::waiting; break;
    default: out.state = core::ThreadState::unknown; break;
  }
  out.suspended = (reply->suspend_status & suspend_status_suspended) != 0;
  return out;
}

util::Result<std::vector<core::Frame>> JdwpVm::stack(core::ThreadRef thread, int max_frames, Deadline deadline) {
  auto reply = client_->call<TrFrames>({ObjectId{thread.id}, 0, max_frames > 0 ? max_frames : -1}, deadline);
  if (!reply && max_frames > 0 && reply.error().code == Errc::invalid_argument) {
    reply = client_->call<TrFrames>({ObjectId{thread.id}, 0, -1}, deadline);  // fewer frames than asked
  }
  if (!reply) return std::unexpected(reply.error());
  std::vector<core::Frame> out;
  for (const auto& f : reply->frames) {
    auto frame = resolve(f.location, deadline);
    if (!frame) return std::unexpected(frame.error());
    out.push_back(std::move(*frame));
  }
  return out;
}

util::Result<std::vector<core::Frame>> JdwpVm::stack_then_resume(core::ThreadRef thread, int max_frames,
                                                                  Deadline deadline) {
  if (auto ok = check_alive(); !ok) return std::unexpected(ok.error());
  std::vector<std::pair<Command, Bytes>> commands;
  commands.emplace_back(TrFrames::id, encode(TrFrames::Request{ObjectId{thread.id}, 0, max_frames > 0 ? max_frames : -1},
                                             client_->sizes()));
  commands.emplace_back(TrResume::id, encode(TrResume::Request{ObjectId{thread.id}}, client_->sizes()));
  auto replies = client_->raw_call_all(std::move(commands), deadline);
  auto frames = client_->decode_reply<TrFrames>(replies[0]);
  auto resumed = client_->decode_reply<TrResume>(replies[1]);
  if (!frames) return std::unexpected(frames.error());
  if (!resumed) return std::unexpected(resumed.error());
  std::vector<core::Frame> out;
  for (const auto& f : frames->frames) {
    auto frame = resolve(f.location, deadline);
    if (!frame) return std::unexpected(frame.error());
    out.push_back(std::move(*frame));
  }
  return out;
}

util::Result<void> JdwpVm::suspend(core::ThreadRef thread, Deadline deadline) {
  auto r = client_->call<TrSuspend>({ObjectId{thread.id}}, deadline);
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<void> JdwpVm::resume(core::ThreadRef thread, Deadline deadline) {
  auto r = client_->call<TrResume>({ObjectId{thread.id}}, deadline);
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<void> JdwpVm::suspend_all(Deadline deadline) {
  auto r = client_->call<VmSuspend>({}, deadline);
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<void> JdwpVm::resume_all(Deadline deadline) {
  auto r = client_->call<VmResume>({}, deadline);
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<core::ObjectRef> JdwpVm::this_object(core::ThreadRef thread, int frame_index, Deadline deadline) {
  auto frames = client_->call<TrFrames>({ObjectId{thread.id}, frame_index, 1}, deadline);
  if (!frames) return std::unexpected(frames.error());
  if (frames->frames.empty()) return fail(Errc::not_found, "no frame " + std::to_string(frame_index));
  auto reply = client_->call<SfThisObject>({ObjectId{thread.id}, frames->frames.front().frame}, deadline);
  if (!reply) return std::unexpected(reply.error());
  return core::ObjectRef{reply->value.bits};
}

util::Result<std::vector<core::Value>> JdwpVm::arguments(core::ThreadRef thread, int frame_index, Deadline deadline) {
  auto frames = client_->call<TrFrames>({ObjectId{thread.id}, frame_index, 1}, deadline);
  if (!frames) return std::unexpected(frames.error());
  if (frames->frames.empty()) return fail(Errc::not_found, "no frame " + std::to_string(frame_index));
  const auto& f = frames->frames.front();
  auto methods = methods_of(f.location.class_id, deadline);
  if (!methods) return std::unexpected(methods.error());
  const MethodInfo* method = nullptr;
  for (const auto& m : *methods) {
    if (m.id == f.location.method) method = &m;
  }
  if (!method) return fail(Errc::not_found, "frame's method is unknown");
  SfGetValues::Request request{ObjectId{thread.id}, f.frame, {}};
  std::int32_t slot = (method->modifiers & acc_static) ? 0 : 1;
  for (Tag tag : parameter_tags(method->signature)) {
    request.slots.push_back({slot, tag == Tag::string ? Tag::object : tag});
    slot += (tag == Tag::long_ || tag == Tag::double_) ? 2 : 1;
  }
  auto reply = client_->call<SfGetValues>(request, deadline);
  if (!reply) return std::unexpected(reply.error());
  std::vector<core::Value> out;
  for (const auto& v : reply->values) out.push_back(to_core(v));
  return out;
}

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

// ---- end ----------------------------------------------------------------------------------

util::Result<void> JdwpVm::detach(Deadline deadline) {
  auto r = client_->call<VmDispose>({}, deadline);
  client_->close("detached");
  if (!r) return std::unexpected(r.error());
  return {};
}

util::Result<void> JdwpVm::exit(int code, Deadline deadline) {
  auto r = client_->call<VmExit>({code}, deadline);
  // The VM may close the connection before it answers: that is the exit we asked for.
  if (!r && r.error().code != Errc::disconnected) return std::unexpected(r.error());
  return {};
}

}  // namespace flakescan::jdwp
