// The candidate fixes of an implementation-dependent test (shuffle/order_fix.hpp): each kind
// and API family on small Java files, the order of the list, what is not offered, and diffs
// that git apply and patch -p1 turn into the patched lines.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shuffle/order_fix.hpp"
#include "support/scratch_dir.hpp"

using namespace flakescan::shuffle;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A test class around `body` (the lines of one test method's body, the site among them),
// with `fields` as its fields and `imports` above it.
struct JavaFile {
  std::vector<std::string> lines;
  int site = 0;  // 1-based, the line marked "// SITE"
};

JavaFile test_class(const std::string& imports, const std::string& fields, const std::string& body) {
  JavaFile f;
  f.lines = split_lines("package p;\n\n" + imports + "\npublic class OrderTest {\n" + fields + "\n    @Test\n    public void reads() {\n" + body +
                        "\n    }\n}");
  for (std::size_t i = 0; i < f.lines.size(); ++i) {
    const auto at = f.lines[i].find(" // SITE");
    if (at == std::string::npos) continue;
    f.lines[i].erase(at);
    f.site = static_cast<int>(i + 1);
  }
  REQUIRE(f.site > 0);
  return f;
}

const std::string junit4 = "import static org.junit.Assert.assertEquals;\nimport java.util.*;\nimport org.junit.Test;";
const std::string junit5 = "import static org.junit.jupiter.api.Assertions.*;\nimport java.util.*;\nimport org.junit.jupiter.api.Test;";

// The lines a candidate changed, as "<1-based line>: <new text>".
std::vector<std::string> changes(const JavaFile& f, const FixCandidate& c) {
  std::vector<std::string> out;
  REQUIRE(c.lines.size() == f.lines.size());
  for (std::size_t i = 0; i < f.lines.size(); ++i)
    if (c.lines[i] != f.lines[i]) out.push_back(std::to_string(i + 1) + ": " + c.lines[i]);
  return out;
}

std::string listing(const JavaFile& f, const std::vector<FixCandidate>& cs) {
  std::string out;
  for (const auto& c : cs) {
    out += c.kind + " | " + c.description + "\n";
    for (const auto& ch : changes(f, c)) out += "    " + ch + "\n";
  }
  return out;
}

// Whether some candidate of `kind` changes exactly the site line into `site_after`.
bool offers(const JavaFile& f, const std::vector<FixCandidate>& cs, const std::string& kind, int line, const std::string& after) {
  for (const auto& c : cs)
    if (c.kind == kind && changes(f, c) == std::vector<std::string>{std::to_string(line) + ": " + after}) return true;
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

using Work = flakescan::test_support::ScratchDir;

struct Case {
  std::string name;
  std::string imports;
  std::string fields;
  std::string body;  // "// SITE" marks the site
  std::string api;
  std::string kind;
  int line_offset;    // the changed line relative to the site (0: the site line)
  std::string after;  // the changed line, indentation included
};

void check_cases(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    const JavaFile f = test_class(c.imports, c.fields, c.body);
    const auto cs = fix_candidates(f.lines, f.site, c.api, "src/test/java/p/OrderTest.java");
    INFO(c.name << "\n" << listing(f, cs));
    CHECK(offers(f, cs, c.kind, f.site + c.line_offset, c.after));
  }
}

}  // namespace

