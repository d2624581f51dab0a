// JdwpVm's object-graph walk: breadth first from the roots, each object expanded once
// (shared objects and cycles appear as one node), within core::GraphBounds. Objects the VM
// collected during the walk become truncated nodes instead of failing the walk.
#include <deque>

#include "jdwp/jdwp_vm.hpp"

namespace flakescan::jdwp {

using util::Errc;
using core::Deadline;

util::Result<core::HeapGraph> JdwpVm::walk(const std::vector<std::pair<std::string, core::Value>>& roots,
                                           const core::GraphBounds& bounds, Deadline deadline) {
  core::HeapGraph graph;
  graph.roots = roots;
  std::deque<std::pair<core::Value, int>> queue;  // (reference, depth)
  for (const auto& [name, value] : roots) {
    if (value.is_reference() && value.object) queue.emplace_back(value, 0);
  }
  int expanded = 0;
  while (!queue.empty()) {
    auto [value, depth] = queue.front();
    queue.pop_front();
    if (graph.nodes.contains(value.object.id)) continue;
    if (Clock::now() > deadline) return util::fail(Errc::timeout, "object graph walk passed its deadline");
    core::HeapNode node;
    node.id = value.object;
    auto stop = [&](core::HeapNode& n) {
      n.truncated = true;
      graph.truncated = true;
      graph.nodes.emplace(n.id.id, std::move(n));
    };
    auto gone = [&](const util::Error& e) { return e.code == Errc::not_found; };  // INVALID_OBJECT: collected

    auto type = type_of(ObjectId{value.object.id}, deadline);
    if (!type) {
      if (!gone(type.error())) return std::unexpected(type.error());
      stop(node);
      continue;
    }
    auto sig = signature_of(*type, deadline);
    if (!sig) return std::unexpected(sig.error());
    node.class_name = java_name(*sig);
    const bool is_string = *sig == "Ljava/lang/String;";
    const bool is_array = !sig->empty() && sig->front() == '[';
    node.kind = is_string ? core::HeapNode::Kind::string : is_array ? core::HeapNode::Kind::array : core::HeapNode::Kind::object;
    if (depth > bounds.max_depth || expanded >= bounds.max_objects) {
      stop(node);
      continue;
    }
    ++expanded;

    if (is_string) {
      auto text = client_->call<SrValue>({ObjectId{value.object.id}}, deadline);
      if (!text) {
        if (!gone(text.error())) return std::unexpected(text.error());
        stop(node);
        continue;
      }
      node.text = std::move(text->value);
      if (node.text.size() > static_cast<std::size_t>(bounds.max_string_length)) {
        node.text.resize(static_cast<std::size_t>(bounds.max_string_length));
        node.truncated = graph.truncated = true;
      }
    } else if (is_array) {
      auto length = client_->call<ArLength>({ObjectId{value.object.id}}, deadline);
      if (!length) {
        if (!gone(length.error())) return std::unexpected(length.error());
        stop(node);
        continue;
      }
      node.length = length->value;
      const std::int32_t n = std::min(length->value, bounds.max_array_elements);
      if (n < length->value) node.truncated = graph.truncated = true;
      if (n > 0) {
        auto region = client_->call<ArGetValues>({ObjectId{value.object.id}, 0, n}, deadline);
        if (!region) return std::unexpected(region.error());
        for (const auto& v : region->values) {
          auto c = to_core(v);
          node.elements.push_back(c);
          if (c.is_reference() && c.object) queue.emplace_back(c, depth + 1);
        }
      }
    } else {
      auto fields = instance_fields(*type, deadline);
      if (!fields) return std::unexpected(fields.error());
      if (!fields->empty()) {
        OrGetValues::Request request{ObjectId{value.object.id}, {}};
        for (const auto& f : *fields) request.fields_.push_back(f.id);
        auto values = client_->call<OrGetValues>(request, deadline);
        if (!values) {
          if (!gone(values.error())) return std::unexpected(values.error());
          stop(node);
          continue;
        }
        if (values->values.size() != fields->size()) return util::fail(Errc::malformed, "GetValues answered a different number of values");
        for (std::size_t i = 0; i < fields->size(); ++i) {
          auto c = to_core(values->values[i]);
          node.fields.emplace_back((*fields)[i].name, c);
          if (c.is_reference() && c.object) queue.emplace_back(c, depth + 1);
        }
      }
    }
    graph.nodes.emplace(node.id.id, std::move(node));
  }
  return graph;
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
