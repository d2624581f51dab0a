#pragma once
// jdwp::JdwpVm: core::Vm over a JDWP Client. What techniques call is in core/vm.hpp.
//
// Policy and invariants
//   * Event sets are taken from the session one at a time (the next is asked for only when
//     the previous one has been handled, so the session's bounded queue is the back-pressure).
//     The common case is handled right on the thread that read the set (on_event_set: every
//     location already in the caches, every request id known, room in the technique's
//     queue -> queued at once, never waiting). Anything else goes to the pump thread, which
//     may block: it resolves locations with requests, installs breakpoints whose class was
//     just prepared (and resumes a class-prepare stop that only served that), and waits for
//     room in the queue. Either way events reach next_event() in the VM's order, none lost.
//   * Who reads: a technique thread in next_event() with an empty queue reads the socket
//     itself while nobody else does (Client::read_until), so a breakpoint hit reaches it
//     with no thread hand-off; calls (stack_then_resume ...) read their own replies the same
//     way. A reading technique thread cannot deadlock on its own queue: it reads only while
//     the queue is empty, stops as soon as one event is in it, and the fast path it runs
//     never blocks (a full queue sends the set to the pump instead). Only the pump blocks
//     in push_event(), and it then holds no reading role; after pushing it wakes a reading
//     technique thread (Client::wake_reader).
//   * Handles (breakpoints, watches) are ours and stable; JDWP request ids behind them may
//     be several (one per loaded copy of a class) and change as classes load.
//   * Caches (class ids, signatures, methods, fields, line tables) are keyed by JDWP ids,
//     which stay valid for the life of the session; they are guarded by one mutex that is
//     never held across a request.
//   * After the VM has gone, every call fails with Errc::disconnected.
//
// Definitions by what they do: jdwp_vm.cpp (life), vm_lookups.cpp, vm_requests.cpp,
// vm_events.cpp, vm_threads.cpp, vm_objects.cpp, heap_walk.cpp (map in docs/jdwp.md).
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/vm.hpp"
#include "jdwp/client.hpp"

namespace flakescan::jdwp {

struct VmOptions {
  SessionOptions session;
  std::size_t event_queue_capacity = 1024;  // core events waiting for next_event()
};

class JdwpVm final : public core::Vm {
 public:
  static util::Result<std::unique_ptr<JdwpVm>> create(std::unique_ptr<Client> client, VmOptions options,
                                                      core::Deadline deadline);
  // Attach to an agent listening on host:port (server=y).
  static util::Result<std::unique_ptr<JdwpVm>> attach(const std::string& host, unsigned short port, VmOptions options,
                                                      core::Deadline deadline);
  // Attach over an already-connected socket (adb `jdwp:<pid>`, an accepted agent connection).
  static util::Result<std::unique_ptr<JdwpVm>> attach_socket(boost::asio::ip::tcp::socket socket, VmOptions options,
                                                             core::Deadline deadline);
  ~JdwpVm() override;

  std::string description() const override { return description_; }
  bool alive() const override;

  util::Result<core::RequestHandle> set_breakpoint(const core::BreakpointSpec& spec, core::Deadline deadline) override;
  util::Result<core::RequestHandle> watch(const core::WatchSpec& spec, core::Deadline deadline) override;
  util::Result<void> clear(core::RequestHandle handle, core::Deadline deadline) override;
  util::Result<core::VmEvent> next_event(core::Deadline deadline) override;

  util::Result<std::vector<core::ThreadInfo>> threads(core::Deadline deadline) override;
  util::Result<core::ThreadStatus> thread_status(core::ThreadRef thread, core::Deadline deadline) override;
  util::Result<std::vector<core::Frame>> stack(core::ThreadRef thread, int max_frames, core::Deadline deadline) override;
  // ThreadReference.Frames and ThreadReference.Resume sent together (one round trip); the
  // frames' locations are resolved afterwards (that needs no suspension).
  util::Result<std::vector<core::Frame>> stack_then_resume(core::ThreadRef thread, int max_frames,
                                                           core::Deadline deadline) override;
  util::Result<void> suspend(core::ThreadRef thread, core::Deadline deadline) override;
  util::Result<void> resume(core::ThreadRef thread, core::Deadline deadline) override;
  util::Result<void> suspend_all(core::Deadline deadline) override;
  util::Result<void> resume_all(core::Deadline deadline) override;
  util::Result<core::ObjectRef> this_object(core::ThreadRef thread, int frame_index, core::Deadline deadline) override;
  util::Result<std::vector<core::Value>> arguments(core::ThreadRef thread, int frame_index, core::Deadline deadline) override;

  util::Result<std::vector<std::string>> loaded_classes(core::Deadline deadline) override;
  util::Result<std::vector<std::string>> initialized_classes(core::Deadline deadline) override;
  util::Result<std::vector<int>> lines(const std::string& class_name, const std::string& method, const std::string& signature,
                                       core::Deadline deadline) override;
  util::Result<std::vector<core::StaticField>> static_fields(const std::string& class_name, core::Deadline deadline) override;
  util::Result<void> set_static_field(const std::string& class_name, const std::string& field, const core::Value& value,
                                      core::Deadline deadline) override;
  util::Result<core::Value> get_field(core::ObjectRef object, const std::string& field, core::Deadline deadline) override;
  util::Result<std::string> class_of(core::ObjectRef object, core::Deadline deadline) override;
  util::Result<std::string> string_value(core::ObjectRef string, core::Deadline deadline) override;
  util::Result<core::HeapGraph> walk(const std::vector<std::pair<std::string, core::Value>>& roots,
                                     const core::GraphBounds& bounds, core::Deadline deadline) override;
  util::Result<core::HeapGraph> walk_statics(const std::string& class_name, const core::GraphBounds& bounds,
                                             core::Deadline deadline) override;
  util::Result<core::Value> new_string(const std::string& text, core::Deadline deadline) override;

