// Canonical per-field state of a heap graph (repair/field_state.hpp) on hand-built graphs.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "repair/field_state.hpp"

using namespace flakescan;
using namespace flakescan::repair;
using core::HeapGraph;
using core::HeapNode;
using core::ObjectRef;
using core::Value;

namespace {

Value ref(std::uint64_t id, Value::Kind kind = Value::Kind::object) { return {kind, 0, 0, ObjectRef{id}}; }
Value str(std::uint64_t id) { return ref(id, Value::Kind::string); }
Value arr(std::uint64_t id) { return ref(id, Value::Kind::array); }

HeapNode string_node(std::uint64_t id, std::string text) {
  HeapNode n;
  n.id = ObjectRef{id};
  n.kind = HeapNode::Kind::string;
  n.class_name = "java.lang.String";
  n.text = std::move(text);
  return n;
}

HeapNode array_node(std::uint64_t id, std::string class_name, std::vector<Value> elements) {
  HeapNode n;
  n.id = ObjectRef{id};
  n.kind = HeapNode::Kind::array;
  n.class_name = std::move(class_name);
  n.length = static_cast<std::int32_t>(elements.size());
  n.elements = std::move(elements);
  return n;
}

HeapNode object_node(std::uint64_t id, std::string class_name, std::vector<std::pair<std::string, Value>> fields) {
  HeapNode n;
  n.id = ObjectRef{id};
  n.kind = HeapNode::Kind::object;
  n.class_name = std::move(class_name);
  n.fields = std::move(fields);
  return n;
}

void add(HeapGraph& g, HeapNode n) {
  const auto id = n.id.id;
  g.nodes.emplace(id, std::move(n));
}

// Registry.NAMES: an ArrayList of two strings, plus a primitive root. Object ids start at
// `base`, so two calls with different bases give the same state under other ids.
struct Shape {
  std::string first = "alpha";
  std::string second = "beta";
  std::int32_t size = 2;
  std::int32_t limit = 7;
  bool first_element_is_second_string = false;
};

HeapGraph registry_graph(std::uint64_t base, const Shape& s = {}) {
  HeapGraph g;
  const std::uint64_t list = base, data = base + 1, a = base + 2, b = base + 3;
  g.roots.push_back({"pkg.Registry.NAMES", ref(list)});
  g.roots.push_back({"pkg.Registry.LIMIT", Value::of_int(s.limit)});
  add(g, object_node(list, "java.util.ArrayList", {{"elementData", arr(data)}, {"size", Value::of_int(s.size)}}));
  add(g, array_node(data, "java.lang.Object[]", {s.first_element_is_second_string ? str(b) : str(a), str(b)}));
  add(g, string_node(a, s.first));
  add(g, string_node(b, s.second));
  return g;
}

}  // namespace

TEST_CASE("field_states: one entry per root, the same state under other object ids is equal", "[repair][field_state]") {
  auto one = field_states(registry_graph(100));
  auto two = field_states(registry_graph(9000));
  REQUIRE(one.size() == 2);
  REQUIRE(one.contains("pkg.Registry.NAMES"));
  REQUIRE(one.contains("pkg.Registry.LIMIT"));
  REQUIRE(two.contains("pkg.Registry.NAMES"));

  const FieldState& a = one.at("pkg.Registry.NAMES");
  const FieldState& b = two.at("pkg.Registry.NAMES");
  CHECK(a.canonical == b.canonical);
  CHECK(a.hash == b.hash);
  CHECK(a.hash != 0);
  CHECK_FALSE(a.truncated);
  // Object ids never show; the strings and the list's class do.
  CHECK(a.canonical.find("100") == std::string::npos);
  CHECK(b.canonical.find("9000") == std::string::npos);
  CHECK(a.canonical.find("java.util.ArrayList") != std::string::npos);
  CHECK(a.canonical.find("\"alpha\"") != std::string::npos);
  CHECK(a.canonical.find("\"beta\"") != std::string::npos);
  CHECK(a.summary == a.canonical);  // short: the summary is all of it
  CHECK(one.at("pkg.Registry.LIMIT").canonical == "7");

  CHECK(diff_fields(one, two).empty());
}