TEST_CASE("linked_allocation: the HashMap or HashSet the order comes from", "[shuffle][fix]") {
  check_cases({
      // The shuffling JDK labels a HashSet's orders HashMap.keySet (a HashSet is a HashMap's key set).
      {"a HashSet for a HashMap.keySet order", junit4, "",
       "        Set<String> s = new HashSet<>();\n        assertEquals(\"[]\", s.toString()); // SITE", "HashMap.keySet toString",
       "linked_allocation", -1, "        Set<String> s = new java.util.LinkedHashSet<>();"},
      {"a ConcurrentHashMap declared a Map keeps its thread safety", junit4, "",
       "        Map<String, Integer> c = new ConcurrentHashMap<>(16);\n        assertEquals(\"{}\", c.toString()); // SITE",
       "ConcurrentHashMap toString", "linked_allocation", -1,
       "        Map<String, Integer> c = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16));"},
      {"new HashMap in the method", junit4, "",
       "        Map<String, Integer> m = new HashMap<>();\n        m.put(\"a\", 1);\n        assertEquals(\"{a=1}\", m.toString()); // SITE",
       "HashMap toString", "linked_allocation", -2, "        Map<String, Integer> m = new java.util.LinkedHashMap<>();"},
      {"type arguments and constructor arguments kept", junit4, "",
       "        HashMap<String, Integer> m = new HashMap<String, Integer>(16, 0.75f);\n        m.keySet().toString(); // SITE",
       "HashMap.keySet iteration", "linked_allocation", -1,
       "        HashMap<String, Integer> m = new java.util.LinkedHashMap<String, Integer>(16, 0.75f);"},
      {"fully qualified", junit4, "",
       "        java.util.Map<String, Integer> m = new java.util.HashMap<>();\n        m.toString(); // SITE", "HashMap toString",
       "linked_allocation", -1, "        java.util.Map<String, Integer> m = new java.util.LinkedHashMap<>();"},
      {"a HashSet field", junit4, "    private final Set<String> tags = new HashSet<>(Arrays.asList(\"x\", \"y\"));",
       "        assertEquals(\"[x, y]\", tags.toString()); // SITE", "HashSet iteration", "linked_allocation", -3,
       "    private final Set<String> tags = new java.util.LinkedHashSet<>(Arrays.asList(\"x\", \"y\"));"},
      {"double-brace initialisation", junit4, "",
       "        Map<String, Integer> m = new HashMap<>() {{ put(\"a\", 1); }};\n        m.toString(); // SITE", "HashMap toString",
       "linked_allocation", -1, "        Map<String, Integer> m = new java.util.LinkedHashMap<>() {{ put(\"a\", 1); }};"},
      {"Collectors.toSet()", junit4 + "\nimport java.util.stream.Collectors;", "",
       "        Set<String> s = list.stream().collect(Collectors.toSet());\n        s.toString(); // SITE", "HashSet toString",
       "linked_allocation", -1, "        Set<String> s = list.stream().collect(Collectors.toCollection(java.util.LinkedHashSet::new));"},
      {"toSet() imported statically", junit4 + "\nimport static java.util.stream.Collectors.toSet;", "",
       "        Set<String> s = list.stream().collect(toSet());\n        s.toString(); // SITE", "HashSet toString", "linked_allocation", -1,
       "        Set<String> s = list.stream().collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new));"},
      {"Collectors.toMap(k, v)", junit4 + "\nimport java.util.stream.Collectors;", "",
       "        Map<String, Integer> m = list.stream().collect(Collectors.toMap(s -> s, String::length));\n        m.toString(); // SITE",
       "HashMap toString", "linked_allocation", -1,
       "        Map<String, Integer> m = list.stream().collect(Collectors.toMap(s -> s, String::length, (a, b) -> { throw new "
       "IllegalStateException(\"Duplicate key\"); }, java.util.LinkedHashMap::new));"},
      {"toMap's merge lambda takes names the file does not use", junit4 + "\nimport java.util.stream.Collectors;", "",
       "        int a = 0, b = 1;\n        Map<String, Integer> m = list.stream().collect(Collectors.toMap(s -> s, s -> a + b));\n"
       "        m.toString(); // SITE",
       "HashMap toString", "linked_allocation", -1,
       "        Map<String, Integer> m = list.stream().collect(Collectors.toMap(s -> s, s -> a + b, (a1, b1) -> { throw new "
       "IllegalStateException(\"Duplicate key\"); }, java.util.LinkedHashMap::new));"},
      {"Collectors.groupingBy(f)", junit4 + "\nimport java.util.stream.Collectors;", "",
       "        Map<Integer, List<String>> m = list.stream().collect(Collectors.groupingBy(String::length));\n        m.toString(); // SITE",
       "HashMap toString", "linked_allocation", -1,
       "        Map<Integer, List<String>> m = list.stream().collect(Collectors.groupingBy(String::length, java.util.LinkedHashMap::new, "
       "java.util.stream.Collectors.toList()));"},
      {"Collectors.groupingBy(f, downstream)", junit4 + "\nimport java.util.stream.Collectors;", "",
       "        Map<Integer, Long> m = list.stream().collect(Collectors.groupingBy(String::length, Collectors.counting()));\n"
       "        m.toString(); // SITE",
       "HashMap toString", "linked_allocation", -1,
       "        Map<Integer, Long> m = list.stream().collect(Collectors.groupingBy(String::length, java.util.LinkedHashMap::new, "
       "Collectors.counting()));"},
      {"Guava Maps.newHashMap", junit4 + "\nimport com.google.common.collect.Maps;", "",
       "        Map<String, Integer> m = Maps.newHashMap();\n        m.toString(); // SITE", "HashMap toString", "linked_allocation", -1,
       "        Map<String, Integer> m = Maps.newLinkedHashMap();"},
      {"Guava Sets.newHashSet(iterable)", junit4 + "\nimport com.google.common.collect.Sets;", "",
       "        Set<String> s = Sets.newHashSet(list);\n        s.toString(); // SITE", "HashSet toString", "linked_allocation", -1,
       "        Set<String> s = Sets.newLinkedHashSet(list);"},
      {"a Hashtable declared a Map", junit4, "",
       "        Map<String, Integer> t = new Hashtable<>();\n        t.toString(); // SITE", "Hashtable toString", "linked_allocation", -1,
       "        Map<String, Integer> t = new java.util.LinkedHashMap<>();"},
      {"an IdentityHashMap declared a Map", junit4, "",
       "        Map<Object, String> ids = new IdentityHashMap<>();\n        ids.values().toString(); // SITE",
       "IdentityHashMap.values iteration", "linked_allocation", -1, "        Map<Object, String> ids = new java.util.LinkedHashMap<>();"},
      {"a WeakHashMap declared a Map", junit4, "",
       "        Map<String, String> cache = new WeakHashMap<>();\n        cache.toString(); // SITE", "WeakHashMap toString",
       "linked_allocation", -1, "        Map<String, String> cache = new java.util.LinkedHashMap<>();"},
  });
}

