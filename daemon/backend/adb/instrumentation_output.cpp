#include "backend/adb/instrumentation_output.hpp"

#include <charconv>

namespace flakescan::backend::adb {

namespace {

constexpr std::string_view status_prefix = "INSTRUMENTATION_STATUS: ";
constexpr std::string_view status_code_prefix = "INSTRUMENTATION_STATUS_CODE: ";
constexpr std::string_view result_prefix = "INSTRUMENTATION_RESULT: ";
constexpr std::string_view code_prefix = "INSTRUMENTATION_CODE: ";
constexpr std::string_view failed_prefix = "INSTRUMENTATION_FAILED: ";
constexpr std::string_view aborted_prefix = "INSTRUMENTATION_ABORTED: ";

std::optional<int> parse_int(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// "key=value" -> (key, value); no '=' -> (text, "").
std::pair<std::string, std::string> split_key(std::string_view kv) {
  auto eq = kv.find('=');
  if (eq == std::string_view::npos) return {std::string(kv), {}};
  return {std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1))};
}

}  // namespace

bool InstrumentationOutput::process_crashed() const {
  auto it = result.find("shortMsg");
  if (it != result.end() && (it->second.find("crashed") != std::string::npos || it->second.find("Native crash") != std::string::npos))
    return true;
  return aborted.find("crashed") != std::string::npos;
}

std::string InstrumentationOutput::failure_reason() const {
  if (!failed.empty()) return "instrumentation failed to start: " + failed;
  if (!aborted.empty()) return "instrumentation aborted: " + aborted;
  if (process_crashed()) {
    auto it = result.find("longMsg");
    return "test process crashed" + (it != result.end() ? ": " + it->second : std::string());
  }
  if (!finished()) return "instrumentation output ended before INSTRUMENTATION_CODE";
  return {};
}

void InstrumentationParser::feed(std::string_view chunk, double now_ms) {
  pending_.append(chunk);
  std::size_t start = 0;
  while (true) {
    auto nl = pending_.find('\n', start);
    if (nl == std::string::npos) break;
    std::string_view l(pending_.data() + start, nl - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    line(l, now_ms);
    start = nl + 1;
  }
  pending_.erase(0, start);
}

const InstrumentationOutput& InstrumentationParser::finish(double now_ms) {
  if (!pending_.empty()) {
    std::string last = std::move(pending_);
    pending_.clear();
    if (!last.empty() && last.back() == '\r') last.pop_back();
    line(last, now_ms);
  }
  close_value();
  return out_;
}

void InstrumentationParser::close_value() { value_ = nullptr; }

void InstrumentationParser::line(std::string_view text, double now_ms) {
  if (text.starts_with(status_code_prefix)) {
    close_value();
    auto code = parse_int(text.substr(status_code_prefix.size()));
    if (code) end_status(*code, now_ms);
    status_.clear();
    return;
  }
  if (text.starts_with(status_prefix)) {
    auto [k, v] = split_key(text.substr(status_prefix.size()));
    value_ = &(status_[k] = v);
    return;
  }
  if (text.starts_with(result_prefix)) {
    auto [k, v] = split_key(text.substr(result_prefix.size()));
    value_ = &(out_.result[k] = v);
    return;
  }
  if (text.starts_with(code_prefix)) {
    close_value();
    out_.code = parse_int(text.substr(code_prefix.size()));
    if (!out_.code) out_.code = 0;
    return;
  }
  if (text.starts_with(failed_prefix)) {
    out_.failed = std::string(text.substr(failed_prefix.size()));
    value_ = &out_.failed;
    return;
  }
  if (text.starts_with(aborted_prefix)) {
    out_.aborted = std::string(text.substr(aborted_prefix.size()));
    value_ = &out_.aborted;
    return;
  }
  if (value_) {
    value_->push_back('\n');
    value_->append(text);
    return;
  }
  if (!text.empty()) {
    // Newer `am` prints "onError: commandError=true message=INSTRUMENTATION_FAILED: ..."
    auto f = text.find(failed_prefix);
    if (f != std::string_view::npos) out_.failed = std::string(text.substr(f + failed_prefix.size()));
    out_.other += std::string(text) + "\n";
  }
}

void InstrumentationParser::end_status(int code, double now_ms) {
  auto get = [&](const char* k) {
    auto it = status_.find(k);
    return it == status_.end() ? std::string() : it->second;
  };
  if (auto n = status_.find("numtests"); n != status_.end())
    if (auto v = parse_int(n->second)) out_.num_tests = *v;
  std::string cls = get("class"), method = get("test");
  if (code == int(StatusCode::start)) {
    InstrumentedTest t;
    t.class_name = cls;
    t.method = method;
    t.started_ms = now_ms;
    out_.tests.push_back(std::move(t));
    running_ = out_.tests.size() - 1;
    return;
  }
  // Find the test this status is about: the running one when it matches, else the latest
  // entry with that name (a class-level "ignored" may arrive without a start).
  InstrumentedTest* test = nullptr;
  if (running_ && out_.tests[*running_].class_name == cls && out_.tests[*running_].method == method)
    test = &out_.tests[*running_];
  if (!test && !cls.empty()) {
    for (auto it = out_.tests.rbegin(); it != out_.tests.rend(); ++it)
      if (it->class_name == cls && it->method == method && !it->ended()) { test = &*it; break; }
  }
  if (code == int(StatusCode::in_progress)) {
    // Custom keys for the running test (log_9: description, displayName, ...).
    InstrumentedTest* target = test ? test : (running_ ? &out_.tests[*running_] : nullptr);
    if (target)
      for (auto& [k, v] : status_) target->extras[k] = v;
    return;
  }
  if (cls.empty() && method.empty() && running_) test = &out_.tests[*running_];
  if (!test) {
    if (cls.empty() && method.empty()) {
      // A status about no test: "Process crashed before executing the test(s)" (log_13).
      if (!status_.empty()) out_.other += get("stream") + (status_.count("stack") ? get("stack") + "\n" : "");
      return;
    }
    InstrumentedTest t;
    t.class_name = cls;
    t.method = method;
    t.started_ms = now_ms;
    out_.tests.push_back(std::move(t));
    test = &out_.tests.back();
  }
  test->code = code;
  test->stack = get("stack");
  test->stream = get("stream");
  test->ended_ms = now_ms;
  for (auto& [k, v] : status_)
    if (k != "stack" && k != "stream" && k != "class" && k != "test" && k != "id" && k != "current" && k != "numtests")
      test->extras[k] = v;
  if (running_ && &out_.tests[*running_] == test) running_.reset();
}

InstrumentationOutput parse_instrumentation(std::string_view text) {
  InstrumentationParser p;
  p.feed(text, 0);
  return p.finish(0);
}

}  // namespace flakescan::backend::adb
