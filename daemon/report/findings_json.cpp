#include "report/findings_json.hpp"

namespace flakescan::report {

using nlohmann::json;
using util::Errc;

namespace {

json category_value(core::Category c) {
  return c == core::Category::none ? json(nullptr) : json(std::string(core::category_name(c)));
}

}  // namespace

util::Result<std::vector<std::string>> string_list(const json& o, const char* key, const std::string& where) {
  std::vector<std::string> out;
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return out;
  if (!it->is_array()) return util::fail(Errc::malformed, where + ": \"" + key + "\" is not an array");
  for (const auto& s : *it) {
    if (!s.is_string()) return util::fail(Errc::malformed, where + ": \"" + key + "\" holds a non-string");
    out.push_back(s.get<std::string>());
  }
  return out;
}

json categories_json(const core::Verdict& v) {
  json out = json::array();
  for (auto c : core::categories_of(v)) out.push_back(std::string(core::category_name(c)));
  return out;
}

json findings_json(const core::Verdict& v) {
  json out = json::array();
  for (const auto& f : core::findings_of(v)) {
    const auto& x = f.evidence;
    json j = {{"technique", f.technique}, {"verdict", std::string(core::verdict_name(f.verdict))},
              {"category", category_value(f.category)}, {"reason", x.reason}};
    if (!x.role.empty()) j["role"] = x.role;
    if (!x.reproducer.empty()) j["reproducer"] = x.reproducer;
    if (!x.passing_order.empty()) j["passing_order"] = x.passing_order;
    if (!x.related.empty()) j["related"] = x.related;
    if (!x.details.empty()) j["details"] = x.details;
    if (x.passing_run) j["passing_run"] = *x.passing_run;
    if (x.failing_run) j["failing_run"] = *x.failing_run;
    if (!f.not_deciding.empty()) j["not_deciding"] = f.not_deciding;
    out.push_back(std::move(j));
  }
  return out;
}

util::Result<std::vector<core::Finding>> parse_findings(const json& array, const std::string& where) {
  std::vector<core::Finding> out;
  if (array.is_null()) return out;
  if (!array.is_array()) return util::fail(Errc::malformed, where + ": \"findings\" is not an array");
  for (std::size_t i = 0; i < array.size(); ++i) {
    const auto& j = array[i];
    std::string w = where + ".findings[" + std::to_string(i) + "]";
    if (!j.is_object()) return util::fail(Errc::malformed, w + ": not an object");
    core::Finding f;
    f.technique = j.value("technique", "");
    const std::string kind = j.value("verdict", "");
    bool known = false;
    for (auto k : {core::VerdictKind::flaky, core::VerdictKind::not_flaky, core::VerdictKind::failing, core::VerdictKind::skipped,
                   core::VerdictKind::could_not_run})
      if (core::verdict_name(k) == kind) f.verdict = k, known = true;
    if (!known) return util::fail(Errc::malformed, w + ": unknown verdict \"" + kind + "\"");
    if (auto c = j.find("category"); c != j.end() && c->is_string()) {
      auto category = core::parse_category(c->get<std::string>());
      if (category) f.category = *category;
      if (!category) return util::fail(Errc::malformed, w + ": unknown category \"" + c->get<std::string>() + "\"");
    }
    auto& x = f.evidence;
    x.reason = j.value("reason", "");
    x.role = j.value("role", "");
    auto reproducer = string_list(j, "reproducer", w);
    auto passing = string_list(j, "passing_order", w);
    auto related = string_list(j, "related", w);
    for (auto* r : {&reproducer, &passing, &related})
      if (!*r) return std::unexpected(r->error());
    x.reproducer = *reproducer, x.passing_order = *passing, x.related = *related;
    if (auto d = j.find("details"); d != j.end() && d->is_object())
      for (const auto& [k, val] : d->items())
        if (val.is_string()) x.details[k] = val.get<std::string>();
    if (auto r = j.find("passing_run"); r != j.end() && r->is_number_integer()) x.passing_run = r->get<std::int64_t>();
    if (auto r = j.find("failing_run"); r != j.end() && r->is_number_integer()) x.failing_run = r->get<std::int64_t>();
    f.not_deciding = j.value("not_deciding", "");
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace flakescan::report