TEST_CASE("linked_allocation: not offered where a LinkedHashMap or LinkedHashSet does not fit", "[shuffle][fix]") {
  struct NoCase {
    std::string name, body, api;
  };
  const std::vector<NoCase> cases{
      {"a Hashtable declared a Hashtable", "        Hashtable<String, Integer> t = new Hashtable<>();\n        t.toString(); // SITE",
       "Hashtable toString"},
      {"a ConcurrentHashMap declared a ConcurrentHashMap",
       "        ConcurrentHashMap<String, Integer> c = new ConcurrentHashMap<>();\n        c.toString(); // SITE", "ConcurrentHashMap toString"},
      {"a ConcurrentHashMap for a HashMap order", "        Map<String, Integer> c = new ConcurrentHashMap<>();\n        c.toString(); // SITE",
       "HashMap toString"},
      {"Sets.newHashSet(a, b): no varargs newLinkedHashSet",
       "        Set<String> s = com.google.common.collect.Sets.newHashSet(\"a\", \"b\");\n        s.toString(); // SITE", "HashSet toString"},
      {"toMap with a merge function", "        Map<String, Integer> m = list.stream().collect(java.util.stream.Collectors.toMap(s -> s, s -> 1, Integer::sum));\n        m.toString(); // SITE",
       "HashMap toString"},
      {"toSet() not from Collectors", "        Set<String> s = mine.toSet();\n        s.toString(); // SITE", "HashSet toString"},
      {"in comments and strings", "        // Map<String, Integer> m = new HashMap<>();\n        String s = \"new HashMap<>()\"; /* new HashSet<>() */\n        s.toString(); // SITE",
       "HashMap toString"},
  };
  for (const auto& c : cases) {
    const JavaFile f = test_class(junit4, "", c.body);
    const auto cs = fix_candidates(f.lines, f.site, c.api, "OrderTest.java");
    INFO(c.name << "\n" << listing(f, cs));
    for (const auto& cand : cs) CHECK(cand.kind != "linked_allocation");
  }
}

TEST_CASE("linked_allocation: the site's method first, nearest first, then fields, then the rest; all at once last", "[shuffle][fix]") {
  const auto lines = split_lines(
      "package p;\n"                                                          // 1
      "import java.util.*;\n"                                                 // 2
      "class OrderTest {\n"                                                   // 3
      "    private final Map<String, Integer> unrelatedField = new HashMap<>();\n"  // 4
      "    private final Map<String, Integer> registry = new HashMap<>();\n"  // 5
      "    void other() {\n"                                                  // 6
      "        Map<String, Integer> far = new HashMap<>();\n"                 // 7
      "    }\n"                                                               // 8
      "    void reads() {\n"                                                  // 9
      "        Map<String, Integer> first = new HashMap<>();\n"               // 10
      "        Map<String, Integer> second = new HashMap<>();\n"              // 11
      "        check(registry.toString() + second.size());\n"                 // 12: the site
      "    }\n"                                                               // 13
      "    void later() {\n"                                                  // 14
      "        Map<String, Integer> after = new HashMap<>();\n"               // 15
      "    }\n"                                                               // 16
      "}\n");
  const auto cs = fix_candidates(lines, 12, "HashMap toString", "OrderTest.java");
  std::vector<int> linked_lines;
  for (const auto& c : cs)
    if (c.kind == "linked_allocation") linked_lines.push_back(c.line);
  // in the method: second (named on the site line), first; the fields: registry (named), the
  // other; the cap of four keeps the rest out; all six at once last
  CHECK(linked_lines == std::vector<int>{11, 10, 5, 4, 4});
  REQUIRE_FALSE(cs.empty());
  CHECK(cs.back().kind == "linked_allocation");
  CHECK(cs.back().description.find("6 at lines 4, 5, 7, 10, 11, 15") != std::string::npos);
  CHECK(cs[0].description.find("in the method of the site") != std::string::npos);
  CHECK(cs[2].description.find("field initialiser") != std::string::npos);
  int changed = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) changed += cs.back().lines[i] != lines[i];
  CHECK(changed == 6);
}

