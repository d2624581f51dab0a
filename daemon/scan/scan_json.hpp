#pragma once
// The one JSON form of a scan's record (store::ScanRecord). The API answers GET, POST and
// DELETE on /v1/scans with it (docs/api.md), and the verdict file's "scan" object is a subset
// of it (schema/verdicts.schema.json), so the two can never disagree on a field.
#include <nlohmann/json.hpp>

#include "store/store.hpp"

namespace flakescan::scan {

// The status body: id, state, backend, techniques, seed, created_at, started_at, finished_at,
// error (null when empty), progress {tests, runs_done, runs_planned} and links.
nlohmann::json scan_status_json(const store::ScanRecord& record);

// The verdict file's "scan": the status body's id, state, backend, techniques, seed,
// created_at, finished_at and error.
nlohmann::json verdict_file_scan_json(const store::ScanRecord& record);

}  // namespace flakescan::scan
