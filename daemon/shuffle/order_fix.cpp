#include "shuffle/order_fix.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

#include "report/insertion_diff.hpp"
#include "report/text.hpp"
#include "shuffle/java_expression.hpp"

namespace flakescan::shuffle {

namespace {

constexpr std::size_t max_candidates = 12;
constexpr std::size_t max_linked_singles = 4;
constexpr std::size_t max_as_collection = 3;
constexpr std::size_t max_sorted_copies = 5;

constexpr std::string_view to_list = "java.util.stream.Collectors.toList()";

// --- the API label --------------------------------------------------------------------------

enum class Family {
  hash_map,
  hash_set,
  hashtable,
  properties,
  weak_hash_map,
  identity_hash_map,
  concurrent_hash_map,
  priority_queue,
  reflection,
  file,
  nio_files,
  unknown
};

struct Api {
  Family family = Family::unknown;
  std::string member;  // the word after the family ("getDeclaredFields"), when there is one
};

bool is_map_family(Family f) {
  return f == Family::hash_map || f == Family::hashtable || f == Family::properties || f == Family::weak_hash_map ||
         f == Family::identity_hash_map || f == Family::concurrent_hash_map;
}

// "HashMap.entrySet iteration", "java.util.HashMap$KeySet toArray", "Class.getDeclaredFields()":
// the first word that is not a package name is the family, the next word the member.
Api parse_api(const std::string& label) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : label) {
    if (is_identifier_char(c) && c != '$') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(word);
  std::size_t first = 0;
  while (first + 1 < words.size() && std::islower(static_cast<unsigned char>(words[first][0]))) ++first;  // java . util
  Api api;
  if (first >= words.size()) return api;
  const std::string& name = words[first];
  if (first + 1 < words.size()) api.member = words[first + 1];
  if (name == "HashMap") api.family = Family::hash_map;
  else if (name == "HashSet") api.family = Family::hash_set;
  else if (name == "Hashtable") api.family = Family::hashtable;
  else if (name == "Properties") api.family = Family::properties;
  else if (name == "WeakHashMap") api.family = Family::weak_hash_map;
  else if (name == "IdentityHashMap") api.family = Family::identity_hash_map;
  else if (name == "ConcurrentHashMap") api.family = Family::concurrent_hash_map;
  else if (name == "PriorityQueue" || name == "PriorityBlockingQueue") api.family = Family::priority_queue;
  else if (name == "Class") api.family = Family::reflection;
  else if (name == "File") api.family = Family::file;
  else if (name == "Files") api.family = Family::nio_files;
  return api;
}

// --- edits ----------------------------------------------------------------------------------

struct Edit {
  std::size_t line = 0;  // 0-based
  Span span;             // the columns replaced
  std::string text;
};

struct Proposal {
  std::string kind;
  std::string description;
  std::vector<Edit> edits;
};

// The patched lines, or nullopt when two edits overlap.
std::optional<std::vector<std::string>> apply_edits(const std::vector<std::string>& lines, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return std::tie(a.line, a.span) > std::tie(b.line, b.span); });
  std::vector<std::string> out = lines;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const Edit& e = edits[i];
    if (i > 0 && edits[i - 1].line == e.line && edits[i - 1].span.begin < e.span.end) return std::nullopt;
    out[e.line].replace(e.span.begin, e.span.end - e.span.begin, e.text);
  }
  return out;
}

// --- the file -------------------------------------------------------------------------------

struct Source {
  const std::vector<std::string>& lines;
  std::vector<std::string> masked;
  std::vector<Block> blocks;
  std::size_t site = 0;  // 0-based
  Api api;