TEST_CASE("as_collection: a printed collection compared by its elements", "[shuffle][fix]") {
  const std::string sorted = ".sorted().collect(java.util.stream.Collectors.toList())";
  check_cases({
      {"a set's toString", junit4, "", "        assertEquals(\"[a, b, c]\", set.toString()); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertEquals(java.util.stream.Stream.of(\"a\", \"b\", \"c\")" + sorted + ", set.stream().map(String::valueOf)" + sorted + ");"},
      {"a map's toString: its entries", junit4, "", "        assertEquals(\"{a=1, b=[x, y]}\", map.toString()); // SITE", "HashMap toString",
       "as_collection", 0,
       "        assertEquals(java.util.stream.Stream.of(\"a=1\", \"b=[x, y]\")" + sorted + ", map.entrySet().stream().map(String::valueOf)" +
           sorted + ");"},
      {"actual first (TestNG), a message", junit4, "",
       "        Assert.assertEquals(names.toString(), \"[x, y]\", \"names\"); // SITE", "HashSet iteration", "as_collection", 0,
       "        Assert.assertEquals(names.stream().map(String::valueOf)" + sorted + ", java.util.stream.Stream.of(\"x\", \"y\")" + sorted +
           ", \"names\");"},
      {"a message first (JUnit 4)", junit4, "",
       "        assertEquals(\"tags\", \"[x, y]\", this.tags.toString()); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertEquals(\"tags\", java.util.stream.Stream.of(\"x\", \"y\")" + sorted + ", this.tags.stream().map(String::valueOf)" + sorted +
           ");"},
      {"a literal concatenated on the line, with escapes", junit5, "",
       "        Assertions.assertEquals(\"[say \\\"hi\\\", \" + \"b\\tc]\", String.valueOf(words)); // SITE", "HashSet iteration",
       "as_collection", 0,
       "        Assertions.assertEquals(java.util.stream.Stream.of(\"say \\\"hi\\\"\", \"b\\tc\")" + sorted +
           ", words.stream().map(String::valueOf)" + sorted + ");"},
      {"\"\" + x", junit4, "", "        assertEquals(\"{k=v, w=z}\", \"\" + props); // SITE", "Properties toString", "as_collection", 0,
       "        assertEquals(java.util.stream.Stream.of(\"k=v\", \"w=z\")" + sorted + ", props.entrySet().stream().map(String::valueOf)" + sorted +
           ");"},
      {"Arrays.toString(array)", junit4, "", "        assertEquals(\"[b.txt, a.txt]\", Arrays.toString(dir.list())); // SITE", "File.list",
       "as_collection", 0,
       "        assertEquals(java.util.stream.Stream.of(\"b.txt\", \"a.txt\")" + sorted + ", java.util.Arrays.stream(dir.list()).map(String::valueOf)" +
           sorted + ");"},
      {"hamcrest contains from Matchers", "import static org.hamcrest.Matchers.contains;\n" + junit4, "",
       "        assertThat(list, contains(\"x\", \"y\")); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertThat(list, org.hamcrest.Matchers.containsInAnyOrder(\"x\", \"y\"));"},
      {"hamcrest contains from Matchers.*", "import static org.hamcrest.Matchers.*;\n" + junit4, "",
       "        assertThat(list, contains(\"x\", \"y\")); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertThat(list, org.hamcrest.Matchers.containsInAnyOrder(\"x\", \"y\"));"},
      {"hamcrest contains from IsIterableContainingInOrder",
       "import static org.hamcrest.collection.IsIterableContainingInOrder.contains;\n" + junit4, "",
       "        assertThat(list, contains(\"x\", \"y\")); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertThat(list, org.hamcrest.collection.IsIterableContainingInAnyOrder.containsInAnyOrder(\"x\", \"y\"));"},
      {"hamcrest Matchers.contains, qualified", "import org.hamcrest.Matchers;\n" + junit4, "",
       "        assertThat(list, Matchers.contains(\"x\", \"y\")); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertThat(list, Matchers.containsInAnyOrder(\"x\", \"y\"));"},
      {"hamcrest arrayContaining", "import static org.hamcrest.Matchers.arrayContaining;\n" + junit4, "",
       "        assertThat(dir.list(), arrayContaining(\"a\", \"b\")); // SITE", "File.list", "as_collection", 0,
       "        assertThat(dir.list(), org.hamcrest.Matchers.arrayContainingInAnyOrder(\"a\", \"b\"));"},
      {"AssertJ containsExactly", "import static org.assertj.core.api.Assertions.assertThat;\n" + junit5, "",
       "        assertThat(set).containsExactly(\"x\", \"y\"); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertThat(set).containsExactlyInAnyOrder(\"x\", \"y\");"},
      {"Truth inOrder", "import static com.google.common.truth.Truth.assertThat;\n" + junit4, "",
       "        assertThat(set).containsExactly(\"x\", \"y\").inOrder(); // SITE", "HashSet iteration", "as_collection", 0,
       "        assertThat(set).containsExactly(\"x\", \"y\");"},
      {"assertIterableEquals as multisets", junit5, "", "        assertIterableEquals(List.of(1, 2), numbers, \"msg\"); // SITE",
       "HashSet iteration", "as_collection", 0,
       "        org.junit.jupiter.api.Assertions.assertEquals(java.util.stream.StreamSupport.stream((List.of(1, 2)).spliterator(), "
       "false).collect(java.util.stream.Collectors.groupingBy(java.util.function.Function.identity(), "
       "java.util.stream.Collectors.counting())), java.util.stream.StreamSupport.stream((numbers).spliterator(), "
       "false).collect(java.util.stream.Collectors.groupingBy(java.util.function.Function.identity(), "
       "java.util.stream.Collectors.counting())), \"msg\");"},
  });
}

