#include "report/verdict_file.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/findings_json.hpp"

namespace flakescan::report {

using nlohmann::json;
using util::Errc;

namespace {

// Field readers that never throw: a wrong type is a malformed file, a missing optional
// field takes its default.
util::Result<std::string> str_field(const json& o, const char* key, bool required, const std::string& where) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) {
    if (required) return util::fail(Errc::malformed, where + ": missing \"" + key + "\"");
    return std::string{};
  }
  if (!it->is_string()) return util::fail(Errc::malformed, where + ": \"" + key + "\" is not a string");
  return it->get<std::string>();
}

util::Result<std::optional<std::int64_t>> int_field(const json& o, const char* key, const std::string& where) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::optional<std::int64_t>{};
  if (!it->is_number_integer()) return util::fail(Errc::malformed, where + ": \"" + key + "\" is not an integer");
  return std::optional<std::int64_t>{it->get<std::int64_t>()};
}

#define TRY_ASSIGN(target, expr)            \
  do {                                      \
    auto r_ = (expr);                       \
    if (!r_) return std::unexpected(r_.error()); \
    target = std::move(*r_);                \
  } while (0)

util::Result<std::optional<RunDetail>> parse_run(const json& o, const char* key, const std::string& where) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::optional<RunDetail>{};
  // Older writers gave only the run id.
  if (it->is_number_integer()) {
    RunDetail r;
    r.id = it->get<std::int64_t>();
    return std::optional<RunDetail>{r};
  }
  if (!it->is_object()) return util::fail(Errc::malformed, where + ": \"" + key + "\" is not a run object");
  const json& j = *it;
  std::string w = where + "." + key;
  RunDetail r;
  std::optional<std::int64_t> id;
  TRY_ASSIGN(id, int_field(j, "id", w));
  if (!id) return util::fail(Errc::malformed, w + ": missing \"id\"");
  r.id = *id;
  TRY_ASSIGN(r.outcome, str_field(j, "outcome", true, w));
  TRY_ASSIGN(r.order, string_list(j, "order", w));
  TRY_ASSIGN(r.seed, int_field(j, "seed", w));
  if (auto d = j.find("duration_ms"); d != j.end() && d->is_number()) r.duration_ms = d->get<double>();
  TRY_ASSIGN(r.message, str_field(j, "message", false, w));
  TRY_ASSIGN(r.exception, str_field(j, "exception", false, w));
  TRY_ASSIGN(r.signature, str_field(j, "signature", false, w));
  TRY_ASSIGN(r.stack, str_field(j, "stack", false, w));
  return std::optional<RunDetail>{std::move(r)};
}

util::Result<std::vector<StripRun>> parse_strip(const json& evidence, const std::string& where) {
  std::vector<StripRun> out;
  auto it = evidence.find("run_strip");
  if (it == evidence.end() || it->is_null()) return out;
  if (!it->is_array()) return util::fail(Errc::malformed, where + ": \"run_strip\" is not an array");
  for (const auto& r : *it) {
    if (!r.is_object()) return util::fail(Errc::malformed, where + ".run_strip: an entry is not an object");
    StripRun s;
    std::optional<std::int64_t> id;
    TRY_ASSIGN(id, int_field(r, "run", where + ".run_strip"));
    if (!id) return util::fail(Errc::malformed, where + ".run_strip: an entry has no \"run\"");
    s.run = *id;
    TRY_ASSIGN(s.outcome, str_field(r, "outcome", true, where + ".run_strip"));
    TRY_ASSIGN(s.technique, str_field(r, "technique", false, where + ".run_strip"));
    out.push_back(std::move(s));
  }
  return out;
}

util::Result<core::VerdictKind> parse_kind(const std::string& s, const std::string& where) {
  if (s == "flaky") return core::VerdictKind::flaky;
  if (s == "not_flaky") return core::VerdictKind::not_flaky;
  if (s == "failing") return core::VerdictKind::failing;
  if (s == "skipped") return core::VerdictKind::skipped;
  if (s == "could_not_run") return core::VerdictKind::could_not_run;
  return util::fail(Errc::malformed, where + ": unknown verdict \"" + s + "\"");
}