  const std::string& site_masked() const { return masked[site]; }
  std::string text(std::size_t line, Span s) const { return lines[line].substr(s.begin, s.end - s.begin); }
  std::string site_text(Span s) const { return text(site, s); }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::size_t skip_spaces(std::string_view s, std::size_t p) {
  while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
  return p;
}

std::size_t skip_spaces_back(std::string_view s, std::size_t p) {
  while (p > 0 && std::isspace(static_cast<unsigned char>(s[p - 1]))) --p;
  return p;
}

// A call qualified by the class `simple` (Collectors.toSet(), java.util.Arrays.toString(x)).
bool called_on_class(const Source& src, std::size_t line, const Call& call, std::string_view simple) {
  auto r = receiver_of(src.masked[line], call);
  return r && is_qualified_name(src.masked[line].substr(r->begin, r->end - r->begin), simple);
}

// `import static <class>.<member>;` or `import static <class>.*;` in the file.
bool statically_imported(const Source& src, std::string_view class_name, std::string_view member) {
  for (const auto& line : src.masked) {
    std::string compact;
    for (const char c : line)
      if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    if (!compact.starts_with("importstatic")) continue;
    const std::string imported = compact.substr(12);
    if (imported == std::string(class_name) + "." + std::string(member) + ";" || imported == std::string(class_name) + ".*;")
      return true;
  }
  return false;
}

bool imports_package(const Source& src, std::string_view prefix) {
  return std::any_of(src.masked.begin(), src.masked.end(), [&](const std::string& line) {
    const std::string_view t = trim(line);
    return t.starts_with("import ") && t.find(prefix) != std::string_view::npos;
  });
}

// A call of a static method named `member` of `class_name`: qualified, or bare and imported.
bool is_static_call_of(const Source& src, std::size_t line, const Call& call, std::string_view class_name, std::string_view member) {
  const std::string_view simple = class_name.substr(class_name.rfind('.') + 1);
  if (call.dot) return called_on_class(src, line, call, simple);
  return statically_imported(src, class_name, member);
}

std::string line_number(std::size_t line) { return std::to_string(line + 1); }

// --- linked allocations ---------------------------------------------------------------------

struct Allocation {
  Edit edit;
  std::string what;         // "new HashMap -> new java.util.LinkedHashMap"
  std::string assigned_to;  // the name it is assigned to, or the first name of its statement
  bool map = false;         // it becomes a LinkedHashMap (else a LinkedHashSet)
};

// The name a value at `column` of `line` goes to: `x` of `x = ...`/`Type x = ...`, else the
// first name of the statement on that line (`cache` of `cache.computeIfAbsent(k, ...)`).
std::string assigned_name(std::string_view masked, std::size_t column) {
  const std::string_view before = masked.substr(0, column);
  for (std::size_t i = before.size(); i-- > 0;) {
    if (before[i] != '=') continue;
    const bool comparison = (i > 0 && std::string_view("=!<>+-*/%&|^").find(before[i - 1]) != std::string_view::npos) ||
                            (i + 1 < before.size() && before[i + 1] == '=');
    if (comparison) continue;
    std::size_t e = skip_spaces_back(before, i);
    std::size_t b = e;
    while (b > 0 && is_identifier_char(before[b - 1])) --b;
    if (b < e) return std::string(before.substr(b, e - b));
    break;
  }
  const std::size_t b = skip_spaces(before, 0);
  std::size_t e = b;
  while (e < before.size() && is_identifier_char(before[e])) ++e;
  const std::string first(before.substr(b, e - b));
  return is_java_keyword(first) ? std::string{} : first;
}

// The columns of the (qualified) type name after the `new` at `at`.
Span type_after_new(std::string_view m, std::size_t at) {
  const std::size_t b = skip_spaces(m, at + 3);
  std::size_t e = b;
  while (e < m.size() && (is_identifier_char(m[e]) || m[e] == '.')) ++e;
  return {b, e};
}

// `new [java.util.]HashMap` and the other allocations of `type` on one masked line.
void find_new(const Source& src, std::size_t line, std::string_view type, std::string_view linked, bool only_when_declared_map,
              std::vector<Allocation>& out) {
  const std::string& m = src.masked[line];
  for (const std::size_t at : find_word(m, "new")) {
    const auto [b, e] = type_after_new(m, at);
    const std::string_view name(m.data() + b, e - b);
    if (name != type && name != "java.util." + std::string(type)) continue;
    const std::size_t next = skip_spaces(m, e);
    if (next >= m.size() || (m[next] != '<' && m[next] != '(')) continue;
    Allocation a;
    a.assigned_to = assigned_name(m, at);
    if (only_when_declared_map) {
      // a Hashtable is no LinkedHashMap: only where the variable is declared a Map
      auto declared = a.assigned_to.empty() ? std::nullopt : declared_type(src.masked, a.assigned_to, line);
      if (!declared || (*declared != "Map" && *declared != "AbstractMap")) continue;
    }
    a.edit = {line, {b, e}, "java.util." + std::string(linked)};
    a.what = "new " + std::string(type) + " -> new java.util." + std::string(linked);
    a.map = linked == "LinkedHashMap";
    out.push_back(std::move(a));
  }
}

// A ConcurrentHashMap keeps its thread safety: `new ConcurrentHashMap<>(args)` becomes
// `Collections.synchronizedMap(new LinkedHashMap<>(args))` (whose compute/merge methods are
// atomic too), only where the variable is declared a Map and the call closes on its line.
void find_new_concurrent_map(const Source& src, std::size_t line, std::vector<Allocation>& out) {
  const std::string& m = src.masked[line];
  for (const std::size_t at : find_word(m, "new")) {
    const auto [b, e] = type_after_new(m, at);
    const std::string_view name(m.data() + b, e - b);
    if (name != "ConcurrentHashMap" && name != "java.util.concurrent.ConcurrentHashMap") continue;
    std::size_t open = skip_spaces(m, e);
    if (open < m.size() && m[open] == '<') {
      while (open < m.size() && m[open] != '>') ++open;
      open = skip_spaces(m, open + 1);
    }
    if (open >= m.size() || m[open] != '(') continue;
    const auto close = matching_close(m, open);
    if (!close) continue;
    Allocation a;
    a.assigned_to = assigned_name(m, at);
    auto declared = a.assigned_to.empty() ? std::nullopt : declared_type(src.masked, a.assigned_to, line);
    if (!declared || *declared != "Map") continue;
    const std::string& text = src.lines[line];
    a.edit = {line, {at, *close + 1},
              "java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>" + text.substr(open, *close + 1 - open) + ")"};
    a.what = "new ConcurrentHashMap -> Collections.synchronizedMap(new java.util.LinkedHashMap)";
    a.map = true;
    out.push_back(std::move(a));
  }
}

void find_hash_map_kinds(const Source& src, std::size_t line, std::vector<Allocation>& out) {
  const std::string& m = src.masked[line];
  find_new(src, line, "HashMap", "LinkedHashMap", false, out);
  for (const Call& c : find_calls(m, "newHashMap")) {
    if (!called_on_class(src, line, c, "Maps")) continue;  // Guava
    out.push_back({{line, c.name, "newLinkedHashMap"}, "Maps.newHashMap -> Maps.newLinkedHashMap", assigned_name(m, c.whole().begin), true});
  }
  for (const Call& c : find_calls(m, "toMap")) {
    if (!is_static_call_of(src, line, c, "java.util.stream.Collectors", "toMap")) continue;
    if (split_arguments(m, c.open + 1, c.close).size() != 2) continue;
    // keep toMap's refusal of duplicate keys; only the map it collects into changes
    const std::string a = fresh_name(src.masked, "a");
    const std::string b = fresh_name(src.masked, "b");
    out.push_back({{line, {c.close, c.close},
                    ", (" + a + ", " + b + ") -> { throw new IllegalStateException(\"Duplicate key\"); }, java.util.LinkedHashMap::new"},
                   "Collectors.toMap(k, v) -> Collectors.toMap(k, v, merge, java.util.LinkedHashMap::new)",
                   assigned_name(m, c.whole().begin), true});
  }
  for (const Call& c : find_calls(m, "groupingBy")) {
    if (!is_static_call_of(src, line, c, "java.util.stream.Collectors", "groupingBy")) continue;
    const auto args = split_arguments(m, c.open + 1, c.close);
    Edit edit{line, {}, {}};
    if (args.size() == 1) edit = {line, {c.close, c.close}, ", java.util.LinkedHashMap::new, " + std::string(to_list)};
    else if (args.size() == 2) edit = {line, {args[1].begin, args[1].begin}, "java.util.LinkedHashMap::new, "};
    else continue;
    out.push_back({edit, "Collectors.groupingBy(f, ...) -> Collectors.groupingBy(f, java.util.LinkedHashMap::new, ...)",
                   assigned_name(m, c.whole().begin), true});
  }
}

void find_hash_set_kinds(const Source& src, std::size_t line, std::vector<Allocation>& out) {
  const std::string& m = src.masked[line];
  find_new(src, line, "HashSet", "LinkedHashSet", false, out);
  for (const Call& c : find_calls(m, "newHashSet")) {
    // Guava: newLinkedHashSet has no varargs form, so only () and (iterable)
    if (!called_on_class(src, line, c, "Sets") || split_arguments(m, c.open + 1, c.close).size() > 1) continue;
    out.push_back({{line, c.name, "newLinkedHashSet"}, "Sets.newHashSet -> Sets.newLinkedHashSet", assigned_name(m, c.whole().begin), false});
  }
  for (const Call& c : find_calls(m, "toSet")) {
    if (!c.no_arguments(m) || !is_static_call_of(src, line, c, "java.util.stream.Collectors", "toSet")) continue;
    const std::string collector = std::string(c.dot ? "" : "java.util.stream.Collectors.") + "toCollection(java.util.LinkedHashSet::new)";
    out.push_back({{line, {c.name.begin, c.close + 1}, collector}, "Collectors.toSet() -> Collectors.toCollection(java.util.LinkedHashSet::new)",
                   assigned_name(m, c.whole().begin), false});
  }
}

// The allocations the family's order can come from, over the whole file, in file order.
std::vector<Allocation> find_allocations(const Source& src) {
  std::vector<Allocation> out;
  const Family f = src.api.family;
  for (std::size_t line = 0; line < src.masked.size(); ++line) {
    if (f == Family::hash_map || f == Family::unknown) find_hash_map_kinds(src, line, out);
    // A HashSet is a HashMap's key set: its orders are labelled HashMap.keySet (via HashSet).
    if (f == Family::hash_set || f == Family::hash_map || f == Family::unknown) find_hash_set_kinds(src, line, out);
    if (f == Family::concurrent_hash_map) find_new_concurrent_map(src, line, out);
    if (f == Family::hashtable) find_new(src, line, "Hashtable", "LinkedHashMap", true, out);
    if (f == Family::weak_hash_map) find_new(src, line, "WeakHashMap", "LinkedHashMap", true, out);
    if (f == Family::identity_hash_map) find_new(src, line, "IdentityHashMap", "LinkedHashMap", true, out);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Allocation& a, const Allocation& b) { return std::tie(a.edit.line, a.edit.span) < std::tie(b.edit.line, b.edit.span); });
  return out;
}

