#include "scan/scan_json.hpp"

#include <string>

namespace flakescan::scan {

using nlohmann::json;

json scan_status_json(const store::ScanRecord& r) {
  auto text_or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  std::string base = "/v1/scans/" + r.id;
  return json{{"id", r.id},
              {"state", r.state},
              {"backend", r.backend},
              {"techniques", r.techniques},
              {"seed", r.seed},
              {"created_at", r.created_at},
              {"started_at", text_or_null(r.started_at)},
              {"finished_at", text_or_null(r.finished_at)},
              {"error", text_or_null(r.error)},
              {"progress", {{"tests", r.tests_total}, {"runs_done", r.runs_done}, {"runs_planned", r.runs_planned}}},
              {"links", {{"self", base}, {"events", base + "/events"}, {"verdicts", base + "/verdicts"}}}};
}

json verdict_file_scan_json(const store::ScanRecord& record) {
  json status = scan_status_json(record);
  json scan = json::object();
  for (const char* key : {"id", "state", "backend", "techniques", "seed", "created_at", "finished_at", "error"})
    scan[key] = status[key];
  return scan;
}

}  // namespace flakescan::scan
