#pragma once
// Test support: `am instrument -r` output for chosen tests and outcomes, in exactly the
// key order and shape of the recorded AndroidJUnitRunner transcripts in
// tests/fixtures/instrumentation/ (adam_log_10.input: class, current, id, numtests, stream,
// test, then the status code; failures carry `stack` before `stream`). Used where a
// scenario needs outcomes the recordings do not have; the recordings themselves are served
// verbatim elsewhere.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace flakescan::test {

struct ScriptedTest {
  std::string cls, method;
  int code = 0;  // 0 pass, -2 failure, -3 ignored; 1 = started but never ended (cut)
  std::string stack;
};

inline std::string status_block(const ScriptedTest& t, int current, int total, int code, const std::string& stream,
                                const std::string& stack = {}) {
  std::string s;
  s += "INSTRUMENTATION_STATUS: class=" + t.cls + "\n";
  s += "INSTRUMENTATION_STATUS: current=" + std::to_string(current) + "\n";
  s += "INSTRUMENTATION_STATUS: id=AndroidJUnitRunner\n";
  s += "INSTRUMENTATION_STATUS: numtests=" + std::to_string(total) + "\n";
  if (!stack.empty()) s += "INSTRUMENTATION_STATUS: stack=" + stack + "\n";
  s += "INSTRUMENTATION_STATUS: stream=" + stream + "\n";
  s += "INSTRUMENTATION_STATUS: test=" + t.method + "\n";
  s += "INSTRUMENTATION_STATUS_CODE: " + std::to_string(code) + "\n";
  return s;
}

// The whole transcript; stops after a test with code 1 (as a cut stream would).
inline std::string transcript(const std::vector<ScriptedTest>& tests) {
  std::string out;
  int total = int(tests.size()), current = 0, passed = 0;
  std::string last_class;
  for (const auto& t : tests) {
    ++current;
    std::string header = t.cls != last_class ? "\n" + t.cls + ":" : "";
    last_class = t.cls;
    out += status_block(t, current, total, 1, header);
    if (t.code == 1) return out;
    if (t.code == 0) {
      ++passed;
      out += status_block(t, current, total, 0, ".");
    } else if (t.code == -2) {
      out += status_block(t, current, total, -2, "\nError in " + t.method + "(" + t.cls + "):\n" + t.stack + "\n", t.stack);
    } else {
      out += status_block(t, current, total, t.code, "");
    }
  }
  out += "INSTRUMENTATION_RESULT: stream=\n\nTime: 0.5\n\n";
  out += passed == total ? "OK (" + std::to_string(total) + " tests)\n\n\n" : "FAILURES!!!\nTests run: " + std::to_string(total) + "\n\n\n";
  out += "INSTRUMENTATION_CODE: -1\n";
  return out;
}

inline std::string assertion_stack(const std::string& cls, const std::string& method, int line) {
  auto dot = cls.rfind('.');
  std::string file = cls.substr(dot + 1) + ".java";
  return "java.lang.AssertionError: expected:<1> but was:<0>\n"
         "\tat org.junit.Assert.fail(Assert.java:89)\n"
         "\tat " + cls + "." + method + "(" + file + ":" + std::to_string(line) + ")\n"
         "\tat java.lang.reflect.Method.invoke(Native Method)";
}

inline std::string read_fixture(const std::string& relative) {
  std::ifstream in(std::string(FLAKESCAN_SOURCE_DIR) + "/tests/fixtures/" + relative, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The `-e class` list out of an `am instrument` command built by the backend.
inline std::vector<std::string> instrumented_tests(const std::string& command) {
  std::vector<std::string> out;
  auto at = command.find("-e class '");
  if (at == std::string::npos) return out;
  at += 10;
  auto end = command.find('\'', at);
  std::string list = command.substr(at, end - at);
  std::size_t start = 0;
  while (start <= list.size()) {
    auto comma = list.find(',', start);
    // parameter suffixes may hold commas: keep brackets together
    auto open = list.find('[', start);
    if (open != std::string::npos && comma != std::string::npos && open < comma) comma = list.find(',', list.find(']', open));
    out.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace flakescan::test