// For the all-at-once candidate: both HashMap and HashSet kinds, since an order can pass from
// one into the other (a HashSet filled from a HashMap's keys).
std::vector<Allocation> find_all_linked(const Source& src) {
  if (src.api.family != Family::hash_map && src.api.family != Family::hash_set) return find_allocations(src);
  Source both{src.lines, src.masked, src.blocks, src.site, Api{Family::unknown, {}}};
  return find_allocations(both);
}

enum class Scope { method = 0, field = 1, elsewhere = 2 };

std::string_view scope_words(Scope s) {
  switch (s) {
    case Scope::method: return "in the method of the site";
    case Scope::field: return "in a field initialiser of the site's class";
    case Scope::elsewhere: return "elsewhere in the file";
  }
  return "";
}

std::vector<Proposal> linked_singles(const Source& src, const std::vector<Allocation>& allocations) {
  const Position site_at{src.site, skip_spaces(src.masked[src.site], 0)};
  const int site_method = innermost_block(src.blocks, site_at, BlockKind::method_body);
  const int site_class = innermost_block(src.blocks, site_at, BlockKind::class_body);
  struct Ranked {
    Scope scope;
    bool unrelated;
    std::size_t distance;
    const Allocation* allocation;
  };
  std::vector<Ranked> ranked;
  for (const Allocation& a : allocations) {
    const Position at{a.edit.line, a.edit.span.begin};
    Scope scope = Scope::elsewhere;
    if (site_method >= 0 && src.blocks[static_cast<std::size_t>(site_method)].contains(at)) {
      scope = Scope::method;
    } else if (site_class >= 0) {
      const int own_class = innermost_block(src.blocks, at, BlockKind::class_body);
      const int own_method = innermost_block(src.blocks, at, BlockKind::method_body);
      const bool in_a_method_of_the_class =
          own_method >= 0 && src.blocks[static_cast<std::size_t>(site_class)].contains(src.blocks[static_cast<std::size_t>(own_method)].open);
      if (own_class == site_class && !in_a_method_of_the_class) scope = Scope::field;
    }
    const bool related = !a.assigned_to.empty() && !find_word(src.site_masked(), a.assigned_to).empty();
    const std::size_t distance = a.edit.line > src.site ? a.edit.line - src.site : src.site - a.edit.line;
    ranked.push_back({scope, !related, distance, &a});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& x, const Ranked& y) {
    return std::tie(x.scope, x.unrelated, x.distance, x.allocation->edit.line, x.allocation->edit.span) <
           std::tie(y.scope, y.unrelated, y.distance, y.allocation->edit.line, y.allocation->edit.span);
  });
  std::vector<Proposal> out;
  for (const Ranked& r : ranked) {
    const Allocation& a = *r.allocation;
    const std::string_view what = a.map ? "map" : "set";
    out.push_back({"linked_allocation",
                   a.what + " at line " + line_number(a.edit.line) + " (" + std::string(scope_words(r.scope)) + "), so that " +
                       std::string(what) + " iterates in insertion order where line " + line_number(src.site) + " reads it",
                   {a.edit}});
  }
  return out;
}

std::optional<Proposal> linked_all(const Source& src) {
  const auto all = find_all_linked(src);
  if (all.size() < 2) return std::nullopt;
  Proposal p{"linked_allocation", {}, {}};
  std::set<std::size_t> lines;
  for (const Allocation& a : all) {
    p.edits.push_back(a.edit);
    lines.insert(a.edit.line);
  }
  std::string at;
  for (const std::size_t line : lines) at += (at.empty() ? "" : ", ") + line_number(line);
  p.description = "every HashMap and HashSet allocation of the file made its Linked counterpart (" + std::to_string(all.size()) +
                  " at lines " + at + "), so whatever the order of line " + line_number(src.site) +
                  " comes from iterates in insertion order";
  if (src.api.family != Family::hash_map && src.api.family != Family::hash_set && src.api.family != Family::unknown)
    p.description = "every allocation of the map the order of line " + line_number(src.site) + " comes from made a java.util.LinkedHashMap (" +
                    std::to_string(all.size()) + " at lines " + at + ")";
  return p;
}

