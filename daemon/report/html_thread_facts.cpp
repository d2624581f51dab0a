// Reading a `threads` finding's details into ThreadFacts (html_thread_schedules.hpp): the
// JSON values the technique writes (docs/threads.md), read leniently: a value that does not
// parse leaves its part of the picture out, never the page.
#include "report/html_thread_schedules.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace flakescan::report::html {

namespace {

using nlohmann::json;

// ---- reading the details ----------------------------------------------------------------------

std::string detail_text(const core::Evidence& e, const std::string& key) {
  auto it = e.details.find(key);
  return it == e.details.end() ? std::string() : it->second;
}

std::optional<json> detail_json(const core::Evidence& e, const std::string& key) {
  const std::string text = detail_text(e, key);
  if (text.empty()) return std::nullopt;
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || j.is_null()) return std::nullopt;
  return j;
}

std::string text_of(const json& j, const char* key) {
  if (!j.is_object()) return {};
  auto it = j.find(key);
  if (it == j.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<std::int64_t>());
  return {};
}

std::optional<std::int64_t> int_of(const json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (!it->is_string()) return std::nullopt;
  const auto& text = it->get_ref<const std::string&>();
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<ThreadStep> step_of(const json& j) {
  auto thread = int_of(j, "thread");
  if (!thread || *thread < 0 || *thread > 10'000) return std::nullopt;
  return ThreadStep{int(*thread), text_of(j, "op"), text_of(j, "target"), text_of(j, "site")};
}

std::optional<ThreadSchedule> schedule_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  ThreadSchedule s;
  s.run = int_of(j, "run");
  if (auto t = j.find("threads"); t != j.end() && t->is_array()) {
    for (const auto& th : *t) {
      auto index = int_of(th, "index");
      if (!index || *index < 0 || *index > 10'000) continue;
      if (s.thread_names.size() <= std::size_t(*index)) s.thread_names.resize(*index + 1);
      s.thread_names[*index] = text_of(th, "name");
    }
  }
  if (auto st = j.find("steps"); st != j.end() && st->is_array()) {
    const std::size_t skip = st->size() > max_drawn_steps ? st->size() - max_drawn_steps : 0;
    for (std::size_t i = skip; i < st->size(); ++i)
      if (auto step = step_of((*st)[i])) s.steps.push_back(*step);
  }
  s.steps_total = std::max<std::int64_t>(int_of(j, "steps_total").value_or(0), std::int64_t(s.steps.size()));
  return s;
}

// A lock is text ("Account@o2") or {"lock"|"target": ..., "site": ...}.
LockHeld lock_of(const json& j) {
  if (j.is_string()) return {j.get<std::string>(), ""};
  std::string lock = text_of(j, "lock");
  if (lock.empty()) lock = text_of(j, "target");
  return {lock, text_of(j, "site")};
}

// The record's deadlock: {"threads": [...]} or the array itself; each thread names its index
// ("thread" or "index"), its name, the locks it "holds" and the one it "waits_for" ("wants").
std::vector<DeadlockedThread> deadlock_of(const json& j) {
  const json* list = j.is_array() ? &j : nullptr;
  if (j.is_object())
    if (auto t = j.find("threads"); t != j.end() && t->is_array()) list = &*t;
  std::vector<DeadlockedThread> out;
  if (!list) return out;
  for (const auto& th : *list) {
    DeadlockedThread d;
    d.thread = int(int_of(th, "thread").value_or(int_of(th, "index").value_or(-1)));
    d.name = text_of(th, "name");
    if (auto h = th.find("holds"); h != th.end() && h->is_array())
      for (const auto& l : *h) d.holds.push_back(lock_of(l));
    for (const char* key : {"waits_for", "wants", "waiting_for"})
      if (auto w = th.find(key); w != th.end() && !w->is_null()) {
        d.wants = lock_of(*w);
        break;
      }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<std::string> reasons_of(const core::Evidence& e, const json& failing) {
  std::vector<std::string> out;
  auto add = [&](const json& j) {
    if (j.is_array())
      for (const auto& r : j)
        if (r.is_string()) out.push_back(r.get<std::string>());
  };
  if (auto j = detail_json(e, "inexact_reasons")) add(*j);
  else if (auto text = detail_text(e, "inexact_reasons"); !text.empty()) out.push_back(text);
  if (out.empty() && failing.is_object())
    if (auto r = failing.find("inexact_reasons"); r != failing.end()) add(*r);
  return out;
}

}  // namespace

std::optional<ThreadFacts> thread_facts(const core::Evidence& e) {
  auto failing_json = detail_json(e, "schedule_failing");
  if (!failing_json) return std::nullopt;
  auto failing = schedule_of(*failing_json);
  if (!failing) return std::nullopt;
  ThreadFacts f;
  f.failing = std::move(*failing);
  if (!f.failing.run) f.failing.run = e.failing_run;
  if (auto p = detail_json(e, "schedule_passing")) {
    f.passing = schedule_of(*p);
    if (f.passing && !f.passing->run) f.passing->run = e.passing_run;
  }
  f.strategy = detail_text(e, "strategy");
  f.seed = detail_text(e, "seed");
  f.virtual_time = detail_text(e, "virtual_time") == "true";
  f.exact = detail_text(e, "exact") != "false";
  if (!f.exact) f.inexact_reasons = reasons_of(e, *failing_json);
  f.replayed = detail_text(e, "replayed") == "true";
  if (auto run = detail_text(e, "real_time_run"); !run.empty()) {
    std::from_chars(run.data(), run.data() + run.size(), f.real_time_run);
    f.real_time_outcome = detail_text(e, "real_time_outcome");
  }
  if (auto c = detail_json(e, "conflict"); c && c->is_object()) {
    if (auto a = c->find("first"); a != c->end()) f.first = step_of(*a);
    if (auto b = c->find("second"); b != c->end()) f.second = step_of(*b);
  }
  if (auto d = detail_json(e, "deadlock")) f.deadlock = deadlock_of(*d);
  return f;
}

ConflictRows conflict_rows(const ThreadSchedule& s, const std::optional<ThreadStep>& first, const std::optional<ThreadStep>& second,
                           bool first_before_second) {
  ConflictRows out;
  std::vector<std::size_t> as, bs;
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    if (first && s.steps[i] == *first) as.push_back(i);
    if (second && s.steps[i] == *second) bs.push_back(i);
  }
  if (as.empty() || bs.empty()) {
    if (!as.empty()) out.first = as.back();
    if (!bs.empty()) out.second = bs.back();
    return out;
  }
  for (bool in_order : {true, false}) {
    std::size_t best = SIZE_MAX;
    for (auto a : as)
      for (auto b : bs) {
        if (a == b || (in_order && (a < b) != first_before_second)) continue;
        const std::size_t gap = a > b ? a - b : b - a;
        if (gap <= best) best = gap, out.first = a, out.second = b;
      }
    if (out.first) break;
  }
  return out;
}

std::string short_target(const std::string& target) {
  // Drop the package: the leading dot-separated parts that start with a lower-case letter.
  std::size_t start = 0;
  while (true) {
    auto dot = target.find('.', start);
    if (dot == std::string::npos || start >= target.size()) break;
    const char c = target[start];
    if (!(c >= 'a' && c <= 'z')) break;
    const auto at = target.find_first_of("@#", start);
    if (at != std::string::npos && at < dot) break;
    start = dot + 1;
  }
  return target.substr(start);
}

}  // namespace flakescan::report::html