  util::Result<core::InvokeResult> invoke_static(const std::string& class_name, const std::string& method,
                                                 const std::string& signature, const std::vector<core::Value>& arguments,
                                                 core::ThreadRef thread, core::Deadline deadline) override;
  util::Result<core::InvokeResult> invoke_method(core::ObjectRef object, const std::string& method,
                                                 const std::string& signature, const std::vector<core::Value>& arguments,
                                                 core::ThreadRef thread, core::Deadline deadline) override;

  util::Result<void> detach(core::Deadline deadline) override;
  util::Result<void> exit(int code, core::Deadline deadline) override;

  Client& client() { return *client_; }

  // Conversions between JNI and Java names ("Ljava/lang/String;" <-> "java.lang.String").
  static std::string java_name(const std::string& jni_signature);
  static std::string jni_signature(const std::string& java_name);

 private:
  friend class HeapWalk;  // the object-graph walk's steps (heap_walk.cpp)
  JdwpVm(std::unique_ptr<Client> client, VmOptions options);

  struct MethodInfo {
    MethodId id;
    std::string name, signature;
    std::int32_t modifiers = 0;
  };
  struct FieldInfo {
    FieldId id;
    ReferenceTypeId owner;
    std::string name, signature;
    std::int32_t modifiers = 0;
  };
  struct Request {  // one handle
    bool breakpoint = false;
    core::BreakpointSpec spec;
    core::WatchSpec watch;
    std::int32_t prepare_request = 0;   // ClassPrepare request for deferred installation
    std::vector<std::int32_t> jdwp_requests;
    std::set<std::uint64_t> installed_in;  // class ids with this breakpoint
  };

  // lookups (cached)
  util::Result<std::vector<ReferenceTypeId>> classes_named(const std::string& class_name, core::Deadline deadline);
  util::Result<ReferenceTypeId> class_named(const std::string& class_name, core::Deadline deadline);
  util::Result<std::string> signature_of(ReferenceTypeId type, core::Deadline deadline);
  util::Result<std::vector<MethodInfo>> methods_of(ReferenceTypeId type, core::Deadline deadline);
  util::Result<MethodInfo> method_named(ReferenceTypeId type, const std::string& name, const std::string& signature,
                                        bool search_super, ReferenceTypeId* declaring, core::Deadline deadline);
  util::Result<std::vector<FieldInfo>> own_fields(ReferenceTypeId type, core::Deadline deadline);
  util::Result<std::vector<FieldInfo>> instance_fields(ReferenceTypeId type, core::Deadline deadline);
  util::Result<ReferenceTypeId> superclass_of(ReferenceTypeId type, core::Deadline deadline);
  util::Result<MLineTable::Reply> line_table(ReferenceTypeId type, MethodId method, core::Deadline deadline);
  util::Result<core::Frame> resolve(const Location& location, core::Deadline deadline);
  util::Result<ReferenceTypeId> type_of(ObjectId object, core::Deadline deadline);

  // conversions
  core::Value to_core(const Value& v) const;
  Value to_jdwp(const core::Value& v, Tag tag) const;
  util::Result<std::vector<Value>> to_jdwp_args(const std::string& signature, const std::vector<core::Value>& args) const;

  // requests
  util::Result<void> install_breakpoint(core::RequestHandle handle, ReferenceTypeId type, core::Deadline deadline);
  util::Result<std::int32_t> set_request(const ErSet::Request& request, core::RequestHandle handle, core::Deadline deadline);
  core::RequestHandle handle_for(std::int32_t jdwp_request);

  // events
  void arm();
  void on_event_set(util::Result<EventSet> set);
  std::optional<std::vector<core::VmEvent>> translate_fast(const EventSet& set);
  std::optional<core::Frame> resolve_cached(const Location& location);
  void process(const EventSet& set);
  void pump();
  void push_event(core::VmEvent event);

  util::Result<void> check_alive() const;

  std::unique_ptr<Client> client_;
  VmOptions options_;
  std::string description_;

  mutable std::mutex mutex_;  // guards everything below, never held across a request
  std::map<std::uint64_t, std::string> signatures_;
  std::map<std::uint64_t, std::vector<MethodInfo>> methods_;
  std::map<std::uint64_t, std::vector<FieldInfo>> fields_;
  std::map<std::uint64_t, ReferenceTypeId> supers_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, MLineTable::Reply> line_tables_;
  std::map<core::RequestHandle, Request> requests_;
  std::map<std::int32_t, core::RequestHandle> by_jdwp_;
  core::RequestHandle next_handle_ = 1;

  std::mutex events_mutex_;
  std::condition_variable events_cv_;
  std::deque<core::VmEvent> events_;
  bool ended_ = false;  // the pump has seen the end of the session

  std::mutex slow_mutex_;
  std::condition_variable slow_cv_;
  std::deque<util::Result<EventSet>> slow_;  // sets for the pump (at most one in flight)
  bool stopping_ = false;
  std::atomic<std::uint64_t> next_set_id_{1};
  std::thread pump_;
};

}  // namespace flakescan::jdwp
