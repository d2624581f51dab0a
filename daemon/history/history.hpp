#pragma once
// The CI history resources as plain functions over the store (the api layer maps them to
// POST /v1/results, GET /v1/suspects and GET /v1/quarantine):
// - an import is one CI run's JUnit XML report under its `source`; importing a source again
//   replaces the earlier import (never counted twice);
// - suspects are tests whose history alone looks flaky (store::Store::ci_suspects);
// - the quarantine holds the tests whose latest decisive verdict across scans is flaky,
//   rendered as JSON or by the report layer's quarantine writers.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "store/store.hpp"

namespace flakescan::history {

inline constexpr int default_suspect_window = 20;
inline constexpr int max_suspect_window = 10000;

struct ImportParams {
  std::string source;  // required: the CI run id (free text, 1-256 bytes, no control characters)
  std::string commit;  // optional: up to 128 bytes, no whitespace or control characters
  std::string branch;  // optional: up to 256 bytes, no control characters
};

// invalid_argument naming the parameter when one breaks the rules above.
util::Result<bool> validate(const ImportParams& params);

// Parses the report and stores it: the body of the 201 (schema/results-import.schema.json).
// Errors: invalid_argument (parameters, not a JUnit report), too_large, storage.
util::Result<nlohmann::json> import_results(store::Store& store, std::string_view xml, const ImportParams& params);

// schema/suspects.schema.json; `window` in 1..max_suspect_window.
util::Result<nlohmann::json> suspects(store::Store& store, int window);

enum class QuarantineFormat { json, not_test_file, gradle };
// "json", "notTestFile", "gradle"; anything else is invalid_argument.
util::Result<QuarantineFormat> parse_quarantine_format(std::string_view name);

struct Rendered {
  std::string content_type;
  std::string body;
};

// json: schema/quarantine.schema.json; notTestFile: AndroidJUnitRunner `-e notTestFile` lines;
// gradle: a script of Gradle test filter excludes (report::render_quarantine_*).
util::Result<Rendered> quarantine(store::Store& store, QuarantineFormat format);

}  // namespace flakescan::history
