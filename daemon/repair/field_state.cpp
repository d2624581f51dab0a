#include "repair/field_state.hpp"

#include <cstdio>
#include <set>

namespace flakescan::repair {

namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

class Canonical {
 public:
  explicit Canonical(const core::HeapGraph& graph) : graph_(graph) {}

  void value(const core::Value& v, std::string& out) {
    using K = core::Value::Kind;
    switch (v.kind) {
      case K::void_: out += "void"; return;
      case K::null: out += "null"; return;
      case K::boolean: out += v.integer ? "true" : "false"; return;
      case K::float_:
      case K::double_: {
        char text[40];
        std::snprintf(text, sizeof text, "%.17g", v.floating);
        out += text;
        return;
      }
      case K::object:
      case K::string:
      case K::array: object(v.object, out); return;
      default: out += std::to_string(v.integer); return;
    }
  }

  bool truncated = false;

 private:
  void object(core::ObjectRef ref, std::string& out) {
    if (!ref) {
      out += "null";
      return;
    }
    if (auto it = numbers_.find(ref.id); it != numbers_.end()) {
      out += "@" + std::to_string(it->second);
      return;
    }
    const int number = static_cast<int>(numbers_.size());
    numbers_.emplace(ref.id, number);
    auto node = graph_.nodes.find(ref.id);
    if (node == graph_.nodes.end()) {  // not walked (a bound): only its existence is known
      truncated = true;
      out += "#" + std::to_string(number) + "?";
      return;
    }
    const core::HeapNode& n = node->second;
    if (n.truncated) truncated = true;
    out += "#" + std::to_string(number) + " " + n.class_name;
    switch (n.kind) {
      case core::HeapNode::Kind::string:
        out += " \"" + n.text + "\"";
        return;
      case core::HeapNode::Kind::array:
        out += "[" + std::to_string(n.length) + "]{";
        for (std::size_t i = 0; i < n.elements.size(); ++i) {
          if (i) out += ",";
          value(n.elements[i], out);
        }
        out += "}";
        return;
      case core::HeapNode::Kind::object:
        out += "{";
        bool first = true;
        for (std::size_t i = 0; i < n.fields.size(); ++i) {
          // A cached hash code is computed on first use: it says nothing about the state.
          if (n.fields[i].first == "hash" || n.fields[i].first == "hashIsZero" || n.fields[i].first.starts_with("hashCode")) continue;
          if (!first) out += ",";
          first = false;
          out += n.fields[i].first + "=";
          value(n.fields[i].second, out);
        }
        out += "}";
        return;
    }
  }

  const core::HeapGraph& graph_;
  std::map<std::uint64_t, int> numbers_;
};

}  // namespace

FieldStates field_states(const core::HeapGraph& graph) {
  FieldStates out;
  for (const auto& [name, v] : graph.roots) {
    Canonical c(graph);
    FieldState s;
    c.value(v, s.canonical);
    s.truncated = c.truncated;
    s.hash = fnv1a(s.canonical);
    s.summary = s.canonical.size() > 200 ? s.canonical.substr(0, 200) + "..." : s.canonical;
    out[name] = std::move(s);
  }
  return out;
}

std::vector<FieldDiff> diff_fields(const FieldStates& failing, const FieldStates& passing) {
  std::set<std::string> names;
  for (const auto& [k, v] : failing) names.insert(k);
  for (const auto& [k, v] : passing) names.insert(k);
  std::vector<FieldDiff> out;
  for (const auto& name : names) {
    auto f = failing.find(name);
    auto p = passing.find(name);
    if (f != failing.end() && p != passing.end() && f->second.hash == p->second.hash &&
        f->second.canonical == p->second.canonical)
      continue;
    out.push_back({name, f == failing.end() ? "" : f->second.summary, p == passing.end() ? "" : p->second.summary});
  }
  return out;
}

std::pair<std::string, std::string> split_field(const std::string& field) {
  auto dot = field.rfind('.');
  if (dot == std::string::npos) return {"", field};
  return {field.substr(0, dot), field.substr(dot + 1)};
}

}  // namespace flakescan::repair