TEST_CASE("as_collection: not offered for what it cannot read", "[shuffle][fix]") {
  for (const std::string body : {
           "        assertEquals(\"[a]\", set.toString()); // SITE",                  // one element: no order
           "        assertEquals(\"[\\u0061, b]\", set.toString()); // SITE",         // \u escapes
           "        assertEquals(\"a, b\", set.toString()); // SITE",                 // not a printed collection
           "        assertEquals(expected, set.toString()); // SITE",                 // not a literal
           "        assertEquals(\"[a, b]\",\n            set.toString()); // SITE",  // the call goes on over two lines
           "        assertThat(list, contains(\"x\", \"y\")); // SITE",               // contains of an unknown class
           "        assertThat(set).containsExactly(\"x\", \"y\"); // SITE",          // no AssertJ import
       }) {
    const JavaFile f = test_class(junit4, "", body);
    const auto cs = fix_candidates(f.lines, f.site, "HashSet iteration", "OrderTest.java");
    INFO(body << "\n" << listing(f, cs));
    for (const auto& c : cs) CHECK(c.kind != "as_collection");
  }
}

TEST_CASE("sorted_copy: what the site reads, sorted", "[shuffle][fix]") {
  const std::string to_list = ".stream().sorted().collect(java.util.stream.Collectors.toList())";
  const std::string fields =
      "    Map<String, Integer> map;\n    Set<String> set;\n    Properties props;\n    Hashtable<String, Integer> table;\n"
      "    PriorityQueue<Integer> queue;\n    IdentityHashMap<Object, String> ids;\n    Class<?> type;\n    java.io.File dir;";
  check_cases({
      {"a map's toString", junit4, fields, "        assertEquals(\"{a=1}\", map.toString()); // SITE", "HashMap toString", "sorted_copy", 0,
       "        assertEquals(\"{a=1}\", new java.util.TreeMap<>(map).toString());"},
      {"a set's toString", junit4, fields, "        assertEquals(\"[a]\", set.toString()); // SITE", "HashSet toString", "sorted_copy", 0,
       "        assertEquals(\"[a]\", new java.util.TreeSet<>(set).toString());"},
      {"a queue's toString", junit4, fields, "        assertEquals(\"[1, 5]\", queue.toString()); // SITE", "PriorityQueue iteration",
       "sorted_copy", 0, "        assertEquals(\"[1, 5]\", queue" + to_list + ".toString());"},
      {"entrySet: the map sorted", junit4, fields, "        for (Map.Entry<String, Integer> e : map.entrySet()) { // SITE\n        }",
       "HashMap.entrySet iteration", "sorted_copy", 0, "        for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(map).entrySet()) {"},
      {"keySet().toArray", junit4, fields, "        String[] keys = map.keySet().toArray(new String[0]); // SITE", "HashMap.keySet toArray",
       "sorted_copy", 0, "        String[] keys = new java.util.TreeMap<>(map).keySet().toArray(new String[0]);"},
      {"values: the map sorted", junit4, fields, "        assertEquals(\"[1]\", map.values().toString()); // SITE", "HashMap.values iteration",
       "sorted_copy", 0, "        assertEquals(\"[1]\", new java.util.TreeMap<>(map).values().toString());"},
      {"values: the values sorted", junit4, fields, "        assertEquals(\"[1]\", map.values().toString()); // SITE", "HashMap.values iteration",
       "sorted_copy", 0, "        assertEquals(\"[1]\", map.values()" + to_list + ".toString());"},
      {"a map's forEach", junit4, fields, "        map.forEach((k, v) -> out.add(k)); // SITE", "HashMap.forEach", "sorted_copy", 0,
       "        new java.util.TreeMap<>(map).forEach((k, v) -> out.add(k));"},
      {"Hashtable.keys", junit4, fields, "        Enumeration<String> e = table.keys(); // SITE", "Hashtable.keys", "sorted_copy", 0,
       "        Enumeration<String> e = java.util.Collections.enumeration(new java.util.TreeMap<>(table).keySet());"},
      {"Hashtable.elements", junit4, fields, "        Enumeration<Integer> e = table.elements(); // SITE", "Hashtable.elements", "sorted_copy", 0,
       "        Enumeration<Integer> e = java.util.Collections.enumeration(new java.util.TreeMap<>(table).values());"},
      {"Properties.propertyNames", junit4, fields, "        Enumeration<?> e = props.propertyNames(); // SITE", "Properties.propertyNames",
       "sorted_copy", 0, "        Enumeration<?> e = java.util.Collections.enumeration(new java.util.TreeMap<>(props).keySet());"},
      {"String.join", junit4, fields, "        String header = String.join(\",\", set); // SITE", "HashSet iteration", "sorted_copy", 0,
       "        String header = String.join(\",\", new java.util.TreeSet<>(set));"},
      {"String.join of a call: the family says a set", junit4, fields, "        String header = String.join(\",\", registry.names()); // SITE",
       "HashSet iteration", "sorted_copy", 0, "        String header = String.join(\",\", new java.util.TreeSet<>(registry.names()));"},
      {"new ArrayList<>(X)", junit4, fields, "        List<String> l = new ArrayList<>(set); // SITE", "HashSet iteration", "sorted_copy", 0,
       "        List<String> l = new ArrayList<>(new java.util.TreeSet<>(set));"},
      {"for-each over a set", junit4, fields, "        for (String s : set) { // SITE\n        }", "HashSet iteration", "sorted_copy", 0,
       "        for (String s : new java.util.TreeSet<>(set)) {"},
      {"for-each over a Properties' names", junit4, fields, "        for (String s : props.stringPropertyNames()) { // SITE\n        }",
       "Properties.stringPropertyNames", "sorted_copy", 0, "        for (String s : new java.util.TreeSet<>(props.stringPropertyNames())) {"},
      {"iterator", junit4, fields, "        Iterator<String> it = set.iterator(); // SITE", "HashSet iteration", "sorted_copy", 0,
       "        Iterator<String> it = new java.util.TreeSet<>(set).iterator();"},
      {"stream", junit4, fields, "        String first = set.stream().findFirst().get(); // SITE", "HashSet iteration", "sorted_copy", 0,
       "        String first = set.stream().sorted().findFirst().get();"},
      {"String.valueOf", junit4, fields, "        String s = String.valueOf(map); // SITE", "HashMap toString", "sorted_copy", 0,
       "        String s = String.valueOf(new java.util.TreeMap<>(map));"},
      {"concatenation, either side", junit4, fields, "        String s = \"set=\" + set + \"; map=\" + map; // SITE", "HashSet toString",
       "sorted_copy", 0, "        String s = \"set=\" + new java.util.TreeSet<>(set) + \"; map=\" + map;"},
      {"assertEquals(expected, X) of a declared set", junit4, fields, "        assertEquals(expectedList, set); // SITE", "HashSet iteration",
       "sorted_copy", 0, "        assertEquals(expectedList, new java.util.TreeSet<>(set));"},
      {"a local declared with var", junit4, fields, "        var local = new HashSet<String>();\n        String s = \"\" + local; // SITE",
       "HashSet toString", "sorted_copy", 0, "        String s = \"\" + new java.util.TreeSet<>(local);"},
      {"a cast in parentheses", junit4, fields, "        String s = ((Map<String, Integer>) o).toString(); // SITE", "HashMap toString",
       "sorted_copy", 0, "        String s = new java.util.TreeMap<>(((Map<String, Integer>) o)).toString();"},
      {"IdentityHashMap: its values sorted, not the map", junit4, fields, "        String s = ids.values().toString(); // SITE",
       "IdentityHashMap.values iteration", "sorted_copy", 0, "        String s = ids.values()" + to_list + ".toString();"},
      {"getDeclaredFields", junit4, fields, "        for (Field f : obj.getClass().getDeclaredFields()) { // SITE\n        }",
       "Class.getDeclaredFields", "sorted_copy", 0,
       "        for (Field f : java.util.Arrays.stream(obj.getClass().getDeclaredFields()).sorted(java.util.Comparator.comparing("
       "java.lang.reflect.Field::getName).thenComparing(java.lang.reflect.Field::toString)).toArray(java.lang.reflect.Field[]::new)) {"},
      {"getMethods", junit4, fields, "        Method[] ms = Foo.class.getMethods(); // SITE", "Class.getMethods()", "sorted_copy", 0,
       "        Method[] ms = java.util.Arrays.stream(Foo.class.getMethods()).sorted(java.util.Comparator.comparing("
       "java.lang.reflect.Method::getName).thenComparing(java.lang.reflect.Method::toString)).toArray(java.lang.reflect.Method[]::new);"},
      {"getDeclaredConstructors", junit4, fields, "        Constructor<?>[] cs = type.getDeclaredConstructors(); // SITE",
       "Class.getDeclaredConstructors", "sorted_copy", 0,
       "        Constructor<?>[] cs = java.util.Arrays.stream(type.getDeclaredConstructors()).sorted(java.util.Comparator.comparing("
       "java.lang.reflect.Constructor::toString)).toArray(java.lang.reflect.Constructor[]::new);"},
      {"getAnnotations", junit4, fields, "        Annotation[] as = type.getAnnotations(); // SITE", "Class.getAnnotations", "sorted_copy", 0,
       "        Annotation[] as = java.util.Arrays.stream(type.getAnnotations()).sorted(java.util.Comparator.comparing(("
       "java.lang.annotation.Annotation annotation) -> annotation.annotationType().getName())).toArray(java.lang.annotation.Annotation[]::new);"},
      {"File.list", junit4, fields, "        String[] names = dir.list(); // SITE", "File.list", "sorted_copy", 0,
       "        String[] names = java.util.Optional.ofNullable(dir.list()).map(listed -> { java.util.Arrays.sort(listed); return listed; "
       "}).orElse(null);"},
      {"File.listFiles with a filter", junit4, fields, "        File[] fs = new File(path).listFiles(f -> f.isFile()); // SITE",
       "File.listFiles", "sorted_copy", 0,
       "        File[] fs = java.util.Optional.ofNullable(new File(path).listFiles(f -> f.isFile())).map(listed -> { java.util.Arrays.sort(listed); "
       "return listed; }).orElse(null);"},
      {"Files.list", junit4, fields, "        try (Stream<Path> s = Files.list(p)) { // SITE\n        }", "Files.list", "sorted_copy", 0,
       "        try (Stream<Path> s = Files.list(p).sorted()) {"},
  });
}

