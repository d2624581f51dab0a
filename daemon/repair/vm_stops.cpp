#include "repair/vm_stops.hpp"

#include <chrono>
#include <map>
#include <memory>

#include "util/log.hpp"

namespace flakescan::repair {

using namespace std::chrono_literals;
using util::Errc;

namespace {
constexpr const char* keeper = "io.flakescan.runner.StateKeeper";
core::Deadline stop_call_deadline() { return core::deadline_in(20s); }
}  // namespace

core::TestExecutor::DriveFn stop_before(std::vector<Stop> stops) {
  auto plan = std::make_shared<std::map<std::size_t, StopFn>>();
  for (auto& s : stops) (*plan)[s.index] = std::move(s.action);
  return [plan](core::Vm& vm) -> util::Result<void> {
    auto pending = *plan;  // a retried run starts from scratch
    auto bp = vm.set_breakpoint({.class_name = "io.flakescan.runner.ResultSink", .method = "started",
                                 .signature = "(ILjava/lang/String;)V", .line = 0, .suspend = core::SuspendMode::thread},
                                stop_call_deadline());
    if (!bp) return std::unexpected(bp.error());
    if (auto r = vm.resume_all(stop_call_deadline()); !r) return r;
    const auto end_by = std::chrono::steady_clock::now() + 300s;
    while (!pending.empty()) {
      if (std::chrono::steady_clock::now() > end_by) return util::fail(Errc::timeout, "the run did not reach its stops in time");
      auto ev = vm.next_event(core::deadline_in(500ms));
      if (!ev) {
        if (ev.error().code == Errc::timeout) continue;
        if (ev.error().code == Errc::disconnected)
          return util::fail(Errc::process, "the JVM ended before entry " + std::to_string(pending.begin()->first) + " started");
        return std::unexpected(ev.error());
      }
      if (ev->kind == core::EventKind::vm_death || ev->kind == core::EventKind::disconnected)
        return util::fail(Errc::process, "the JVM ended before entry " + std::to_string(pending.begin()->first) + " started");
      if (ev->kind != core::EventKind::breakpoint || ev->handle != *bp) {
        if (ev->suspended)
          if (auto r = vm.resume(ev->thread, stop_call_deadline()); !r) return r;
        continue;
      }
      auto args = vm.arguments(ev->thread, 0, stop_call_deadline());
      if (!args) return std::unexpected(args.error());
      if (args->empty()) return util::fail(Errc::malformed, "ResultSink.started had no arguments");
      auto index = static_cast<std::size_t>((*args)[0].integer);
      if (auto it = pending.find(index); it != pending.end()) {
        auto done = it->second(vm, ev->thread);
        pending.erase(it);
        if (!done) return done;
      }
      if (pending.empty())
        if (auto r = vm.clear(*bp, stop_call_deadline()); !r) return r;
      if (auto r = vm.resume(ev->thread, stop_call_deadline()); !r) return r;
    }
    return {};
  };
}

util::Result<core::Value> static_value(core::Vm& vm, const std::string& owner, const std::string& name,
                                       std::string* descriptor) {
  auto fields = vm.static_fields(owner, stop_call_deadline());
  if (!fields) return std::unexpected(fields.error());
  for (const auto& f : *fields)
    if (f.name == name) {
      if (descriptor) *descriptor = f.signature;
      return f.value;
    }
  return util::fail(Errc::not_found, "no static field " + owner + "." + name);
}

util::Result<void> load_class(core::Vm& vm, core::ThreadRef thread, const std::string& class_name) {
  auto name = vm.new_string(class_name, stop_call_deadline());
  if (!name) return std::unexpected(name.error());
  auto r = vm.invoke_static(keeper, "load", "(Ljava/lang/String;)Ljava/lang/Class;", {*name}, thread, stop_call_deadline());
  if (!r) {
    util::logger("repair")->info("loading {} in the test JVM: {}", class_name, util::describe(r.error()));
    return std::unexpected(r.error());
  }
  if (r->exception) return util::fail(Errc::not_found, "class " + class_name + " could not be loaded in the test JVM");
  return {};
}

util::Result<core::Value> keep_copy(core::Vm& vm, core::ThreadRef thread, const core::Value& value) {
  if (!value.is_reference() || !value.object) return value;
  auto r = vm.invoke_static(keeper, "copy", "(Ljava/lang/Object;)Ljava/lang/Object;", {value}, thread, stop_call_deadline());
  if (!r) return std::unexpected(r.error());
  if (r->exception) return util::fail(Errc::process, "copying a value in the test JVM threw");
  return r->result;
}

util::Result<std::optional<std::string>> serialize_value(core::Vm& vm, core::ThreadRef thread, const core::Value& value) {
  auto r = vm.invoke_static(keeper, "serialize", "(Ljava/lang/Object;)Ljava/lang/String;", {value}, thread, stop_call_deadline());
  if (!r) return std::unexpected(r.error());
  if (r->exception || !r->result.object) return std::optional<std::string>();
  auto text = vm.string_value(r->result.object, stop_call_deadline());
  if (!text) return std::unexpected(text.error());
  return std::optional(*text);
}

util::Result<core::Value> deserialize_value(core::Vm& vm, core::ThreadRef thread, const std::string& text) {
  auto s = vm.new_string(text, stop_call_deadline());
  if (!s) return std::unexpected(s.error());
  auto r = vm.invoke_static(keeper, "deserialize", "(Ljava/lang/String;)Ljava/lang/Object;", {*s}, thread, stop_call_deadline());
  if (!r) return std::unexpected(r.error());
  if (r->exception) return util::fail(Errc::process, "the value could not be rebuilt in the test JVM");
  return r->result;
}

util::Result<std::vector<std::uint8_t>> class_bytes(core::Vm& vm, core::ThreadRef thread, const std::string& class_name) {
  auto name = vm.new_string(class_name, stop_call_deadline());
  if (!name) return std::unexpected(name.error());
  auto r = vm.invoke_static(keeper, "classBytes", "(Ljava/lang/String;)[B", {*name}, thread, stop_call_deadline());
  if (!r) return std::unexpected(r.error());
  std::vector<std::uint8_t> out;
  if (r->exception || !r->result.object) return out;
  core::GraphBounds bounds;
  bounds.max_depth = 0;
  bounds.max_array_elements = 16 << 20;
  auto graph = vm.walk({{"bytes", r->result}}, bounds, stop_call_deadline());
  if (!graph) return std::unexpected(graph.error());
  auto node = graph->nodes.find(r->result.object.id);
  if (node == graph->nodes.end()) return out;
  out.reserve(node->second.elements.size());
  for (const auto& e : node->second.elements) out.push_back(static_cast<std::uint8_t>(e.integer));
  return out;
}

}  // namespace flakescan::repair