util::Result<core::Category> parse_category(const json& o, const std::string& where) {
  auto it = o.find("category");
  if (it == o.end() || it->is_null()) return core::Category::none;
  if (!it->is_string()) return util::fail(Errc::malformed, where + ": \"category\" is not a string");
  const auto s = it->get<std::string>();
  if (auto c = core::parse_category(s)) return *c;
  return util::fail(Errc::malformed, where + ": unknown category \"" + s + "\"");
}

util::Result<int> count_field(const json& o, const char* key, const std::string& where) {
  std::optional<std::int64_t> v;
  TRY_ASSIGN(v, int_field(o, key, where));
  if (v && (*v < 0 || *v > 1'000'000'000)) return util::fail(Errc::malformed, where + ": \"" + key + "\" out of range");
  return v ? static_cast<int>(*v) : 0;
}

util::Result<Entry> parse_entry(const json& j, std::size_t index) {
  std::string where = "verdicts[" + std::to_string(index) + "]";
  if (!j.is_object()) return util::fail(Errc::malformed, where + ": not an object");
  Entry e;
  core::Verdict& v = e.verdict;
  TRY_ASSIGN(v.test, str_field(j, "test", true, where));
  auto hash = v.test.find('#');
  if (hash == std::string::npos || hash == 0 || hash + 1 == v.test.size())
    return util::fail(Errc::malformed, where + ": test \"" + v.test + "\" is not pkg.Class#method");
  where += " (" + v.test + ")";
  TRY_ASSIGN(e.class_name, str_field(j, "class", false, where));
  TRY_ASSIGN(e.method, str_field(j, "method", false, where));
  if (e.class_name.empty()) e.class_name = v.test.substr(0, hash);
  if (e.method.empty()) e.method = v.test.substr(hash + 1);
  std::string kind;
  TRY_ASSIGN(kind, str_field(j, "verdict", true, where));
  TRY_ASSIGN(v.verdict, parse_kind(kind, where));
  TRY_ASSIGN(v.category, parse_category(j, where));
  TRY_ASSIGN(v.technique, str_field(j, "technique", false, where));
  if (auto f = j.find("findings"); f != j.end()) TRY_ASSIGN(v.findings, parse_findings(*f, where));

  auto runs = j.find("runs");
  if (runs == j.end() || !runs->is_object()) return util::fail(Errc::malformed, where + ": missing \"runs\"");
  TRY_ASSIGN(v.runs.total, count_field(*runs, "total", where + ".runs"));
  TRY_ASSIGN(v.runs.passed, count_field(*runs, "passed", where + ".runs"));
  TRY_ASSIGN(v.runs.failed, count_field(*runs, "failed", where + ".runs"));
  TRY_ASSIGN(v.runs.skipped, count_field(*runs, "skipped", where + ".runs"));
  TRY_ASSIGN(v.runs.infra, count_field(*runs, "infra", where + ".runs"));

  auto ev = j.find("evidence");
  if (ev == j.end() || ev->is_null()) return e;
  if (!ev->is_object()) return util::fail(Errc::malformed, where + ": \"evidence\" is not an object");
  std::string w = where + ".evidence";
  core::Evidence& x = v.evidence;
  TRY_ASSIGN(x.reason, str_field(*ev, "reason", false, w));
  TRY_ASSIGN(e.passing_run, parse_run(*ev, "passing_run", w));
  TRY_ASSIGN(e.failing_run, parse_run(*ev, "failing_run", w));
  if (e.passing_run) x.passing_run = e.passing_run->id;
  if (e.failing_run) x.failing_run = e.failing_run->id;
  TRY_ASSIGN(x.role, str_field(*ev, "role", false, w));
  TRY_ASSIGN(x.reproducer, string_list(*ev, "reproducer", w));
  TRY_ASSIGN(x.passing_order, string_list(*ev, "passing_order", w));
  TRY_ASSIGN(x.related, string_list(*ev, "related", w));
  TRY_ASSIGN(e.run_strip, parse_strip(*ev, w));
  if (auto f = ev->find("failures"); f != ev->end() && !f->is_null()) {
    if (!f->is_array()) return util::fail(Errc::malformed, w + ": \"failures\" is not an array");
    for (const auto& g : *f) {
      if (!g.is_object()) return util::fail(Errc::malformed, w + ": a failure group is not an object");
      core::FailureGroup fg;
      TRY_ASSIGN(fg.signature, str_field(g, "signature", true, w + ".failures"));
      TRY_ASSIGN(fg.exception_type, str_field(g, "exception", false, w + ".failures"));
      TRY_ASSIGN(fg.message, str_field(g, "message", false, w + ".failures"));
      TRY_ASSIGN(fg.count, count_field(g, "count", w + ".failures"));
      std::optional<std::int64_t> ex;
      TRY_ASSIGN(ex, int_field(g, "example_run", w + ".failures"));
      fg.example_run = ex.value_or(0);
      x.failures.push_back(std::move(fg));
    }
  }
  if (auto d = ev->find("details"); d != ev->end() && d->is_object()) {
    for (const auto& [k, val] : d->items())
      if (val.is_string()) x.details[k] = val.get<std::string>();
  }
  return e;
}

json run_json(const RunDetail& r) {
  json j = {{"id", r.id}, {"outcome", r.outcome}};
  if (!r.order.empty()) j["order"] = r.order;
  if (r.seed) j["seed"] = *r.seed;
  if (r.duration_ms > 0) j["duration_ms"] = r.duration_ms;
  if (!r.message.empty()) j["message"] = r.message;
  if (!r.exception.empty()) j["exception"] = r.exception;
  if (!r.signature.empty()) j["signature"] = r.signature;
  if (!r.stack.empty()) j["stack"] = r.stack;
  return j;
}

}  // namespace

util::Result<VerdictFile> parse_verdict_file(std::string_view text) {
  if (text.size() > max_verdict_file_bytes) return util::fail(Errc::too_large, "verdict file over 64 MiB");
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) return util::fail(Errc::malformed, "verdict file is not valid JSON");
  if (!doc.is_object()) return util::fail(Errc::malformed, "verdict file is not a JSON object");
  auto version = doc.find("schema_version");
  if (version == doc.end() || !version->is_number_integer())
    return util::fail(Errc::malformed, "verdict file has no schema_version");
  if (version->get<std::int64_t>() != 1)
    return util::fail(Errc::unsupported, "verdict file schema_version " + version->dump() + " (this build reads 1)");

  VerdictFile out;
  auto scan = doc.find("scan");
  if (scan == doc.end() || !scan->is_object()) return util::fail(Errc::malformed, "verdict file has no \"scan\" object");
  TRY_ASSIGN(out.scan.id, str_field(*scan, "id", true, "scan"));
  TRY_ASSIGN(out.scan.state, str_field(*scan, "state", true, "scan"));
  TRY_ASSIGN(out.scan.backend, str_field(*scan, "backend", false, "scan"));
  TRY_ASSIGN(out.scan.techniques, string_list(*scan, "techniques", "scan"));
  TRY_ASSIGN(out.scan.seed, int_field(*scan, "seed", "scan"));
  TRY_ASSIGN(out.scan.created_at, str_field(*scan, "created_at", false, "scan"));
  TRY_ASSIGN(out.scan.finished_at, str_field(*scan, "finished_at", false, "scan"));
  TRY_ASSIGN(out.scan.error, str_field(*scan, "error", false, "scan"));

  auto verdicts = doc.find("verdicts");
  if (verdicts == doc.end() || !verdicts->is_array())
    return util::fail(Errc::malformed, "verdict file has no \"verdicts\" array");
  for (std::size_t i = 0; i < verdicts->size(); ++i) {
    auto e = parse_entry((*verdicts)[i], i);
    if (!e) return std::unexpected(e.error());
    // A file written before verdicts were made honest (or by hand) may say not_flaky over
    // observed failures; the reports never repeat that.
    e->verdict = core::honest_verdict(std::move(e->verdict));
    out.entries.push_back(std::move(*e));
  }
  return out;
}

