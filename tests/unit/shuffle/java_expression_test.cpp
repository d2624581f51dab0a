// The bits of Java order_fix.cpp reads with (shuffle/java_expression.hpp): masking, the
// expression scanners, argument lists, string literals, printed collections, blocks and
// declared types.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "report/text.hpp"
#include "shuffle/java_expression.hpp"

using namespace flakescan::shuffle;

namespace {

std::string masked_line(const std::string& line) { return mask_java({line})[0]; }

// The receiver of the last `marker` (".toString") on the line, as text, by primary_start.
std::optional<std::string> receiver_before(const std::string& line, const std::string& marker) {
  const std::string m = masked_line(line);
  const auto dot = line.rfind(marker);
  REQUIRE(dot != std::string::npos);
  auto start = primary_start(m, dot);
  if (!start) return std::nullopt;
  std::string receiver = line.substr(*start, dot - *start);
  while (!receiver.empty() && receiver.back() == ' ') receiver.pop_back();
  return receiver;
}

// The primary expression after the first `marker` ("+ "), by primary_end.
std::optional<std::string> primary_after(const std::string& line, const std::string& marker) {
  const std::string m = masked_line(line);
  const auto at = line.find(marker);
  REQUIRE(at != std::string::npos);
  const std::size_t from = at + marker.size();
  auto end = primary_end(m, from);
  if (!end) return std::nullopt;
  const std::size_t begin = m.find_first_not_of(' ', from);
  return line.substr(begin, *end - begin);
}

}  // namespace

TEST_CASE("mask_java: comments and literals blank, columns kept", "[shuffle][expression]") {
  const std::vector<std::string> lines{
      "String s = \"a \\\"quoted\\\" {brace}\"; // new HashMap<>()",
      "char c = '\"'; char d = '\\''; /* new HashSet<>() */ int x = 1;",
      "/* a comment that goes on",
      "   new HashMap<>() { } */ Map m = new HashMap<>();",
      "String t = \"\"\"",
      "    text block with \"quotes\" and { braces }",
      "    \"\"\"; int after = 2;",
  };
  const auto m = mask_java(lines);
  REQUIRE(m.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) CHECK(m[i].size() == lines[i].size());
  CHECK(m[0] == "String s = \"" + std::string(20, ' ') + "\";" + std::string(19, ' '));
  CHECK(m[1] == "char c = ' '; char d = '  ';" + std::string(23, ' ') + "int x = 1;");
  CHECK(m[2] == std::string(lines[2].size(), ' '));
  CHECK(m[3] == "                          Map m = new HashMap<>();");
  CHECK(m[5] == std::string(lines[5].size(), ' '));
  CHECK(m[6] == "    \"\"\"; int after = 2;");
}

