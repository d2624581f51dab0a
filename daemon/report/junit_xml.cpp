#include <cstdio>

#include "report/report.hpp"
#include "report/text.hpp"

namespace flakescan::report {

namespace {

// Surefire writes one flakyFailure per failed rerun; a verdict may rest on hundreds of
// runs, so the elements are capped (the run counts stay in the properties).
constexpr int max_rerun_elements = 20;

std::string seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", ms / 1000.0);
  return buf;
}

struct Failure {
  std::string type, message, stack;
};

// The failures of a test's failed runs, one per run, from its failure groups; the failing
// run's stack goes with the group it belongs to.
std::vector<Failure> failures_of(const Entry& e) {
  std::vector<Failure> out;
  const auto& v = e.verdict;
  for (const auto& g : v.evidence.failures) {
    for (int i = 0; i < g.count && static_cast<int>(out.size()) < max_rerun_elements; ++i) {
      Failure f{g.exception_type, g.message, ""};
      if (i == 0 && e.failing_run && (e.failing_run->signature == g.signature || v.evidence.failures.size() == 1))
        f.stack = e.failing_run->stack;
      out.push_back(std::move(f));
    }
  }
  if (out.empty() && e.failing_run)
    out.push_back({e.failing_run->exception, e.failing_run->message, e.failing_run->stack});
  while (static_cast<int>(out.size()) < std::min(v.runs.failed, max_rerun_elements))
    out.push_back(out.empty() ? Failure{"", "failed", ""} : Failure{out.back().type, out.back().message, ""});
  return out;
}

std::string failure_attrs(const Failure& f) {
  std::string s = " message=\"" + xml_escape(f.message) + "\"";
  if (!f.type.empty()) s += " type=\"" + xml_escape(f.type) + "\"";
  return s;
}

}  // namespace

std::map<std::string, std::string> render_junit(const Report& report) {
  std::map<std::string, std::vector<const LocatedEntry*>> by_class;
  for (const auto& le : report.entries) by_class[le.entry.class_name].push_back(&le);

  std::map<std::string, std::string> files;
  for (const auto& [class_name, entries] : by_class) {
    int failures = 0, errors = 0, skipped = 0, flakes = 0;
    double total_ms = 0;
    std::string cases;
    for (const auto* le : entries) {
      const auto& e = le->entry;
      const auto& v = e.verdict;
      const bool error_kind = e.failing_run && e.failing_run->outcome == "error";
      double ms = e.passing_run ? e.passing_run->duration_ms : e.failing_run ? e.failing_run->duration_ms : 0;
      total_ms += ms;
      cases += "  <testcase name=\"" + xml_escape(e.method) + "\" classname=\"" + xml_escape(class_name) +
               "\" time=\"" + seconds(ms) + "\"";
      std::string body;
      if (v.verdict == core::VerdictKind::could_not_run || (v.runs.passed == 0 && v.runs.failed == 0)) {
        ++skipped;
        std::string why = v.evidence.reason.empty() ? "flakescan could not run this test" : v.evidence.reason;
        body = "    <skipped message=\"" + xml_escape(why) + "\"/>\n";
      } else if (v.runs.failed > 0 && v.runs.passed > 0) {
        // Flaky: the test counts as passed, each failed run is a flakyFailure/flakyError.
        ++flakes;
        const char* tag = error_kind ? "flakyError" : "flakyFailure";
        for (const auto& f : failures_of(e)) {
          body += std::string("    <") + tag + failure_attrs(f);
          if (f.stack.empty()) body += "/>\n";
          else body += ">\n      <stackTrace>" + xml_escape(f.stack) + "</stackTrace>\n    </" + tag + ">\n";
        }
      } else if (v.runs.failed > 0) {
        // Failed every time: the first failure, then one rerunFailure per further run.
        error_kind ? ++errors : ++failures;
        auto fs = failures_of(e);
        const char* first = error_kind ? "error" : "failure";
        const char* rerun = error_kind ? "rerunError" : "rerunFailure";
        for (std::size_t i = 0; i < fs.size(); ++i) {
          const auto& f = fs[i];
          if (i == 0) {
            body += std::string("    <") + first + failure_attrs(f) + ">" + xml_escape(f.stack) + "</" + first + ">\n";
          } else {
            body += std::string("    <") + rerun + failure_attrs(f);
            if (f.stack.empty()) body += "/>\n";
            else body += ">\n      <stackTrace>" + xml_escape(f.stack) + "</stackTrace>\n    </" + rerun + ">\n";
          }
        }
      }
      cases += body.empty() ? "/>\n" : ">\n" + body + "  </testcase>\n";
    }
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += "<testsuite name=\"" + xml_escape(class_name) + "\" tests=\"" + std::to_string(entries.size()) +
           "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
           std::to_string(skipped) + "\" flakes=\"" + std::to_string(flakes) + "\" time=\"" + seconds(total_ms) + "\">\n";
    xml += "  <properties>\n    <property name=\"flakescan.scan\" value=\"" + xml_escape(report.scan.id) + "\"/>\n";
    std::string techniques;
    for (std::size_t i = 0; i < report.scan.techniques.size(); ++i) techniques += (i ? "," : "") + report.scan.techniques[i];
    xml += "    <property name=\"flakescan.techniques\" value=\"" + xml_escape(techniques) + "\"/>\n  </properties>\n";
    xml += cases + "</testsuite>\n";
    files["TEST-" + class_name + ".xml"] = std::move(xml);
  }
  return files;
}

}  // namespace flakescan::report
