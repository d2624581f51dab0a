#include "report/junit_import.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "report/text.hpp"

namespace flakescan::report {

namespace {

using boost::property_tree::ptree;
using util::Errc;

bool ident_part(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

// The XML parser recurses once per nesting level; a body of 16 MiB of "<a>" would overflow
// the stack. This scan over-estimates the depth of malformed input (which the parser then
// refuses anyway) and is exact for well-formed input: markup is skipped whole, quoted
// attribute values may hold '>'.
util::Result<bool> check_nesting(std::string_view xml, int max_depth) {
  int depth = 0;
  std::size_t i = 0;
  auto skip_to = [&](std::string_view end, std::size_t from) {
    std::size_t e = xml.find(end, from);
    i = e == std::string_view::npos ? xml.size() : e + end.size();
  };
  while ((i = xml.find('<', i)) != std::string_view::npos) {
    std::string_view rest = xml.substr(i);
    if (rest.starts_with("<!--")) skip_to("-->", i + 4);
    else if (rest.starts_with("<![CDATA[")) skip_to("]]>", i + 9);
    else if (rest.starts_with("<?")) skip_to("?>", i + 2);
    else if (rest.starts_with("<!")) skip_to(">", i + 2);
    else if (rest.starts_with("</")) {
      --depth;
      i += 2;
    } else {
      std::size_t j = i + 1;
      char quote = 0;
      for (; j < xml.size(); ++j) {
        char c = xml[j];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
      }
      if (j >= xml.size()) return true;  // an unclosed tag: the parser says where
      if (xml[j - 1] != '/' && ++depth > max_depth)
        return util::fail(Errc::invalid_argument,
                          "the XML nests elements deeper than " + std::to_string(max_depth) + " levels");
      i = j + 1;
    }
  }
  return true;
}

std::string attr(const ptree& node, const char* name) {
  auto attrs = node.get_child_optional("<xmlattr>");
  if (!attrs) return {};
  return attrs->get<std::string>(name, "");
}

std::string first_line(std::string_view text) {
  std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  text.remove_prefix(start);
  text = text.substr(0, text.find_first_of("\r\n"));
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return cut_utf8(text, max_junit_message_bytes);
}

// The message of a <failure>/<error> (attribute, else the stack trace's first line) or of a
// Surefire rerun element (attribute, else its <stackTrace>).
std::string message_of(const ptree& element) {
  std::string m = first_line(attr(element, "message"));
  if (!m.empty()) return m;
  m = first_line(element.data());
  if (!m.empty()) return m;
  if (auto stack = element.get_child_optional("stackTrace")) return first_line(stack->data());
  return {};
}

double duration_ms(const std::string& time) {
  // Old Surefire versions formatted times with the locale: "1,234.5".
  std::string digits;
  for (char c : time)
    if (c != ',') digits += c;
  if (digits.empty()) return 0;
  char* end = nullptr;
  double seconds = std::strtod(digits.c_str(), &end);
  // Checked after scaling: "1e308" seconds is finite, its milliseconds are not.
  double ms = seconds * 1000.0;
  if (end == digits.c_str() || !std::isfinite(ms) || ms < 0) return 0;
  return ms;
}

ImportedResult read_case(const ptree& tc, std::string test) {
  const ptree* failure = nullptr;
  const ptree* error = nullptr;
  const ptree* first_flaky = nullptr;
  const ptree* first_rerun = nullptr;
  bool skipped = false;
  int flaky = 0, reruns = 0;
  for (const auto& [tag, child] : tc) {
    if (tag == "skipped") skipped = true;
    else if (tag == "failure" && !failure) failure = &child;
    else if (tag == "error" && !error) error = &child;
    else if (tag == "flakyFailure" || tag == "flakyError") {
      if (!first_flaky) first_flaky = &child;
      ++flaky;
    } else if (tag == "rerunFailure" || tag == "rerunError") {
      if (!first_rerun) first_rerun = &child;
      ++reruns;
    }
  }
  ImportedResult r;
  r.test = std::move(test);
  r.duration_ms = duration_ms(attr(tc, "time"));
  if (skipped) {
    r.outcome = ImportedOutcome::skipped;
  } else if (error || failure) {
    r.outcome = error ? ImportedOutcome::error : ImportedOutcome::fail;
    r.message = message_of(error ? *error : *failure);
    r.failed_attempts = reruns;
    if (r.message.empty() && first_rerun) r.message = message_of(*first_rerun);
  } else {
    r.outcome = ImportedOutcome::pass;
    r.failed_attempts = flaky;
    if (first_flaky) r.message = message_of(*first_flaky);
  }
  return r;
}

bool failed(const ImportedResult& r) { return r.outcome == ImportedOutcome::fail || r.outcome == ImportedOutcome::error; }

// The same test twice in one document: Gradle's test-retry plugin writes each execution.
void merge_into(ImportedResult& a, const ImportedResult& b) {
  if (b.outcome == ImportedOutcome::skipped) return;  // a skipped execution says nothing
  if (a.outcome == ImportedOutcome::skipped) {
    a = b;
    return;
  }
  int failures = a.failed_attempts + int(failed(a)) + b.failed_attempts + int(failed(b));
  std::string message = a.message.empty() ? b.message : a.message;
  if (a.outcome == ImportedOutcome::pass || b.outcome == ImportedOutcome::pass) {
    if (a.outcome != ImportedOutcome::pass) a.duration_ms = b.duration_ms;
    a.outcome = ImportedOutcome::pass;
    a.failed_attempts = failures;
  } else {
    a.outcome = b.outcome;
    a.duration_ms = b.duration_ms;
    a.failed_attempts = failures - 1;
  }
  a.message = std::move(message);
}

struct Walker {
  JunitImport out;
  std::map<std::string, std::size_t> index;

  void suite(const ptree& node, const std::string& suite_name) {
    for (const auto& [tag, child] : node) {
      if (tag == "testsuite") {
        suite(child, attr(child, "name"));
      } else if (tag == "testsuites") {  // reports combined into one document (flakescan import-results)
        suite(child, "");
      } else if (tag == "testcase") {
        ++out.testcases;
        std::string cls = attr(child, "classname");
        if (cls.empty()) cls = suite_name;
        std::string name = attr(child, "name");
        if (cls.empty() || name.empty()) {
          ++out.ignored;
          continue;
        }
        auto result = read_case(child, import_test_id(cls, name));
        auto [it, fresh] = index.try_emplace(result.test, out.results.size());
        if (fresh) out.results.push_back(std::move(result));
        else merge_into(out.results[it->second], result);
      }
    }
  }
};

}  // namespace

std::string_view imported_outcome_name(ImportedOutcome outcome) {
  switch (outcome) {
    case ImportedOutcome::pass: return "pass";
    case ImportedOutcome::fail: return "fail";
    case ImportedOutcome::error: return "error";
    case ImportedOutcome::skipped: return "skipped";
  }
  return "pass";
}

std::string import_test_id(std::string_view class_name, std::string_view name) {
  std::string method(name);
  std::size_t open = name.find('(');
  if (open != std::string_view::npos && open > 0) {
    bool identifier = true;
    for (char c : name.substr(0, open)) identifier = identifier && ident_part(c);
    std::size_t close = name.find(')', open);
    if (identifier && close != std::string_view::npos && (close + 1 == name.size() || name[close + 1] == '['))
      method = std::string(name.substr(0, open)) + std::string(name.substr(close + 1));
  }
  return std::string(class_name) + "#" + method;
}

util::Result<JunitImport> parse_junit_xml(std::string_view xml, std::size_t max_bytes) {
  if (xml.size() > max_bytes)
    return util::fail(Errc::too_large, "the JUnit XML report has " + std::to_string(xml.size()) +
                                           " bytes, over the limit of " + std::to_string(max_bytes));
  if (auto deep = check_nesting(xml, max_junit_nesting); !deep) return std::unexpected(deep.error());
  ptree doc;
  try {
    std::istringstream in{std::string(xml)};
    boost::property_tree::read_xml(in, doc, boost::property_tree::xml_parser::no_comments);
  } catch (const boost::property_tree::xml_parser_error& e) {
    return util::fail(Errc::invalid_argument,
                      "the body is not well-formed XML: " + e.message() + " (line " + std::to_string(e.line()) + ")");
  } catch (const std::exception& e) {
    return util::fail(Errc::invalid_argument, std::string("the body is not well-formed XML: ") + e.what());
  }
  const ptree* root = nullptr;
  std::string root_tag;
  for (const auto& [tag, child] : doc) {
    if (tag == "<xmlcomment>" || tag == "<xmlattr>") continue;
    if (root) return util::fail(Errc::invalid_argument, "the XML document has more than one root element");
    root = &child;
    root_tag = tag;
  }
  if (!root) return util::fail(Errc::invalid_argument, "the body holds no XML element");
  if (root_tag != "testsuite" && root_tag != "testsuites")
    return util::fail(Errc::invalid_argument,
                      "the XML root is <" + root_tag + ">, not a JUnit report's <testsuite> or <testsuites>");
  Walker walker;
  if (root_tag == "testsuite") walker.suite(*root, attr(*root, "name"));
  else walker.suite(*root, "");
  if (walker.out.results.empty())
    return util::fail(Errc::invalid_argument,
                      walker.out.testcases == 0
                          ? "the JUnit report holds no <testcase>"
                          : "no <testcase> in the JUnit report has both a class name and a name");
  return std::move(walker.out);
}

}  // namespace flakescan::report