TEST_CASE("primary_start: the receiver before .method(", "[shuffle][expression]") {
  struct Case {
    std::string line;
    std::string marker;
    std::optional<std::string> receiver;
  };
  const std::vector<Case> cases{
      {"for (Field f : obj.getClass().getDeclaredFields()) {", ".getDeclaredFields", "obj.getClass()"},
      {"Method[] ms = Foo.class.getMethods();", ".getMethods", "Foo.class"},
      {"assertEquals(\"[a]\", this.registry.names().toString());", ".toString", "this.registry.names()"},
      {"Collection<V> v = map.get(key).values();", ".values", "map.get(key)"},
      {"String s = ((Map<String,Integer>) o).toString();", ".toString", "((Map<String,Integer>) o)"},
      {"return new HashSet<>(list).toString();", ".toString", "new HashSet<>(list)"},
      {"k = new java.util.HashMap<String, List<Integer>>(m).keySet();", ".keySet", "new java.util.HashMap<String, List<Integer>>(m)"},
      {"s = a.b[3].c.toString();", ".toString", "a.b[3].c"},
      {"i = Collections.<String>emptySet().iterator();", ".iterator", "Collections.<String>emptySet()"},
      {"n = \"a,b\".split(\",\");", ".split", "\"a,b\""},
      {"if (ready) set.toString();", ".toString", "set"},
      {"return set.toString();", ".toString", "set"},
      {"list.forEach(x -> x.toString());", ".toString", "x"},
      {"s = prefix + names.toString();", ".toString", "names"},
      {"s = list.stream().map(String::valueOf).toString();", ".toString", "list.stream().map(String::valueOf)"},
      {"s = super.names().toString();", ".toString", "super.names()"},
      {"s = foo(bar, baz).toString();", ".toString", "foo(bar, baz)"},
      {"s = map . keySet ();", ". keySet", "map"},
      {"s = (a + b).toString();", ".toString", "(a + b)"},
      {"s = outer.new Inner().toString();", ".toString", "outer.new Inner()"},
      {"    .toString();", ".toString", std::nullopt},
      {"return .toString();", ".toString", std::nullopt},
      {"x = 3.toString();", ".toString", std::nullopt},
      {"x = new Foo() { }.toString();", ".toString", std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    CHECK(receiver_before(c.line, c.marker) == c.receiver);
  }
}

TEST_CASE("primary_end: the operand after a +", "[shuffle][expression]") {
  struct Case {
    std::string line;
    std::optional<std::string> operand;
  };
  const std::vector<Case> cases{
      {"s = \"x\" + map.keySet() + \"y\";", "map.keySet()"},
      {"s = \"n\" + new HashSet<>(a).size();", "new HashSet<>(a).size()"},
      {"s = \"n\" + new java.util.HashMap<String, Integer>(m);", "new java.util.HashMap<String, Integer>(m)"},
      {"s = \"n\" + (a + b) * 2;", "(a + b)"},
      {"s = \"n\" + (String) x;", std::nullopt},
      {"s = \"n\" + arr[1].name;", "arr[1].name"},
      {"s = \"n\" + x.<T>foo(y).z;", "x.<T>foo(y).z"},
      {"s = \"n\" + this.names;", "this.names"},
      {"s = \"n\" + \"m\".trim();", "\"m\".trim()"},
      {"s = \"n\" + -x;", std::nullopt},
      {"s = \"n\" + null;", std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.line);
    CHECK(primary_after(c.line, "+ ") == c.operand);
  }
}

TEST_CASE("matching_close and matching_open: brackets on one line", "[shuffle][expression]") {
  const std::string s = "f(a[1], g(b), new X<Map<K, V>>() { })";
  CHECK(matching_close(s, 1) == s.size() - 1);
  CHECK(matching_open(s, s.size() - 1) == 1u);
  CHECK(matching_close(s, s.find('[')) == s.find(']'));
  CHECK(matching_close(s, s.find('<')) == s.find(">>") + 1);
  CHECK(matching_open(s, s.find(">>") + 1) == s.find('<'));
  CHECK_FALSE(matching_close("f(a, b", 1));
  CHECK_FALSE(matching_close("f(a]", 1));
  CHECK_FALSE(matching_close("a < b && c > d", 2));  // no type argument list
}

TEST_CASE("split_arguments: top-level commas only", "[shuffle][expression]") {
  const std::string line = "assertEquals(new HashMap<String, Integer>(), f(a, b), x[1, 2], \"m, n\", y)";
  const std::string m = masked_line(line);
  const auto open = m.find('(');
  const auto close = *matching_close(m, open);
  const auto args = split_arguments(m, open + 1, close);
  std::vector<std::string> texts;
  for (const auto& a : args) texts.push_back(line.substr(a.begin, a.end - a.begin));
  CHECK(texts == std::vector<std::string>{"new HashMap<String, Integer>()", "f(a, b)", "x[1, 2]", "\"m, n\"", "y"});
  CHECK(split_arguments("f()", 2, 2).empty());
  CHECK(split_arguments("f(  )", 2, 4).empty());
  CHECK(split_arguments("f( a )", 2, 5) == std::vector<Span>{{3, 4}});
}

TEST_CASE("find_calls: method calls with their receivers, not constructors or references", "[shuffle][expression]") {
  const std::string line = "x = a.b(1).toString() + toString( ) + new toString() + Foo::toString + s . toString(\"toString()\");";
  const std::string m = masked_line(line);
  const auto calls = find_calls(m, "toString");
  REQUIRE(calls.size() == 3);
  CHECK(line.substr(calls[0].whole().begin, calls[0].whole().end - calls[0].whole().begin) == "a.b(1).toString()");
  CHECK(calls[0].no_arguments(m));
  CHECK(receiver_of(m, calls[0]) == Span{4, 10});
  CHECK(line.substr(calls[1].whole().begin, calls[1].whole().end - calls[1].whole().begin) == "toString( )");
  CHECK(calls[1].no_arguments(m));
  CHECK_FALSE(receiver_of(m, calls[1]));
  CHECK(line.substr(calls[2].whole().begin, calls[2].whole().end - calls[2].whole().begin) == "s . toString(\"toString()\")");
  CHECK_FALSE(calls[2].no_arguments(m));
  CHECK(receiver_of(m, calls[2]) == Span{line.find("s . "), line.find("s . ") + 1});
  CHECK(find_calls("f(g(x)", "f").empty());  // not closed on the line
}

TEST_CASE("is_qualified_name: a dotted name ending in a class", "[shuffle][expression]") {
  CHECK(is_qualified_name("Collectors", "Collectors"));
  CHECK(is_qualified_name(" java.util.stream.Collectors ", "Collectors"));
  CHECK_FALSE(is_qualified_name("MyCollectors", "Collectors"));
  CHECK_FALSE(is_qualified_name("get().Collectors", "Collectors"));
  CHECK_FALSE(is_qualified_name("   ", "Collectors"));
  CHECK_FALSE(is_qualified_name("", "Collectors"));
}

TEST_CASE("string_literal_value: one literal or several joined with +", "[shuffle][expression]") {
  CHECK(string_literal_value("\"[a, b]\"") == "[a, b]");
  CHECK(string_literal_value("  \"[a, \" + \"b]\"  ") == "[a, b]");
  CHECK(string_literal_value("\"say \\\"hi\\\"\\t\\\\\"") == "say \"hi\"\t\\");
  CHECK(string_literal_value("\"\\101\\60\\0\"") == std::string("A0\0", 3));
  CHECK(string_literal_value("\"\"") == "");
  CHECK_FALSE(string_literal_value("\"\\u0041\""));  // Java reads \u before literals
  CHECK_FALSE(string_literal_value("\"a\" + x"));
  CHECK_FALSE(string_literal_value("x + \"a\""));
  CHECK_FALSE(string_literal_value("\"a\" \"b\""));
  CHECK_FALSE(string_literal_value("\"unterminated"));
  CHECK_FALSE(string_literal_value("\"\"\"\ntext\"\"\""));
  CHECK_FALSE(string_literal_value("'c'"));
}

TEST_CASE("string_literal_value reads what report::java_string_literal writes", "[shuffle][expression]") {
  for (const std::string& value : std::vector<std::string>{"[x, \"y\"]", "tab\there", std::string("nul\0", 4), "back\\slash"})
    CHECK(string_literal_value(flakescan::report::java_string_literal(value)) == value);
}

TEST_CASE("split_printed_collection: elements at top-level \", \"", "[shuffle][expression]") {
  struct Case {
    std::string value;
    std::optional<std::vector<std::string>> elements;
    bool map = false;
  };
  const std::vector<Case> cases{
      {"[a, b, c]", std::vector<std::string>{"a", "b", "c"}},
      {"{a=1, b=2}", std::vector<std::string>{"a=1", "b=2"}, true},
      {"{a=1, b=[x, y]}", std::vector<std::string>{"a=1", "b=[x, y]"}, true},
      {"[[1, 2], {k=v, w=z}, (p, q)]", std::vector<std::string>{"[1, 2]", "{k=v, w=z}", "(p, q)"}},
      {"[a,b]", std::vector<std::string>{"a,b"}},
      {"[]", std::vector<std::string>{}},
      {"[ ]", std::vector<std::string>{" "}},
      {"[a, b", std::nullopt},
      {"a, b", std::nullopt},
      {"[a], [b]", std::nullopt},
      {"[a, (b]", std::nullopt},
      {"{a=1]", std::nullopt},
  };
  for (const auto& c : cases) {
    INFO(c.value);
    auto got = split_printed_collection(c.value);
    REQUIRE(got.has_value() == c.elements.has_value());
    if (!got) continue;
    CHECK(got->elements == *c.elements);
    CHECK(got->map == c.map);
  }
}

TEST_CASE("java_blocks: classes, methods, initializers and the rest", "[shuffle][expression]") {
  const std::vector<std::string> lines{
      "package p;",                                              // 0
      "@RunWith(X.class)",                                       // 1
      "public class Outer {",                                    // 2  class
      "    private final Map<String, Integer> m = new HashMap<>() {{ put(\"a\", 1); }};",  // 3 anonymous class + initializer
      "    static { init(); }",                                  // 4  initializer
      "    @SuppressWarnings({\"a\", \"b\"})",                   // 5  array in an annotation
      "    public void run(int x) throws Exception {",           // 6  method
      "        if (x > 0) { x--; }",                             // 7  other
      "        Runnable r = () -> { go(); };",                   // 8  other (lambda)
      "        Object o = new Object() {",                       // 9  anonymous class
      "            @Override public String toString() { return \"}\"; }",  // 10 method
      "        };",                                              // 11
      "    }",                                                   // 12
      "    static class Inner implements Foo<Bar> {",            // 13 class
      "        Inner() { }",                                     // 14 method (constructor)
      "    }",                                                   // 15
      "    record Point(int x, int y) { }",                      // 16 class
      "    enum Color { RED, GREEN }",                           // 17 class
      "}",                                                       // 18
  };
  const auto blocks = java_blocks(mask_java(lines));
  const auto kind_at = [&](std::size_t line, std::size_t column) {
    for (const auto& b : blocks)
      if (b.open == Position{line, column}) return b.kind;
    FAIL("no block opens at " << line << ":" << column);
    return BlockKind::other;
  };
  CHECK(kind_at(2, lines[2].find('{')) == BlockKind::class_body);
  CHECK(kind_at(3, lines[3].find('{')) == BlockKind::class_body);
  CHECK(kind_at(3, lines[3].find('{') + 1) == BlockKind::initializer);
  CHECK(kind_at(4, lines[4].find('{')) == BlockKind::initializer);
  CHECK(kind_at(6, lines[6].find('{')) == BlockKind::method_body);
  CHECK(kind_at(7, lines[7].find('{')) == BlockKind::other);
  CHECK(kind_at(8, lines[8].find('{')) == BlockKind::other);
  CHECK(kind_at(9, lines[9].find('{')) == BlockKind::class_body);
  CHECK(kind_at(10, lines[10].find('{')) == BlockKind::method_body);
  CHECK(kind_at(13, lines[13].find('{')) == BlockKind::class_body);
  CHECK(kind_at(14, lines[14].find('{')) == BlockKind::method_body);
  CHECK(kind_at(16, lines[16].find('{')) == BlockKind::class_body);
  CHECK(kind_at(17, lines[17].find('{')) == BlockKind::class_body);

  // the method of line 8 is the one of line 6; the class of line 10's body is the anonymous one
  const int method = innermost_block(blocks, {8, 10}, BlockKind::method_body);
  REQUIRE(method >= 0);
  CHECK(blocks[static_cast<std::size_t>(method)].open.line == 6);
  CHECK(blocks[static_cast<std::size_t>(method)].close == Position{12, 4});
  const int anonymous = innermost_block(blocks, {10, 50}, BlockKind::class_body);
  REQUIRE(anonymous >= 0);
  CHECK(blocks[static_cast<std::size_t>(anonymous)].open.line == 9);
  CHECK(innermost_block(blocks, {0, 0}, BlockKind::class_body) == -1);
}

TEST_CASE("declared_type: locals, parameters, fields, for-each, var", "[shuffle][expression]") {
  const std::vector<std::string> lines{
      "class A {",                                                             // 0
      "    private final Map<String, List<Integer>> counts = new HashMap<>();",  // 1
      "    Set<String> names;",                                                // 2
      "    void f(final java.util.Map<K, V> m, int n, String[] args) {",       // 3
      "        var w = new java.util.HashMap<String, Integer>();",             // 4
      "        for (Map.Entry<K, V> e : m.entrySet()) { }",                    // 5
      "        Queue<Integer> q = new PriorityQueue<>();",                     // 6
      "        return names;",                                                 // 7
      "    }",                                                                 // 8
      "    void g() {",                                                        // 9
      "        List<String> q = new ArrayList<>();",                           // 10
      "    }",                                                                 // 11
      "}",                                                                     // 12
  };
  const auto m = mask_java(lines);
  CHECK(declared_type(m, "counts", 7) == "Map");
  CHECK(declared_type(m, "names", 7) == "Set");
  CHECK(declared_type(m, "m", 7) == "Map");
  CHECK(declared_type(m, "n", 7) == "int");
  CHECK(declared_type(m, "args", 7) == "String[]");
  CHECK(declared_type(m, "w", 7) == "HashMap");
  CHECK(declared_type(m, "e", 7) == "Entry");
  CHECK(declared_type(m, "q", 7) == "Queue");   // the one above line 7 first
  CHECK(declared_type(m, "q", 11) == "List");
  CHECK(declared_type(m, "nowhere", 7) == std::nullopt);
  CHECK(declared_type(mask_java({"return x;", "foo(x);", "y = x;", "throw x;"}), "x", 3) == std::nullopt);
}

TEST_CASE("fresh_name and find_word", "[shuffle][expression]") {
  const auto m = mask_java({"int a = 1, a1 = 2; // b", "String s = \"c\";"});
  CHECK(fresh_name(m, "a") == "a2");
  CHECK(fresh_name(m, "b") == "b");  // in a comment only
  CHECK(fresh_name(m, "c") == "c");  // in a literal only
  CHECK(find_word("map mapping amap map", "map") == std::vector<std::size_t>{0, 17});
  CHECK(find_word("x$map map_ map", "map") == std::vector<std::size_t>{11});
}