TEST_CASE("field_states: a changed string, element or primitive differs", "[repair][field_state]") {
  const auto base = field_states(registry_graph(1));
  const std::string names = "pkg.Registry.NAMES";

  SECTION("a string's text") {
    Shape s;
    s.second = "gamma";
    auto changed = field_states(registry_graph(1, s));
    CHECK(changed.at(names).canonical != base.at(names).canonical);
    CHECK(changed.at(names).hash != base.at(names).hash);
    auto d = diff_fields(changed, base);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == names);
    CHECK(d[0].failing.find("gamma") != std::string::npos);
    CHECK(d[0].passing.find("beta") != std::string::npos);
  }
  SECTION("an array element (the same string twice instead of two strings)") {
    Shape s;
    s.first_element_is_second_string = true;
    auto changed = field_states(registry_graph(1, s));
    CHECK(changed.at(names).hash != base.at(names).hash);
    auto d = diff_fields(changed, base);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == names);
  }
  SECTION("a primitive instance field") {
    Shape s;
    s.size = 1;
    auto changed = field_states(registry_graph(1, s));
    CHECK(changed.at(names).hash != base.at(names).hash);
    CHECK(changed.at("pkg.Registry.LIMIT").hash == base.at("pkg.Registry.LIMIT").hash);
    auto d = diff_fields(changed, base);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == names);
  }
  SECTION("a primitive root") {
    Shape s;
    s.limit = 8;
    auto changed = field_states(registry_graph(1, s));
    CHECK(changed.at(names).hash == base.at(names).hash);
    auto d = diff_fields(changed, base);
    REQUIRE(d.size() == 1);
    CHECK(d[0].field == "pkg.Registry.LIMIT");
    CHECK(d[0].failing == "8");
    CHECK(d[0].passing == "7");
  }
}

TEST_CASE("field_states: values of each primitive kind and null", "[repair][field_state]") {
  HeapGraph g;
  g.roots = {{"p.C.b", Value::of_bool(true)},
             {"p.C.f", Value::of_bool(false)},
             {"p.C.l", Value::of_long(-5)},
             {"p.C.d", Value::of_double(0.5)},
             {"p.C.n", Value::null()},
             {"p.C.o", Value::of_object(ObjectRef{})}};
  auto s = field_states(g);
  CHECK(s.at("p.C.b").canonical == "true");
  CHECK(s.at("p.C.f").canonical == "false");
  CHECK(s.at("p.C.l").canonical == "-5");
  CHECK(s.at("p.C.d").canonical == "0.5");
  CHECK(s.at("p.C.n").canonical == "null");
  CHECK(s.at("p.C.o").canonical == "null");
  CHECK(s.at("p.C.b").hash != s.at("p.C.f").hash);
}

TEST_CASE("field_states: a shared object is written once, then referred to", "[repair][field_state]") {
  // holder{left=s, right=s}: one string reached twice.
  HeapGraph shared;
  shared.roots.push_back({"p.C.holder", ref(10)});
  add(shared, object_node(10, "p.Pair", {{"left", str(11)}, {"right", str(11)}}));
  add(shared, string_node(11, "x"));
  // holder{left=s1, right=s2}: two equal strings.
  HeapGraph separate;
  separate.roots.push_back({"p.C.holder", ref(20)});
  add(separate, object_node(20, "p.Pair", {{"left", str(21)}, {"right", str(22)}}));
  add(separate, string_node(21, "x"));
  add(separate, string_node(22, "x"));

  const auto a = field_states(shared).at("p.C.holder");
  const auto b = field_states(separate).at("p.C.holder");
  INFO(a.canonical);
  INFO(b.canonical);
  // The string is #1; the second mention is a back reference.
  CHECK(a.canonical.find("right=@1") != std::string::npos);
  CHECK(b.canonical.find("@") == std::string::npos);
  // Sharing is part of the state.
  CHECK(a.canonical != b.canonical);
  CHECK(a.hash != b.hash);
}

TEST_CASE("field_states: a cycle ends in a back reference", "[repair][field_state]") {
  // node -> next -> node (a two-element ring) and a self loop.
  HeapGraph g;
  g.roots.push_back({"p.Ring.head", ref(1)});
  g.roots.push_back({"p.Ring.self", ref(5)});
  add(g, object_node(1, "p.Node", {{"next", ref(2)}, {"value", Value::of_int(1)}}));
  add(g, object_node(2, "p.Node", {{"next", ref(1)}, {"value", Value::of_int(2)}}));
  add(g, object_node(5, "p.Node", {{"next", ref(5)}, {"value", Value::of_int(3)}}));

  auto s = field_states(g);
  const std::string& head = s.at("p.Ring.head").canonical;
  const std::string& self = s.at("p.Ring.self").canonical;
  INFO(head);
  INFO(self);
  CHECK(head.find("next=@0") != std::string::npos);
  CHECK(self.find("next=@0") != std::string::npos);
  CHECK(head.find("#0 p.Node") == 0);
  CHECK(head.find("#1 p.Node") != std::string::npos);
  CHECK(head.find("#2") == std::string::npos);
  // Each root numbers from 0: the self loop is not numbered after the ring.
  CHECK(self.find("#0 p.Node") == 0);
  CHECK_FALSE(s.at("p.Ring.head").truncated);
}