util::Result<VerdictFile> load_verdict_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return util::fail(Errc::not_found, "cannot open verdict file " + path);
  std::ostringstream buf;
  buf << in.rdbuf();
  auto text = buf.str();
  auto parsed = parse_verdict_file(text);
  if (!parsed) return util::fail(parsed.error().code, path + ": " + parsed.error().message);
  return parsed;
}

VerdictFile merge_verdict_files(const std::vector<VerdictFile>& files) {
  VerdictFile out;
  if (files.empty()) return out;
  out.scan = files.front().scan;
  std::set<std::string> techniques(out.scan.techniques.begin(), out.scan.techniques.end());
  std::map<std::string, std::size_t> index;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const auto& file = files[f];
    if (f > 0) {
      for (const auto& t : file.scan.techniques)
        if (techniques.insert(t).second) out.scan.techniques.push_back(t);
      if (out.scan.error.empty()) out.scan.error = file.scan.error;
      if (file.scan.state != "completed" && out.scan.state == "completed") out.scan.state = file.scan.state;
    }
    for (const auto& e : file.entries) {
      auto [it, fresh] = index.emplace(e.verdict.test, out.entries.size());
      if (fresh) {
        out.entries.push_back(e);
        continue;
      }
      Entry& have = out.entries[it->second];
      core::Verdict merged = core::merge_verdicts(have.verdict, e.verdict);
      // Keep the run details of whichever side the merged evidence came from.
      if (merged.evidence.failing_run != have.verdict.evidence.failing_run) have.failing_run = e.failing_run;
      if (merged.evidence.passing_run != have.verdict.evidence.passing_run) have.passing_run = e.passing_run;
      have.run_strip.insert(have.run_strip.end(), e.run_strip.begin(), e.run_strip.end());
      have.verdict = core::honest_verdict(std::move(merged));
    }
  }
  return out;
}