TEST_CASE("sorted_copy: not offered for what is no collection", "[shuffle][fix]") {
  const std::string fields = "    Map<String, Integer> map;\n    int count;\n    String name;\n    IdentityHashMap<Object, String> ids;";
  struct NoCase {
    std::string body, api;
  };
  for (const auto& c : std::vector<NoCase>{
           {"        String s = \"n=\" + count + name; // SITE", "HashMap toString"},
           {"        String s = \"n=\" + map.size(); // SITE", "HashMap toString"},
           {"        String s = \"n=\" + registry.describe(); // SITE", "HashMap toString"},  // a call, printed: unknown
           {"        assertEquals(\"a\", it.nextElement()); // SITE", "HashMap toString"},
           {"        for (Color c : Color.values()) { } // SITE", "HashMap.values iteration"},  // an enum's values()
           {"        String s = ids.toString(); // SITE", "IdentityHashMap toString"},           // identity keys
           {"        int n = 1; // SITE", "HashSet iteration"},
       }) {
    const JavaFile f = test_class(junit4, fields, c.body);
    const auto cs = fix_candidates(f.lines, f.site, c.api, "OrderTest.java");
    INFO(c.body << "\n" << listing(f, cs));
    for (const auto& cand : cs) CHECK(cand.kind != "sorted_copy");
  }
}