TEST_CASE("field_states: cached hash fields are left out", "[repair][field_state]") {
  auto graph = [](std::int32_t hash, std::int32_t hash_is_zero, std::int32_t value) {
    HeapGraph g;
    g.roots.push_back({"p.C.key", ref(1)});
    add(g, object_node(1, "p.Key",
                       {{"value", Value::of_int(value)}, {"hash", Value::of_int(hash)}, {"hashIsZero", Value::of_int(hash_is_zero)}}));
    return g;
  };
  const auto fresh = field_states(graph(0, 0, 42)).at("p.C.key");
  const auto hashed = field_states(graph(123456, 1, 42)).at("p.C.key");
  INFO(fresh.canonical);
  CHECK(fresh.canonical == hashed.canonical);
  CHECK(fresh.hash == hashed.hash);
  CHECK(fresh.canonical.find("hash") == std::string::npos);
  // Other fields still count.
  const auto other = field_states(graph(0, 0, 43)).at("p.C.key");
  CHECK(other.hash != fresh.hash);
  CHECK(other.canonical.find("value=43") != std::string::npos);
}

TEST_CASE("field_states: an object the walk did not reach is marked truncated", "[repair][field_state]") {
  HeapGraph g;
  g.roots.push_back({"p.C.deep", ref(1)});
  g.roots.push_back({"p.C.shallow", ref(3)});
  g.roots.push_back({"p.C.cut", ref(4)});
  add(g, object_node(1, "p.Outer", {{"inner", ref(2)}}));  // 2 is not in nodes
  add(g, object_node(3, "p.Leaf", {{"n", Value::of_int(1)}}));
  HeapNode cut = object_node(4, "p.Big", {});
  cut.truncated = true;  // a node the walk did not expand
  add(g, cut);

  auto s = field_states(g);
  const auto& deep = s.at("p.C.deep");
  INFO(deep.canonical);
  CHECK(deep.truncated);
  CHECK(deep.canonical.find("inner=#1?") != std::string::npos);
  CHECK_FALSE(s.at("p.C.shallow").truncated);
  CHECK(s.at("p.C.cut").truncated);
}

TEST_CASE("field_states: the summary is the canonical text cut at 200 characters", "[repair][field_state]") {
  HeapGraph g;
  g.roots.push_back({"p.C.long", str(1)});
  add(g, string_node(1, std::string(500, 'z')));
  const auto s = field_states(g).at("p.C.long");
  CHECK(s.canonical.size() > 500);
  CHECK(s.summary.size() < s.canonical.size());
  CHECK(s.summary.substr(0, 200) == s.canonical.substr(0, 200));
  CHECK(s.summary.size() <= 203);
}

TEST_CASE("diff_fields: fields only on one side, in name order", "[repair][field_state]") {
  FieldStates failing, passing;
  auto state = [](std::string text) {
    FieldState s;
    s.canonical = text;
    s.summary = text;
    s.hash = std::hash<std::string>{}(text);
    return s;
  };
  failing["p.Z.onlyFailing"] = state("1");
  failing["p.M.same"] = state("same");
  failing["p.B.changed"] = state("old");
  passing["p.A.onlyPassing"] = state("2");
  passing["p.M.same"] = state("same");
  passing["p.B.changed"] = state("new");

  auto d = diff_fields(failing, passing);
  REQUIRE(d.size() == 3);
  CHECK(d[0].field == "p.A.onlyPassing");
  CHECK(d[0].failing.empty());
  CHECK(d[0].passing == "2");
  CHECK(d[1].field == "p.B.changed");
  CHECK(d[1].failing == "old");
  CHECK(d[1].passing == "new");
  CHECK(d[2].field == "p.Z.onlyFailing");
  CHECK(d[2].failing == "1");
  CHECK(d[2].passing.empty());

  CHECK(diff_fields(failing, failing).empty());
  CHECK(diff_fields({}, {}).empty());
}

TEST_CASE("diff_fields: equal hashes with different texts still differ", "[repair][field_state]") {
  FieldState a, b;
  a.canonical = a.summary = "a";
  b.canonical = b.summary = "b";
  a.hash = b.hash = 7;  // a collision
  auto d = diff_fields({{"p.C.f", a}}, {{"p.C.f", b}});
  REQUIRE(d.size() == 1);
  CHECK(d[0].failing == "a");
  CHECK(d[0].passing == "b");
}

TEST_CASE("split_field", "[repair][field_state]") {
  CHECK(split_field("pkg.Outer$Inner.field") == std::pair<std::string, std::string>{"pkg.Outer$Inner", "field"});
  CHECK(split_field("java.util.Locale.defaultLocale") == std::pair<std::string, std::string>{"java.util.Locale", "defaultLocale"});
  CHECK(split_field("Top.x") == std::pair<std::string, std::string>{"Top", "x"});
  CHECK(split_field("noDot") == std::pair<std::string, std::string>{"", "noDot"});
}
