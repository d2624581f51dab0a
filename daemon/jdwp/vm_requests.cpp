// JdwpVm's event requests: breakpoints (installed in every loaded copy of a class and in
// copies prepared later) and watches, each behind a stable handle of ours.
#include "jdwp/jdwp_vm.hpp"

namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

namespace {

SuspendPolicy policy_of(core::SuspendMode mode) {
  switch (mode) {
    case core::SuspendMode::none: return SuspendPolicy::none;
    case core::SuspendMode::thread: return SuspendPolicy::event_thread;
    case core::SuspendMode::all: return SuspendPolicy::all;
  }
  return SuspendPolicy::event_thread;
}

}  // namespace

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

}  // namespace flakescan::jdwp