TEST_CASE("fix_candidates: nothing when nothing matches or the site is not a line of the file", "[shuffle][fix]") {
  const JavaFile f = test_class(junit4, "", "        int n = list.size(); // SITE");
  CHECK(fix_candidates(f.lines, f.site, "HashMap.entrySet iteration", "T.java").empty());
  CHECK(fix_candidates(f.lines, f.site, "Class.getDeclaredFields", "T.java").empty());
  CHECK(fix_candidates(f.lines, f.site, "", "T.java").empty());
  CHECK(fix_candidates(f.lines, 0, "HashMap toString", "T.java").empty());
  CHECK(fix_candidates(f.lines, static_cast<int>(f.lines.size()) + 1, "HashMap toString", "T.java").empty());
  CHECK(fix_candidates({}, 1, "HashMap toString", "T.java").empty());
}

TEST_CASE("fix_candidates: the API label's wording around the family", "[shuffle][fix]") {
  const JavaFile f = test_class(junit4, "    Map<String, Integer> map = new HashMap<>();", "        String s = map.toString(); // SITE");
  const auto expected = fix_candidates(f.lines, f.site, "HashMap toString", "T.java");
  REQUIRE(expected.size() == 2);
  for (const std::string api : {"HashMap.toString()", "java.util.HashMap toString", "HashMap$EntrySet iteration", "HashMap"}) {
    INFO(api);
    const auto got = fix_candidates(f.lines, f.site, api, "T.java");
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i].lines == expected[i].lines);
  }
}