std::string serialize_verdict_file(const VerdictFile& file) {
  json scan = {{"id", file.scan.id}, {"state", file.scan.state}, {"techniques", file.scan.techniques}};
  if (!file.scan.backend.empty()) scan["backend"] = file.scan.backend;
  if (file.scan.seed) scan["seed"] = *file.scan.seed;
  if (!file.scan.created_at.empty()) scan["created_at"] = file.scan.created_at;
  scan["finished_at"] = file.scan.finished_at.empty() ? json(nullptr) : json(file.scan.finished_at);
  scan["error"] = file.scan.error.empty() ? json(nullptr) : json(file.scan.error);
  json verdicts = json::array();
  for (const auto& e : file.entries) {
    const auto& v = e.verdict;
    json ev = json::object();
    const auto& x = v.evidence;
    if (!x.reason.empty()) ev["reason"] = x.reason;
    if (e.passing_run) ev["passing_run"] = run_json(*e.passing_run);
    if (e.failing_run) ev["failing_run"] = run_json(*e.failing_run);
    if (!x.failures.empty()) {
      json groups = json::array();
      for (const auto& g : x.failures) {
        json gj = {{"signature", g.signature}, {"count", g.count}};
        if (!g.exception_type.empty()) gj["exception"] = g.exception_type;
        if (!g.message.empty()) gj["message"] = g.message;
        if (g.example_run) gj["example_run"] = g.example_run;
        groups.push_back(std::move(gj));
      }
      ev["failures"] = std::move(groups);
    }
    if (!x.role.empty()) ev["role"] = x.role;
    if (!x.reproducer.empty()) ev["reproducer"] = x.reproducer;
    if (!x.passing_order.empty()) ev["passing_order"] = x.passing_order;
    if (!x.related.empty()) ev["related"] = x.related;
    if (!x.details.empty()) ev["details"] = x.details;
    if (!e.run_strip.empty()) {
      json strip = json::array();
      for (const auto& s : e.run_strip) {
        json sj = {{"run", s.run}, {"outcome", s.outcome}};
        if (!s.technique.empty()) sj["technique"] = s.technique;
        strip.push_back(std::move(sj));
      }
      ev["run_strip"] = std::move(strip);
    }
    json runs = {{"total", v.runs.total}, {"passed", v.runs.passed}, {"failed", v.runs.failed},
                 {"skipped", v.runs.skipped}, {"infra", v.runs.infra}};
    json j = {{"test", v.test}, {"class", e.class_name}, {"method", e.method},
              {"verdict", std::string(core::verdict_name(v.verdict))},
              {"category", v.category == core::Category::none ? json(nullptr) : json(std::string(core::category_name(v.category)))},
              {"runs", std::move(runs)}, {"evidence", std::move(ev)}};
    if (!v.technique.empty()) j["technique"] = v.technique;
    j["categories"] = categories_json(v);
    j["findings"] = findings_json(v);
    verdicts.push_back(std::move(j));
  }
  json doc = {{"schema_version", 1}, {"scan", std::move(scan)}, {"verdicts", std::move(verdicts)}};
  return doc.dump(2) + "\n";
}

}  // namespace flakescan::report
