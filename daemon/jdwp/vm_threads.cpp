// JdwpVm's thread control: listing threads and their status, suspend and resume (one thread
// or the VM), stacks, and a frame's `this` and arguments.
#include "jdwp/jdwp_vm.hpp"

#include "jdwp/vm_descriptors.hpp"

namespace flakescan::jdwp {

using util::Errc;
using util::fail;
using core::Deadline;

namespace {

// The frames of a Frames reply, each location resolved (the first failure is the answer).
template <class Frames, class Resolve>
util::Result<std::vector<core::Frame>> resolved(const Frames& frames, Resolve resolve) {
  std::vector<core::Frame> out;
  for (const auto& f : frames) {
    auto frame = resolve(f.location);
    if (!frame) return std::unexpected(frame.error());
    out.push_back(std::move(*frame));
  }
  return out;
}

}  // namespace

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
  return resolved(reply->frames, [&](const Location& l) { return resolve(l, deadline); });
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
  return resolved(frames->frames, [&](const Location& l) { return resolve(l, deadline); });
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

}  // namespace flakescan::jdwp