// --- compared as collections ----------------------------------------------------------------

std::string sorted_strings_of(const std::string& stream) { return stream + ".map(String::valueOf).sorted().collect(" + std::string(to_list) + ")"; }

// assertEquals("[a, b, c]", x.toString()) and assertEquals("{a=1, b=2}", map.toString()), in
// either argument order, with a message or not: the elements' strings compared as sorted lists
// (as multisets: a List printed with a repeated element keeps its count).
std::vector<Proposal> printed_collection_assertions(const Source& src) {
  std::vector<Proposal> out;
  const std::string& m = src.site_masked();
  for (const Call& call : find_calls(m, "assertEquals")) {
    const auto args = split_arguments(m, call.open + 1, call.close);
    for (std::size_t lit = 0; lit < args.size(); ++lit) {
      const auto value = string_literal_value(src.site_text(args[lit]));
      if (!value) continue;
      const auto printed = split_printed_collection(*value);
      if (!printed || printed->elements.size() < 2) continue;
      for (std::size_t act = 0; act < args.size(); ++act) {
        if (act == lit) continue;
        const std::string_view a = std::string_view(m).substr(args[act].begin, args[act].end - args[act].begin);
        std::optional<std::string> elements;  // a stream of the actual elements
        const auto in_site = [&](Span s) { return src.site_text({args[act].begin + s.begin, args[act].begin + s.end}); };
        if (const auto to_string = find_calls(a, "toString"); !to_string.empty()) {
          const Call& c = to_string.back();
          const auto r = receiver_of(a, c);
          if (r && r->begin == 0 && c.close + 1 == a.size()) {
            const auto inner = split_arguments(a, c.open + 1, c.close);
            if (c.no_arguments(a)) {
              elements = in_site(*r) + (printed->map ? ".entrySet().stream()" : ".stream()");
            } else if (!printed->map && inner.size() == 1 && is_qualified_name(a.substr(r->begin, r->end - r->begin), "Arrays")) {
              elements = "java.util.Arrays.stream(" + in_site(inner[0]) + ")";  // Arrays.toString(array)
            }
          }
        }
        for (const Call& c : find_calls(a, "valueOf")) {
          if (elements || c.whole().begin != 0 || c.close + 1 != a.size()) continue;
          auto r = receiver_of(a, c);
          const auto inner = split_arguments(a, c.open + 1, c.close);
          if (!r || !is_qualified_name(a.substr(r->begin, r->end - r->begin), "String") || inner.size() != 1) continue;
          elements = in_site(inner[0]) + (printed->map ? ".entrySet().stream()" : ".stream()");
        }
        if (!elements && a.starts_with("\"\"")) {
          // "" + x
          const std::size_t plus = skip_spaces(a, 2);
          if (plus < a.size() && a[plus] == '+' && primary_end(a, plus + 1) == a.size())
            elements = std::string(trim(in_site({plus + 1, a.size()}))) + (printed->map ? ".entrySet().stream()" : ".stream()");
        }
        if (!elements) continue;
        std::string expected = "java.util.stream.Stream.of(";
        for (std::size_t i = 0; i < printed->elements.size(); ++i)
          expected += (i ? ", " : "") + report::java_string_literal(printed->elements[i]);
        expected += ").sorted().collect(" + std::string(to_list) + ")";
        out.push_back({"as_collection",
                       "assertEquals at line " + line_number(src.site) + " compares the " + (printed->map ? "entries" : "elements") +
                           " with the literal's as sorted lists of strings, not the order they print in",
                       {{src.site, args[lit], expected}, {src.site, args[act], sorted_strings_of(*elements)}}});
        break;
      }
      if (!out.empty()) break;
    }
  }
  return out;
}

// hamcrest contains(...) -> containsInAnyOrder(...), arrayContaining -> arrayContainingInAnyOrder,
// from the class the file takes it from.
std::optional<Proposal> hamcrest_in_any_order(const Source& src) {
  const std::string& m = src.site_masked();
  struct Matcher {
    std::string_view name, in_order_class, any_order_class, any_order_name;
  };
  static constexpr std::array<Matcher, 2> matchers{
      Matcher{"contains", "org.hamcrest.collection.IsIterableContainingInOrder", "org.hamcrest.collection.IsIterableContainingInAnyOrder",
              "containsInAnyOrder"},
      Matcher{"arrayContaining", "org.hamcrest.collection.IsArrayContainingInOrder", "org.hamcrest.collection.IsArrayContainingInAnyOrder",
              "arrayContainingInAnyOrder"}};
  Proposal p{"as_collection", {}, {}};
  for (const Matcher& matcher : matchers) {
    for (const Call& c : find_calls(m, matcher.name)) {
      const std::string any_order(matcher.any_order_name);
      if (c.dot) {
        auto r = receiver_of(m, c);
        if (!r) continue;
        const std::string_view qualifier = std::string_view(m).substr(r->begin, r->end - r->begin);
        if (is_qualified_name(qualifier, "Matchers")) {
          p.edits.push_back({src.site, c.name, any_order});
        } else if (is_qualified_name(qualifier, matcher.in_order_class.substr(matcher.in_order_class.rfind('.') + 1))) {
          p.edits.push_back({src.site, {r->begin, c.name.end}, std::string(matcher.any_order_class) + "." + any_order});
        }
      } else if (statically_imported(src, "org.hamcrest.Matchers", matcher.name)) {
        p.edits.push_back({src.site, c.name, "org.hamcrest.Matchers." + any_order});
      } else if (statically_imported(src, matcher.in_order_class, matcher.name)) {
        p.edits.push_back({src.site, c.name, std::string(matcher.any_order_class) + "." + any_order});
      }
    }
  }
  if (p.edits.empty()) return std::nullopt;
  p.description = "the hamcrest matcher at line " + line_number(src.site) +
                  " checks the elements in any order (containsInAnyOrder), not in the order they iterate in";
  return p;
}

