#include "threads/schedule_record.hpp"

#include <charconv>

#include <nlohmann/json.hpp>

namespace flakescan::threads {

namespace {

using nlohmann::json;

util::Error malformed(const std::string& what) { return util::Error{util::Errc::malformed, "threads record: " + what}; }

// A key that may be absent; present, it must have the type `ok` accepts.
template <class Ok>
util::Result<const json*> optional_key(const json& j, const char* key, Ok ok, const char* wanted) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  if (!ok(*it)) return std::unexpected(malformed(std::string("'") + key + "' must be " + wanted));
  return &*it;
}

std::string text_of(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

util::Result<std::vector<core::ScheduleDecision>> decisions_of(const json& j) {
  if (!j.is_array()) return std::unexpected(malformed("'decisions' must be an array of [thread, count] pairs"));
  if (j.size() > max_decisions) return std::unexpected(malformed("more than " + std::to_string(max_decisions) + " decisions"));
  std::vector<core::ScheduleDecision> out;
  out.reserve(j.size());
  for (const auto& d : j) {
    if (!d.is_array() || d.size() != 2 || !d[0].is_number_unsigned() || !d[1].is_number_unsigned() || d[0].get<std::uint64_t>() > 1000000)
      return std::unexpected(malformed("a decision is not a [thread, count] pair of non-negative integers: " + d.dump().substr(0, 80)));
    out.push_back({.thread = d[0].get<int>(), .count = d[1].get<long>()});
  }
  return out;
}

util::Result<std::vector<core::ScheduledThread>> threads_of(const json& j) {
  if (!j.is_array()) return std::unexpected(malformed("'threads' must be an array"));
  std::vector<core::ScheduledThread> out;
  for (const auto& t : j) {
    if (!t.is_object() || !t.contains("index") || !t["index"].is_number_unsigned())
      return std::unexpected(malformed("a thread has no non-negative 'index'"));
    out.push_back({.index = t["index"].get<int>(), .name = text_of(t, "name"), .started_at = text_of(t, "started_at")});
  }
  return out;
}

util::Result<std::vector<core::ScheduleStep>> steps_of(const json& j) {
  if (!j.is_array()) return std::unexpected(malformed("'steps' must be an array"));
  if (j.size() > max_listed_steps) return std::unexpected(malformed("more than " + std::to_string(max_listed_steps) + " steps listed"));
  std::vector<core::ScheduleStep> out;
  out.reserve(j.size());
  for (const auto& s : j) {
    if (!s.is_object() || !s.contains("thread") || !s["thread"].is_number_unsigned() || !s.contains("op") || !s["op"].is_string())
      return std::unexpected(malformed("a step has no 'thread' or 'op'"));
    out.push_back({.thread = s["thread"].get<int>(), .op = s["op"].get<std::string>(), .target = text_of(s, "target"),
                   .site = text_of(s, "site")});
  }
  return out;
}

json decisions_json(const std::vector<core::ScheduleDecision>& decisions) {
  json out = json::array();
  for (const auto& d : decisions) out.push_back({d.thread, d.count});
  return out;
}

json threads_json(const std::vector<core::ScheduledThread>& threads) {
  json out = json::array();
  for (const auto& t : threads) {
    json e{{"index", t.index}, {"name", t.name}};
    if (!t.started_at.empty()) e["started_at"] = t.started_at;
    out.push_back(std::move(e));
  }
  return out;
}

json step_json(const core::ScheduleStep& s) {
  return {{"thread", s.thread}, {"op", s.op}, {"target", s.target}, {"site", s.site}};
}

// The parts of a record every form shares: threads, steps, decisions, counts, flags.
util::Result<void> read_record_body(const json& j, core::ThreadSchedule& r) {
  auto threads = threads_of(j.contains("threads") ? j["threads"] : json());
  if (!threads) return std::unexpected(threads.error());
  r.threads = std::move(*threads);
  auto decisions = decisions_of(j.contains("decisions") ? j["decisions"] : json());
  if (!decisions) return std::unexpected(decisions.error());
  r.decisions = std::move(*decisions);
  auto steps = steps_of(j.contains("steps") ? j["steps"] : json::array());
  if (!steps) return std::unexpected(steps.error());
  r.steps = std::move(*steps);
  auto is_count = [](const json& v) { return v.is_number_unsigned(); };
  for (auto [key, slot] : {std::pair{"steps_total", &r.steps_total}, {"steps_together", &r.steps_together},
                           {"steps_omitted", &r.steps_omitted}, {"virtual_ms", &r.virtual_ms}}) {
    auto v = optional_key(j, key, is_count, "a non-negative integer");
    if (!v) return std::unexpected(v.error());
    if (*v) *slot = (*v)->get<long>();
  }
  if (r.steps_total == 0) r.steps_total = long(r.steps.size()) + r.steps_omitted;
  return {};
}

util::Result<void> read_record_flags(const json& j, core::ThreadSchedule& r) {
  auto is_bool = [](const json& v) { return v.is_boolean(); };
  auto exact = optional_key(j, "exact", is_bool, "true or false");
  if (!exact) return std::unexpected(exact.error());
  if (!*exact) return std::unexpected(malformed("'exact' is required"));
  r.exact = (*exact)->get<bool>();
  auto virtual_time = optional_key(j, "virtual_time", is_bool, "true or false");
  if (!virtual_time) return std::unexpected(virtual_time.error());
  if (*virtual_time) r.virtual_time = (*virtual_time)->get<bool>();
  r.strategy = text_of(j, "strategy");
  r.seed = j.contains("seed") && j["seed"].is_number_unsigned() ? std::to_string(j["seed"].get<std::uint64_t>()) : text_of(j, "seed");
  if (auto d = j.find("depth"); d != j.end() && d->is_number_integer()) r.depth = d->get<int>();
  if (auto reasons = j.find("inexact_reasons"); reasons != j.end() && reasons->is_array())
    for (const auto& why : *reasons)
      if (why.is_string()) r.inexact_reasons.push_back(why.get<std::string>());
  if (auto d = j.find("deadlock"); d != j.end() && !d->is_null()) r.deadlock = d->dump();
  if (auto o = j.find("outlived"); o != j.end() && o->is_array() && !o->empty()) r.outlived = o->dump();
  if (auto replay = j.find("replay"); replay != j.end() && replay->is_object()) {
    if (auto f = replay->find("followed"); f != replay->end() && f->is_number_unsigned()) r.replay_followed = f->get<long>();
    if (auto at = replay->find("diverged_at"); at != replay->end() && at->is_number_unsigned()) r.replay_diverged_at = at->get<long>();
  }
  r.record_error = text_of(j, "record_error");
  return {};
}

// One lock of a deadlock object: a string, or an object naming it ("target" or "lock") and its site.
std::string lock_text(const json& lock) {
  if (lock.is_string()) return lock.get<std::string>();
  if (!lock.is_object()) return lock.dump();
  std::string name = text_of(lock, "target");
  if (name.empty()) name = text_of(lock, "lock");
  std::string site = text_of(lock, "site");
  return name + (site.empty() ? "" : " (" + site + ")");
}

}  // namespace

util::Result<core::ThreadSchedule> parse_schedule_record(std::string_view text) {
  if (text.size() > max_record_bytes) return std::unexpected(malformed("larger than " + std::to_string(max_record_bytes) + " bytes"));
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::unexpected(malformed("not a JSON object"));
  core::ThreadSchedule r;
  if (auto ok = read_record_flags(j, r); !ok) return std::unexpected(ok.error());
  if (auto ok = read_record_body(j, r); !ok) return std::unexpected(ok.error());
  return r;
}

core::ThreadSchedule schedule_record_or_error(std::string_view text) {
  auto parsed = parse_schedule_record(text);
  if (parsed) return std::move(*parsed);
  core::ThreadSchedule broken;
  broken.exact = false;
  broken.record_error = parsed.error().message;
  return broken;
}

std::string schedule_record_text(const core::ThreadSchedule& r) {
  json steps = json::array();
  for (const auto& s : r.steps) steps.push_back(step_json(s));
  json j{{"strategy", r.strategy}, {"seed", r.seed}, {"depth", r.depth}, {"virtual_time", r.virtual_time},
         {"exact", r.exact}, {"inexact_reasons", r.inexact_reasons}, {"threads", threads_json(r.threads)},
         {"steps_total", r.steps_total}, {"steps_together", r.steps_together}, {"steps", std::move(steps)},
         {"decisions", decisions_json(r.decisions)}, {"deadlock", r.deadlock.empty() ? json(nullptr) : json::parse(r.deadlock, nullptr, false)},
         {"outlived", r.outlived.empty() ? json::array() : json::parse(r.outlived, nullptr, false)},
         {"virtual_ms", r.virtual_ms}, {"replay", nullptr}};
  if (r.steps_omitted > 0) j["steps_omitted"] = r.steps_omitted;
  if (r.replay_followed || r.replay_diverged_at)
    j["replay"] = {{"followed", r.replay_followed.value_or(0)},
                   {"diverged_at", r.replay_diverged_at ? json(*r.replay_diverged_at) : json(nullptr)}};
  if (!r.record_error.empty()) j["record_error"] = r.record_error;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string decisions_text(const std::vector<core::ScheduleDecision>& decisions) { return decisions_json(decisions).dump(); }

util::Result<std::vector<core::ScheduleDecision>> parse_decisions(std::string_view text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return std::unexpected(malformed("decisions are not JSON"));
  return decisions_of(j);
}

std::string schedule_spec_text(const std::optional<core::ScheduleSpec>& spec) {
  if (!spec) return {};
  // The seed as text: JSON numbers lose 64-bit integers in many readers.
  json j{{"strategy", spec->strategy}, {"seed", std::to_string(spec->seed)}, {"depth", spec->depth},
         {"steps", spec->steps}, {"virtual_time", spec->virtual_time}};
  if (spec->max_steps != core::ScheduleSpec{}.max_steps) j["max_steps"] = spec->max_steps;
  if (!spec->include.empty()) j["include"] = spec->include;
  if (!spec->replay_decisions.empty()) j["replay"] = decisions_json(spec->replay_decisions);
  return j.dump();
}

std::optional<core::ScheduleSpec> parse_schedule_spec(std::string_view text) {
  if (text.empty()) return std::nullopt;
  json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("strategy") || !j["strategy"].is_string()) return std::nullopt;
  core::ScheduleSpec spec;
  spec.strategy = j["strategy"].get<std::string>();
  std::string seed = text_of(j, "seed");
  if (std::from_chars(seed.data(), seed.data() + seed.size(), spec.seed).ec != std::errc{}) return std::nullopt;
  if (auto d = j.find("depth"); d != j.end() && d->is_number_integer()) spec.depth = d->get<int>();
  if (auto s = j.find("steps"); s != j.end() && s->is_number_integer()) spec.steps = s->get<int>();
  if (auto v = j.find("virtual_time"); v != j.end() && v->is_boolean()) spec.virtual_time = v->get<bool>();
  if (auto m = j.find("max_steps"); m != j.end() && m->is_number_integer()) spec.max_steps = m->get<int>();
  if (auto in = j.find("include"); in != j.end() && in->is_array())
    for (const auto& prefix : *in)
      if (prefix.is_string()) spec.include.push_back(prefix.get<std::string>());
  if (auto r = j.find("replay"); r != j.end()) {
    auto decisions = decisions_of(*r);
    if (!decisions) return std::nullopt;
    spec.replay_decisions = std::move(*decisions);
  }
  return spec;
}

std::string schedule_details_text(std::int64_t run, const core::ThreadSchedule& record, std::size_t last_steps) {
  json steps = json::array();
  std::size_t from = record.steps.size() > last_steps ? record.steps.size() - last_steps : 0;
  for (std::size_t i = from; i < record.steps.size(); ++i) steps.push_back(step_json(record.steps[i]));
  json j{{"run", run}, {"threads", threads_json(record.threads)}, {"steps", std::move(steps)},
         {"steps_total", record.steps_total}, {"decisions", decisions_json(record.decisions)}};
  // Why the schedule was not fully under control: the report's "not exact" names these.
  if (!record.inexact_reasons.empty()) j["inexact_reasons"] = record.inexact_reasons;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

util::Result<ScheduleDetails> parse_schedule_details(std::string_view text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::unexpected(malformed("the verdict's schedule is not a JSON object"));
  ScheduleDetails out;
  if (auto run = j.find("run"); run != j.end() && run->is_number_integer()) out.run = run->get<std::int64_t>();
  if (auto ok = read_record_body(j, out.schedule); !ok) return std::unexpected(ok.error());
  return out;
}

std::string step_text(const core::ScheduleStep& step) { return step_json(step).dump(-1, ' ', false, json::error_handler_t::replace); }

std::string conflict_text(const core::ScheduleStep& first, const core::ScheduleStep& second) {
  return json{{"first", step_json(first)}, {"second", step_json(second)}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string describe_deadlock(std::string_view deadlock_json) {
  json j = json::parse(deadlock_json, nullptr, false);
  const json* list = j.is_array() ? &j : (j.is_object() && j.contains("threads") && j["threads"].is_array()) ? &j["threads"] : nullptr;
  if (!list) return std::string(deadlock_json.substr(0, 400));
  std::string out;
  for (const auto& t : *list) {
    if (!t.is_object()) continue;
    std::string who = "thread " + (t.contains("thread") ? t["thread"].dump() : t.contains("index") ? t["index"].dump() : "?");
    if (auto name = text_of(t, "name"); !name.empty()) who += " (" + name + ")";
    std::string holds;
    if (auto h = t.find("holds"); h != t.end() && h->is_array())
      for (const auto& lock : *h) holds += (holds.empty() ? "" : ", ") + lock_text(lock);
    std::string waits = t.contains("waits_for") ? lock_text(t["waits_for"]) : "";
    std::string site = text_of(t, "site");
    out += (out.empty() ? "" : "; ") + who + (holds.empty() ? "" : " holds " + holds) +
           (waits.empty() ? "" : std::string(holds.empty() ? "" : " and") + " waits for " + waits) + (site.empty() ? "" : " at " + site);
  }
  return out.empty() ? std::string(deadlock_json.substr(0, 400)) : out;
}

std::vector<DeadlockedThread> deadlocked_threads(std::string_view deadlock_json) {
  json j = json::parse(deadlock_json, nullptr, false);
  std::vector<DeadlockedThread> out;
  if (!j.is_object() || !j.contains("threads") || !j["threads"].is_array()) return out;
  for (const auto& t : j["threads"]) {
    if (!t.is_object() || !t.contains("thread") || !t["thread"].is_number_integer() || !t.contains("waits_for") ||
        !t["waits_for"].is_object())
      continue;
    DeadlockedThread d;
    d.thread = t["thread"].get<int>();
    const auto& w = t["waits_for"];
    d.waits_for = {d.thread, text_of(w, "op"), text_of(w, "target"), text_of(w, "site")};
    if (auto h = t.find("holds"); h != t.end() && h->is_array())
      for (const auto& lock : *h)
        if (lock.is_object()) d.holds.push_back({d.thread, "", text_of(lock, "target"), text_of(lock, "site")});
    out.push_back(std::move(d));
  }
  return out;
}

std::string deadlock_noticed_when(std::string_view deadlock_json) {
  json j = json::parse(deadlock_json, nullptr, false);
  return j.is_object() ? text_of(j, "noticed_when") : std::string();
}

}  // namespace flakescan::threads