TEST_CASE("fix_candidates: deterministic, distinct, at most twelve, in kind order", "[shuffle][fix]") {
  std::string fields;
  for (int i = 0; i < 20; ++i) fields += "    Map<String, Integer> m" + std::to_string(i) + " = new HashMap<>();\n";
  const JavaFile f = test_class(junit4 + "\nimport static org.hamcrest.Matchers.contains;", fields,
                                "        assertEquals(\"{a=1, b=2}\", m3.toString() + String.valueOf(m4) + \"\" + m5 + m6.keySet()); // SITE");
  const auto first = fix_candidates(f.lines, f.site, "HashMap toString", "src/T.java");
  const auto second = fix_candidates(f.lines, f.site, "HashMap toString", "src/T.java");
  REQUIRE(first.size() == second.size());
  CHECK(first.size() <= 12);
  CHECK(first.size() >= 8);
  std::set<std::vector<std::string>> distinct;
  for (std::size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].kind == second[i].kind);
    CHECK(first[i].description == second[i].description);
    CHECK(first[i].line == second[i].line);
    CHECK(first[i].lines == second[i].lines);
    CHECK(first[i].diff == second[i].diff);
    CHECK(distinct.insert(first[i].lines).second);
    CHECK(first[i].lines != f.lines);
  }
  // linked allocations, then sorted copies, then all allocations at once
  const auto rank = [](const FixCandidate& c) { return c.kind == "linked_allocation" ? 0 : c.kind == "as_collection" ? 1 : 2; };
  for (std::size_t i = 1; i + 1 < first.size(); ++i) CHECK(rank(first[i - 1]) <= rank(first[i]));
  CHECK(first.back().kind == "linked_allocation");
  CHECK(first.back().description.find("every HashMap and HashSet allocation") != std::string::npos);
}

TEST_CASE("fix_candidates: line and diff of each candidate", "[shuffle][fix]") {
  const JavaFile f = test_class(junit4, "    Set<String> tags = new HashSet<>();",
                                "        tags.add(\"a\");\n        assertEquals(\"[a, b]\", tags.toString()); // SITE");
  const auto cs = fix_candidates(f.lines, f.site, "HashSet toString", "src/test/java/p/OrderTest.java");
  REQUIRE(cs.size() == 3);
  CHECK(cs[0].kind == "linked_allocation");
  CHECK(cs[0].line == 7);
  CHECK(cs[0].diff ==
        "--- a/src/test/java/p/OrderTest.java\n+++ b/src/test/java/p/OrderTest.java\n@@ -4,7 +4,7 @@\n import java.util.*;\n import org.junit.Test;\n"
        " public class OrderTest {\n-    Set<String> tags = new HashSet<>();\n+    Set<String> tags = new java.util.LinkedHashSet<>();\n"
        "     @Test\n     public void reads() {\n         tags.add(\"a\");\n");
  CHECK(cs[1].kind == "as_collection");
  CHECK(cs[1].line == f.site);
  CHECK(cs[2].kind == "sorted_copy");
  CHECK(cs[2].line == f.site);
  for (const auto& c : cs) {
    if (c.line == f.site) CHECK(c.diff.find("\n-        assertEquals(\"[a, b]\", tags.toString());\n") != std::string::npos);
    CHECK(c.description.find("line " + std::to_string(c.line)) != std::string::npos);
  }
}

TEST_CASE("fix_candidates: every diff applies with git apply and patch -p1 and gives the patched lines", "[shuffle][fix]") {
  std::string fields;
  for (int i = 0; i < 4; ++i) fields += "    Map<String, Integer> m" + std::to_string(i) + " = new HashMap<>();\n";
  const JavaFile f = test_class(junit4, fields,
                                "        Map<String, Integer> local = new HashMap<>();\n        local.put(\"a\", 1);\n"
                                "        assertEquals(\"{a=1, b=2}\", local.toString() + m1.keySet()); // SITE\n        m3.clear();");
  const std::string path = "src/test/java/p/OrderTest.java";
  const auto cs = fix_candidates(f.lines, f.site, "HashMap toString", path);
  REQUIRE(cs.size() >= 4);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    INFO(cs[i].description << "\n" << cs[i].diff);
    for (const std::string tool : {"git apply --check -p1 fix.patch && git apply -p1 fix.patch", "patch --dry-run -s -p1 < fix.patch && patch -s -p1 < fix.patch"}) {
      Work work("order-fix-apply-" + std::to_string(i));
      work.write(path, joined(f.lines));
      work.write("fix.patch", cs[i].diff);
      INFO(tool);
      REQUIRE(work.run(tool) == 0);
      CHECK(work.read(path) == joined(cs[i].lines));
    }
  }
}
