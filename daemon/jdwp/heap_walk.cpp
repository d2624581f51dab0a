// JdwpVm's object-graph walk: breadth first from the roots, each object expanded once
// (shared objects and cycles appear as one node), within core::GraphBounds. Objects the VM
// collected during the walk become truncated nodes instead of failing the walk.
#include <deque>

#include "jdwp/jdwp_vm.hpp"

namespace flakescan::jdwp {

using util::Errc;
using core::Deadline;

namespace {

// INVALID_OBJECT: the VM collected the object while the walk was under way.
bool gone(const util::Error& e) { return e.code == Errc::not_found; }

// A read that failed: false (the node stays truncated) when the object was collected, else
// the error, which ends the walk.
util::Result<bool> collected_or_fail(const util::Error& e) {
  if (gone(e)) return false;
  return std::unexpected(e);
}

}  // namespace

// One walk: the graph so far, the references still to expand with their depth, and how many
// objects were expanded. A friend of JdwpVm (its lookups and client), so that jdwp_vm.hpp,
// which many files include, declares none of the walk's steps.
class HeapWalk {
 public:
  HeapWalk(JdwpVm& vm, const core::GraphBounds& bounds, Deadline deadline)
      : vm_(vm), bounds_(bounds), deadline_(deadline) {}

  util::Result<core::HeapGraph> run(const std::vector<std::pair<std::string, core::Value>>& roots) {
    graph_.roots = roots;
    for (const auto& [name, value] : roots) enqueue(value, 0);
    while (!queue_.empty()) {
      auto [value, depth] = queue_.front();
      queue_.pop_front();
      if (graph_.nodes.contains(value.object.id)) continue;
      if (Clock::now() > deadline_) return util::fail(Errc::timeout, "object graph walk passed its deadline");
      if (auto visited = visit(value, depth); !visited) return std::unexpected(visited.error());
    }
    return std::move(graph_);
  }

 private:
  void enqueue(const core::Value& value, int depth) {
    if (value.is_reference() && value.object) queue_.emplace_back(value, depth);
  }

  // The node as far as it was read, marked truncated: beyond the bounds, or collected.
  void add_truncated(core::HeapNode node) {
    node.truncated = true;
    graph_.truncated = true;
    graph_.nodes.emplace(node.id.id, std::move(node));
  }

  // One object: its class, then (within the bounds) its text, elements or fields.
  util::Result<void> visit(const core::Value& value, int depth) {
    core::HeapNode node;
    node.id = value.object;
    auto type = vm_.type_of(ObjectId{value.object.id}, deadline_);
    if (!type) {
      if (!gone(type.error())) return std::unexpected(type.error());
      add_truncated(std::move(node));
      return {};
    }
    auto sig = vm_.signature_of(*type, deadline_);
    if (!sig) return std::unexpected(sig.error());
    node.class_name = JdwpVm::java_name(*sig);
    const bool is_string = *sig == "Ljava/lang/String;";
    const bool is_array = !sig->empty() && sig->front() == '[';
    node.kind = is_string ? core::HeapNode::Kind::string : is_array ? core::HeapNode::Kind::array : core::HeapNode::Kind::object;
    if (depth > bounds_.max_depth || expanded_ >= bounds_.max_objects) {
      add_truncated(std::move(node));
      return {};
    }
    ++expanded_;
    auto read = is_string ? read_text(node) : is_array ? read_elements(node, depth) : read_fields(node, *type, depth);
    if (!read) return std::unexpected(read.error());
    if (!*read) add_truncated(std::move(node));
    else graph_.nodes.emplace(node.id.id, std::move(node));
    return {};
  }

  // The reads below answer false when the VM collected the object.
  util::Result<bool> read_text(core::HeapNode& node) {
    auto text = vm_.client_->call<SrValue>({ObjectId{node.id.id}}, deadline_);
    if (!text) return collected_or_fail(text.error());
    node.text = std::move(text->value);
    if (node.text.size() > static_cast<std::size_t>(bounds_.max_string_length)) {
      node.text.resize(static_cast<std::size_t>(bounds_.max_string_length));
      node.truncated = graph_.truncated = true;
    }
    return true;
  }

  util::Result<bool> read_elements(core::HeapNode& node, int depth) {
    auto length = vm_.client_->call<ArLength>({ObjectId{node.id.id}}, deadline_);
    if (!length) return collected_or_fail(length.error());
    node.length = length->value;
    const std::int32_t n = std::min(length->value, bounds_.max_array_elements);
    if (n < length->value) node.truncated = graph_.truncated = true;
    if (n <= 0) return true;
    auto region = vm_.client_->call<ArGetValues>({ObjectId{node.id.id}, 0, n}, deadline_);
    if (!region) return std::unexpected(region.error());
    for (const auto& v : region->values) {
      auto c = vm_.to_core(v);
      node.elements.push_back(c);
      enqueue(c, depth + 1);
    }
    return true;
  }

  util::Result<bool> read_fields(core::HeapNode& node, ReferenceTypeId type, int depth) {
    auto fields = vm_.instance_fields(type, deadline_);
    if (!fields) return std::unexpected(fields.error());
    if (fields->empty()) return true;
    OrGetValues::Request request{ObjectId{node.id.id}, {}};
    for (const auto& f : *fields) request.fields_.push_back(f.id);
    auto values = vm_.client_->call<OrGetValues>(request, deadline_);
    if (!values) return collected_or_fail(values.error());
    if (values->values.size() != fields->size()) return util::fail(Errc::malformed, "GetValues answered a different number of values");
    for (std::size_t i = 0; i < fields->size(); ++i) {
      auto c = vm_.to_core(values->values[i]);
      node.fields.emplace_back((*fields)[i].name, c);
      enqueue(c, depth + 1);
    }
    return true;
  }

  JdwpVm& vm_;
  const core::GraphBounds& bounds_;
  Deadline deadline_;
  core::HeapGraph graph_;
  std::deque<std::pair<core::Value, int>> queue_;  // (reference, depth)
  int expanded_ = 0;
};

util::Result<core::HeapGraph> JdwpVm::walk(const std::vector<std::pair<std::string, core::Value>>& roots,
                                           const core::GraphBounds& bounds, Deadline deadline) {
  return HeapWalk(*this, bounds, deadline).run(roots);
}

util::Result<core::HeapGraph> JdwpVm::walk_statics(const std::string& class_name, const core::GraphBounds& bounds,
                                                   Deadline deadline) {
  auto fields = static_fields(class_name, deadline);
  if (!fields) return std::unexpected(fields.error());
  std::vector<std::pair<std::string, core::Value>> roots;
  for (const auto& f : *fields) roots.emplace_back(class_name + "." + f.name, f.value);
  return walk(roots, bounds, deadline);
}

}  // namespace flakescan::jdwp