// AssertJ containsExactly -> containsExactlyInAnyOrder; Truth's containsExactly(...).inOrder()
// loses the .inOrder().
std::optional<Proposal> fluent_in_any_order(const Source& src) {
  const std::string& m = src.site_masked();
  Proposal p{"as_collection", {}, {}};
  if (imports_package(src, "org.assertj.")) {
    for (auto [name, any_order] : {std::pair{"containsExactly", "containsExactlyInAnyOrder"},
                                   std::pair{"containsExactlyElementsOf", "containsExactlyInAnyOrderElementsOf"}}) {
      for (const Call& c : find_calls(m, name))
        if (c.dot) p.edits.push_back({src.site, c.name, any_order});
    }
    if (!p.edits.empty())
      p.description = "the AssertJ assertion at line " + line_number(src.site) + " accepts the elements in any order (containsExactlyInAnyOrder)";
  }
  if (p.edits.empty()) {
    for (const Call& c : find_calls(m, "inOrder")) {
      if (!c.dot || !c.no_arguments(m)) continue;
      p.edits.push_back({src.site, {*c.dot, c.close + 1}, ""});
    }
    if (!p.edits.empty())
      p.description = "the Truth assertion at line " + line_number(src.site) + " no longer asks for the order (.inOrder() dropped)";
  }
  if (p.edits.empty()) return std::nullopt;
  return p;
}

// assertIterableEquals(a, b) -> assertEquals of the two as multisets: element -> count maps,
// equal when the same elements come the same number of times, in any order.
std::optional<Proposal> iterable_equals_as_multisets(const Source& src) {
  const std::string& m = src.site_masked();
  for (const Call& c : find_calls(m, "assertIterableEquals")) {
    if (c.dot && !called_on_class(src, src.site, c, "Assertions")) continue;
    const auto args = split_arguments(m, c.open + 1, c.close);
    if (args.size() != 2 && args.size() != 3) continue;
    const auto counts = [&](Span s) {
      return "java.util.stream.StreamSupport.stream((" + src.site_text(s) +
             ").spliterator(), false).collect(java.util.stream.Collectors.groupingBy(java.util.function.Function.identity(), "
             "java.util.stream.Collectors.counting()))";
    };
    std::string call = "org.junit.jupiter.api.Assertions.assertEquals(" + counts(args[0]) + ", " + counts(args[1]);
    if (args.size() == 3) call += ", " + src.site_text(args[2]);
    call += ")";
    return Proposal{"as_collection",
                    "assertIterableEquals at line " + line_number(src.site) +
                        " compares the two as multisets (each element and how often it occurs), not in iteration order",
                    {{src.site, c.whole(), call}}};
  }
  return std::nullopt;
}

// --- sorted copies --------------------------------------------------------------------------

enum class Shape { map, set, list };

std::optional<Shape> shape_of_type(std::string_view type) {
  if (type.ends_with("[]")) return std::nullopt;
  if (type.ends_with("Map") || type == "Hashtable" || type == "Properties" || type == "Dictionary") return Shape::map;
  if (type.ends_with("Set") && type != "ResultSet" && type != "BitSet" && type != "RowSet") return Shape::set;
  if (type.ends_with("List") || type.ends_with("Queue") || type.ends_with("Deque") || type == "Collection" || type == "Vector" ||
      type == "Stack")
    return Shape::list;
  return std::nullopt;
}

// How strongly the place X is read at says X is a collection.
enum class Reading {
  receiver,    // X.toString(), X.forEach(...)
  collection,  // X.iterator(), X.toArray(...): only a collection has them
  iterable,    // for (v : X), String.join(sep, X), new ArrayList<>(X)
  asserted,    // assertEquals(expected, X), assertThat(X, ...)
  printed      // String.valueOf(X), "..." + X: any value prints
};

// Methods whose result is no collection: a receiver ending in one of them is left alone.
bool is_scalar_method(std::string_view name) {
  static constexpr std::array<std::string_view, 16> names{"size", "length", "count", "hashCode", "toString", "isEmpty", "equals", "getName",
                                                          "name", "ordinal", "intValue", "longValue", "get", "contains", "containsKey",
                                                          "compareTo"};
  return std::find(names.begin(), names.end(), name) != names.end() || name.starts_with("is") || name.starts_with("has");
}

