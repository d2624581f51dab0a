#pragma once
// Every technique's finding about a test, and the categories they give, as the verdict file
// writes them (schema/verdicts.schema.json: `categories`, `findings`). One codec for the
// daemon's verdict JSON and the report layer's verdict file.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/verdict.hpp"
#include "util/error.hpp"

namespace flakescan::report {

// ["order_dependent", "nio"]: the primary category first; [] when the test is not flaky.
nlohmann::json categories_json(const core::Verdict& v);
// One object per finding: technique, verdict, category, reason, order evidence, details,
// run ids, and `not_deciding` when its category was not given.
nlohmann::json findings_json(const core::Verdict& v);
util::Result<std::vector<core::Finding>> parse_findings(const nlohmann::json& array, const std::string& where);
// A field that holds a list of strings ("order", "tests", ...): missing or null is empty;
// anything but an array of strings is malformed (`where` says which object).
util::Result<std::vector<std::string>> string_list(const nlohmann::json& o, const char* key, const std::string& where);

}  // namespace flakescan::report