// A simple name in CamelCase: a class (Color), not a variable (color) or a constant (COLORS).
bool is_class_name(std::string_view t) {
  return !t.empty() && std::isupper(static_cast<unsigned char>(t.front())) &&
         std::all_of(t.begin(), t.end(), [](char c) { return is_identifier_char(c); }) &&
         std::any_of(t.begin(), t.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
}

std::optional<Shape> family_default(Family f, Reading reading) {
  if (f == Family::hash_set) return Shape::set;
  if (f == Family::priority_queue) return Shape::list;
  if (is_map_family(f)) {
    if (reading == Reading::iterable || reading == Reading::collection) return Shape::set;  // a key set, mostly
    return Shape::map;
  }
  return std::nullopt;
}

// What X is, from its text, its declaration and the family of the API.
std::optional<Shape> shape_of(const Source& src, Span x, Reading reading) {
  const std::string_view t = trim(std::string_view(src.site_masked()).substr(x.begin, x.end - x.begin));
  if (t.empty() || t.front() == '"' || t.front() == '\'' || std::isdigit(static_cast<unsigned char>(t.front())) || t == "this" ||
      t == "null")
    return std::nullopt;
  if (t.starts_with("new ")) {
    std::size_t e = 4;
    while (e < t.size() && (is_identifier_char(t[e]) || t[e] == '.')) ++e;
    std::string_view type = t.substr(4, e - 4);
    type = type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
    return shape_of_type(type);
  }
  if (t.front() == '(') {
    // ((Map<String, Integer>) o): the type of the cast
    const std::size_t b = skip_spaces(t, 1);
    if (b < t.size() && t[b] == '(') {
      std::size_t e = b + 1;
      while (e < t.size() && (is_identifier_char(t[e]) || t[e] == '.')) ++e;
      std::string_view type = t.substr(b + 1, e - b - 1);
      type = type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
      return shape_of_type(type);
    }
    return std::nullopt;
  }
  if (t.back() == ')') {
    auto open = matching_open(t, t.size() - 1);
    if (!open) return std::nullopt;
    std::size_t e = skip_spaces_back(t, *open);
    std::size_t b = e;
    while (b > 0 && is_identifier_char(t[b - 1])) --b;
    const std::string_view method = t.substr(b, e - b);
    const std::size_t dot = skip_spaces_back(t, b);
    if (dot > 0 && t[dot - 1] == '.' && is_class_name(trim(t.substr(0, dot - 1)))) return std::nullopt;  // Color.values()
    if (method == "keySet" || method == "entrySet" || method == "navigableKeySet" || method == "stringPropertyNames") return Shape::set;
    if (method == "values") return Shape::list;
    // unmodifiableSet(...), asMap(), toList(): the name says
    for (auto [suffix, shape] : {std::pair{"Map", Shape::map}, std::pair{"Set", Shape::set}, std::pair{"List", Shape::list}})
      if (method.ends_with(suffix)) return shape;
    // what a call returns is known only from where it is read: printed or asserted, it may be anything
    if (is_scalar_method(method) || reading == Reading::printed || reading == Reading::asserted) return std::nullopt;
    return family_default(src.api.family, reading);
  }
  if (t.back() == ']') return std::nullopt;  // an element of an array or list
  // a name, or a field through a dotted path: its declaration
  std::size_t b = t.size();
  while (b > 0 && is_identifier_char(t[b - 1])) --b;
  const std::string_view name = t.substr(b);
  if (name == "class" || name.empty()) return std::nullopt;
  if (is_class_name(t)) return std::nullopt;  // Color in Color.values()
  if (auto type = declared_type(src.masked, name, src.site)) return shape_of_type(*type);
  if (reading == Reading::printed || reading == Reading::asserted) return std::nullopt;
  return family_default(src.api.family, reading);
}

bool identity_keys(const Source& src, Span x) {
  if (src.api.family == Family::identity_hash_map) return true;
  const std::string_view t = trim(std::string_view(src.site_masked()).substr(x.begin, x.end - x.begin));
  std::size_t b = t.size();
  while (b > 0 && is_identifier_char(t[b - 1])) --b;
  auto type = b < t.size() ? declared_type(src.masked, t.substr(b), src.site) : std::nullopt;
  return type && *type == "IdentityHashMap";
}

// X -> a sorted copy of the same kind, as text; nullopt when X is not one this sorts.
std::optional<std::pair<std::string, std::string>> sorted_copy_of(const Source& src, Span x, Reading reading) {
  auto shape = shape_of(src, x, reading);
  if (!shape) return std::nullopt;
  if (*shape == Shape::map && (reading == Reading::collection)) shape = Shape::set;
  const std::string text(trim(src.site_text(x)));
  switch (*shape) {
    case Shape::map:
      if (identity_keys(src, x)) return std::nullopt;  // identity keys are rarely Comparable
      return std::pair{"new java.util.TreeMap<>(" + text + ")", std::string("the entries are read in key order")};
    case Shape::set:
      return std::pair{"new java.util.TreeSet<>(" + text + ")", std::string("the elements are read in their natural order")};
    case Shape::list:
      return std::pair{text + ".stream().sorted().collect(" + std::string(to_list) + ")",
                       std::string("the elements are read in their natural order")};
  }
  return std::nullopt;
}

Span trimmed(std::string_view masked, Span s) {
  s.begin = skip_spaces(masked, s.begin);
  s.end = std::max(s.begin, skip_spaces_back(masked, s.end));
  return s;
}

struct Read {
  Span x;
  Reading reading;
};

bool is_view_call(std::string_view x) {
  const std::string_view t = trim(x);
  for (std::string_view v : {".keySet()", ".entrySet()"})
    if (t.ends_with(v)) return true;
  return false;
}

// Receivers of calls that read their order (toString, forEach, iterator, toArray), and the
// elements of String.join.
void call_reads(const Source& src, std::vector<Read>& reads) {
  const std::string& m = src.site_masked();
  const auto receiver_reads = [&](std::string_view name, bool needs_no_arguments, Reading reading) {
    for (const Call& c : find_calls(m, name)) {
      if (needs_no_arguments && !c.no_arguments(m)) continue;
      if (auto r = receiver_of(m, c)) reads.push_back({*r, reading});
    }
  };
  receiver_reads("toString", true, Reading::receiver);
  receiver_reads("forEach", false, Reading::receiver);
  receiver_reads("iterator", true, Reading::collection);
  receiver_reads("toArray", false, Reading::collection);
  for (const Call& c : find_calls(m, "join")) {
    const auto args = split_arguments(m, c.open + 1, c.close);
    if (called_on_class(src, src.site, c, "String") && args.size() == 2) reads.push_back({args[1], Reading::iterable});
  }
}

// new ArrayList<>(x) and the other lists that copy a collection in its order.
void list_copy_reads(const std::string& m, std::vector<Read>& reads) {
  for (std::string_view list : {"ArrayList", "LinkedList", "Vector", "ArrayDeque", "CopyOnWriteArrayList"}) {
    for (const std::size_t at : find_word(m, list)) {
      const std::size_t before = skip_spaces_back(m, at);
      const bool qualified = before > 0 && m[before - 1] == '.';
      const std::size_t new_at = qualified ? m.rfind("new", before) : before >= 3 ? before - 3 : std::string::npos;
      if (new_at == std::string::npos || m.compare(new_at, 3, "new") != 0) continue;
      std::size_t open = skip_spaces(m, at + list.size());
      if (open < m.size() && m[open] == '<') {
        auto gt = matching_close(m, open);
        if (!gt) continue;
        open = skip_spaces(m, *gt + 1);
      }
      if (open >= m.size() || m[open] != '(') continue;
      auto close = matching_close(m, open);
      if (!close) continue;
      const auto args = split_arguments(m, open + 1, *close);
      if (args.size() == 1 && !std::isdigit(static_cast<unsigned char>(m[args[0].begin]))) reads.push_back({args[0], Reading::iterable});
    }
  }
}

// for (T x : X): X.
void for_each_reads(const std::string& m, std::vector<Read>& reads) {
  for (const std::size_t at : find_word(m, "for")) {
    const std::size_t open = skip_spaces(m, at + 3);
    if (open >= m.size() || m[open] != '(') continue;
    auto close = matching_close(m, open);
    if (!close) continue;
    int depth = 0;
    for (std::size_t i = open + 1; i < *close; ++i) {
      const char ch = m[i];
      if (ch == '(' || ch == '[' || ch == '{') ++depth;
      if (ch == ')' || ch == ']' || ch == '}') --depth;
      if (ch == ';') break;  // a classic for
      if (ch == ':' && depth == 0 && m[i + 1] != ':' && m[i - 1] != ':') {
        reads.push_back({trimmed(m, {i + 1, *close}), Reading::iterable});
        break;
      }
    }
  }
}

// "..." + X and X + "..."
void concatenation_reads(const std::string& m, std::vector<Read>& reads) {
  for (std::size_t i = 0; i < m.size(); ++i) {
    if (m[i] != '"') continue;
    const std::size_t close = m.find('"', i + 1);
    if (close == std::string::npos) break;
    const std::size_t before = skip_spaces_back(m, i);
    if (before > 0 && m[before - 1] == '+' && !(before > 1 && m[before - 2] == '+')) {
      if (auto start = primary_start(m, before - 1)) reads.push_back({trimmed(m, {*start, before - 1}), Reading::printed});
    }
    const std::size_t after = skip_spaces(m, close + 1);
    if (after + 1 < m.size() && m[after] == '+' && m[after + 1] != '+' && m[after + 1] != '=') {
      if (auto end = primary_end(m, after + 1)) reads.push_back({trimmed(m, {after + 1, *end}), Reading::printed});
    }
    i = close;
  }
}

// assertEquals(expected, X): X the last argument (JUnit 4: message first) or the second
// (JUnit 5: message last); assertThat(X, ...): the first, or the second after a reason.
void assertion_reads(const Source& src, std::vector<Read>& reads) {
  const std::string& m = src.site_masked();
  const bool junit5 = imports_package(src, "org.junit.jupiter.");
  for (const Call& c : find_calls(m, "assertEquals")) {
    const auto args = split_arguments(m, c.open + 1, c.close);
    if (args.size() < 2) continue;
    const std::size_t actual = args.size() == 2 || junit5 ? 1 : 2;
    reads.push_back({args[actual], Reading::asserted});
  }
  for (const Call& c : find_calls(m, "assertThat")) {
    const auto args = split_arguments(m, c.open + 1, c.close);
    if (args.empty()) continue;
    reads.push_back({args[args.size() == 3 ? 1 : 0], Reading::asserted});
  }
}

// The places on the site line where a collection's order is read, left to right. (Reads that
// start at the same place keep the order they are found in here.)
std::vector<Read> reads_on_site(const Source& src) {
  const std::string& m = src.site_masked();
  std::vector<Read> reads;
  call_reads(src, reads);
  list_copy_reads(m, reads);
  for (const Call& c : find_calls(m, "copyOf")) {
    const auto args = split_arguments(m, c.open + 1, c.close);
    if (called_on_class(src, src.site, c, "List") && args.size() == 1) reads.push_back({args[0], Reading::iterable});
  }
  for_each_reads(m, reads);
  for (const Call& c : find_calls(m, "valueOf")) {
    const auto args = split_arguments(m, c.open + 1, c.close);
    if (called_on_class(src, src.site, c, "String") && args.size() == 1) reads.push_back({args[0], Reading::printed});
  }
  concatenation_reads(m, reads);
  assertion_reads(src, reads);
  std::stable_sort(reads.begin(), reads.end(), [](const Read& a, const Read& b) { return a.x.begin < b.x.begin; });
  return reads;
}

// `replaced` on the site line becomes `text`.
Proposal sorted_proposal(const Source& src, Span replaced, std::string text, const std::string& why) {
  const std::string before(trim(src.site_text(replaced)));
  return {"sorted_copy", "`" + before + "` -> `" + text + "` at line " + line_number(src.site) + ", " + why,
          {{src.site, replaced, std::move(text)}}};
}

// `call` on the site line with `.sorted()` after it (a stream sorted where it is made).
Proposal sorted_stream(const Source& src, const Call& call, const std::string& why) {
  const std::string text = src.site_text(call.whole());
  return {"sorted_copy", "`" + text + "` -> `" + text + ".sorted()` at line " + line_number(src.site) + ", " + why,
          {{src.site, {call.close + 1, call.close + 1}, ".sorted()"}}};
}

// Class.getDeclaredFields() and the other arrays of members, sorted where they are made:
// fields and methods by name and then signature (overloads share a name), constructors by
// signature, annotations by their type's name.
std::vector<Proposal> sorted_class_members(const Source& src) {
  struct Member {
    std::string_view method, element, order;
  };
  static constexpr std::array<Member, 8> members{
      Member{"getDeclaredFields", "java.lang.reflect.Field", "by_name"},
      Member{"getFields", "java.lang.reflect.Field", "by_name"},
      Member{"getDeclaredMethods", "java.lang.reflect.Method", "by_name"},
      Member{"getMethods", "java.lang.reflect.Method", "by_name"},
      Member{"getDeclaredConstructors", "java.lang.reflect.Constructor", "by_signature"},
      Member{"getConstructors", "java.lang.reflect.Constructor", "by_signature"},
      Member{"getAnnotations", "java.lang.annotation.Annotation", "by_type"},
      Member{"getDeclaredAnnotations", "java.lang.annotation.Annotation", "by_type"}};
  const std::string& m = src.site_masked();
  // the label's member when it names one, else any of them on the line
  const bool known_member = std::any_of(members.begin(), members.end(), [&](const Member& mb) { return mb.method == src.api.member; });
  std::vector<Proposal> out;
  for (const Member& mb : members) {
    if (known_member && mb.method != src.api.member) continue;
    for (const Call& c : find_calls(m, mb.method)) {
      if (!c.no_arguments(m) || !receiver_of(m, c)) continue;
      const std::string element(mb.element);
      std::string comparator;
      std::string order;
      if (mb.order == "by_name") {
        comparator = "java.util.Comparator.comparing(" + element + "::getName).thenComparing(" + element + "::toString)";
        order = "by name, then signature";
      } else if (mb.order == "by_signature") {
        comparator = "java.util.Comparator.comparing(" + element + "::toString)";
        order = "by signature";
      } else {
        const std::string a = fresh_name(src.masked, "annotation");
        comparator = "java.util.Comparator.comparing((" + element + " " + a + ") -> " + a + ".annotationType().getName())";
        order = "by annotation type";
      }
      out.push_back(sorted_proposal(src, c.whole(),
                                    "java.util.Arrays.stream(" + src.site_text(c.whole()) + ").sorted(" + comparator + ").toArray(" +
                                        element + "[]::new)",
                                    "sorted " + order + " (Class." + std::string(mb.method) + " returns them in no particular order)"));
    }
  }
  return out;
}

// File.list() and listFiles(...), sorted (File is Comparable); null, for no directory, stays null.
std::vector<Proposal> sorted_file_listings(const Source& src) {
  const std::string& m = src.site_masked();
  std::vector<Proposal> out;
  for (std::string_view method : {"list", "listFiles"}) {
    for (const Call& c : find_calls(m, method)) {
      auto r = receiver_of(m, c);
      if (!r || is_qualified_name(std::string_view(m).substr(r->begin, r->end - r->begin), "Files")) continue;
      const std::string a = fresh_name(src.masked, "listed");
      out.push_back(sorted_proposal(src, c.whole(),
                                    "java.util.Optional.ofNullable(" + src.site_text(c.whole()) + ").map(" + a + " -> { java.util.Arrays.sort(" +
                                        a + "); return " + a + "; }).orElse(null)",
                                    "sorted (File." + std::string(method) + " returns the entries in no particular order)"));
    }
  }
  return out;
}

// java.nio.file.Files.list(dir) and walk(dir): the stream of paths sorted.
std::vector<Proposal> sorted_path_streams(const Source& src) {
  std::vector<Proposal> out;
  for (std::string_view method : {"list", "walk"}) {
    for (const Call& c : find_calls(src.site_masked(), method)) {
      if (called_on_class(src, src.site, c, "Files"))
        out.push_back(sorted_stream(src, c, "the paths in their natural order (Files." + std::string(method) + " lists them in no particular order)"));
    }
  }
  return out;
}

// Maps, sets and queues read on the site line, replaced by sorted copies.
std::vector<Proposal> sorted_collections(const Source& src) {
  const std::string& m = src.site_masked();
  const Family f = src.api.family;
  std::vector<Proposal> out;
  // the views of a map: the map itself sorted
  for (std::string_view view : {"keySet", "entrySet", "values", "keys", "elements", "propertyNames"}) {
    for (const Call& c : find_calls(m, view)) {
      auto r = receiver_of(m, c);
      if (!r || !c.no_arguments(m)) continue;
      if (shape_of(src, *r, Reading::receiver) != Shape::map || identity_keys(src, *r)) continue;
      const std::string map(trim(src.site_text(*r)));
      if (view == "keySet" || view == "entrySet" || view == "values") {
        out.push_back(sorted_proposal(src, *r, "new java.util.TreeMap<>(" + map + ")", "so its " + std::string(view) + "() is in key order"));
      } else {
        // Hashtable's enumerations: one over the sorted map's keys or values
        const std::string part = view == "elements" ? "values()" : "keySet()";
        out.push_back(sorted_proposal(src, c.whole(), "java.util.Collections.enumeration(new java.util.TreeMap<>(" + map + ")." + part + ")",
                                      "an enumeration in key order"));
      }
    }
  }
  for (const Call& c : find_calls(m, "stream")) {
    auto r = receiver_of(m, c);
    if (!r || !c.no_arguments(m) || (is_map_family(f) && is_view_call(src.site_text(*r)))) continue;
    // a list streams in its own order: sorting it is a fix only for a queue or a map's values
    const auto shape = shape_of(src, *r, Reading::collection);
    if (!shape || (*shape == Shape::list && f != Family::priority_queue && !trim(src.site_text(*r)).ends_with(".values()"))) continue;
    out.push_back(sorted_stream(src, c, "the elements streamed in their natural order"));
  }
  for (const Read& read : reads_on_site(src)) {
    const std::string text(trim(src.site_text(read.x)));
    if (is_map_family(f) && is_view_call(text)) continue;  // sorted through its map above
    if (text.ends_with(".toString()")) continue;            // its receiver is read
    if (auto copy = sorted_copy_of(src, read.x, read.reading)) out.push_back(sorted_proposal(src, read.x, copy->first, "a sorted copy: " + copy->second));
  }
  return out;
}

std::vector<Proposal> sorted_copies(const Source& src) {
  switch (src.api.family) {
    case Family::reflection: return sorted_class_members(src);
    case Family::file: return sorted_file_listings(src);
    case Family::nio_files: return sorted_path_streams(src);
    default: return sorted_collections(src);
  }
}

// --- assembly -------------------------------------------------------------------------------

FixCandidate to_candidate(const Source& src, const Proposal& p, const std::vector<std::string>& patched, const std::string& path) {
  FixCandidate c;
  c.kind = p.kind;
  c.description = p.description;
  std::set<std::size_t> changed;
  for (const Edit& e : p.edits) changed.insert(e.line);
  c.line = static_cast<int>(*changed.begin()) + 1;
  std::vector<report::Insertion> replacements;
  for (const std::size_t line : changed) replacements.push_back({line, {patched[line]}, 1});
  c.diff = report::diff_file(path, src.lines, std::move(replacements));
  c.lines = patched;
  return c;
}

}  // namespace

std::vector<FixCandidate> fix_candidates(const std::vector<std::string>& lines, int site_line, const std::string& api,
                                         const std::string& path) {
  if (site_line < 1 || static_cast<std::size_t>(site_line) > lines.size()) return {};
  Source src{lines, mask_java(lines), {}, static_cast<std::size_t>(site_line - 1), parse_api(api)};
  src.blocks = java_blocks(src.masked);

  std::vector<Proposal> proposals;
  const auto take = [&](std::vector<Proposal> more, std::size_t cap) {
    if (more.size() > cap) more.resize(cap);
    for (auto& p : more) proposals.push_back(std::move(p));
  };
  take(linked_singles(src, find_allocations(src)), max_linked_singles);
  std::vector<Proposal> compared = printed_collection_assertions(src);
  for (auto p : {hamcrest_in_any_order(src), fluent_in_any_order(src), iterable_equals_as_multisets(src)})
    if (p) compared.push_back(std::move(*p));
  take(std::move(compared), max_as_collection);
  take(sorted_copies(src), max_sorted_copies);
  if (auto all = linked_all(src)) proposals.push_back(std::move(*all));

  std::vector<FixCandidate> out;
  std::set<std::vector<std::string>> seen{lines};  // an edit that changes nothing is no fix
  for (const Proposal& p : proposals) {
    if (out.size() >= max_candidates) break;
    auto patched = apply_edits(lines, p.edits);
    if (!patched || !seen.insert(*patched).second) continue;
    out.push_back(to_candidate(src, p, *patched, path));
  }
  return out;
}

}  // namespace flakescan::shuffle
