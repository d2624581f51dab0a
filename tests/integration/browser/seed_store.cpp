// Test support for the browser tests: puts a verdict file into a flakescand store as one
// finished scan, through the store's own API (store::Store), so that the dashboard serves a
// scan with every verdict and category of a fixture file.
// usage: seed_store DB VERDICTS_JSON   (prints the scan id)
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "store/store.hpp"

using namespace flakescan;
using nlohmann::json;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: seed_store DB VERDICTS_JSON\n");
    return 2;
  }
  std::ifstream in(argv[2]);
  json file = json::parse(in, nullptr, false);
  if (file.is_discarded() || !file.contains("scan") || !file.contains("verdicts")) {
    std::fprintf(stderr, "seed_store: %s is not a verdict file\n", argv[2]);
    return 1;
  }
  auto store = store::Store::open(argv[1]);
  if (!store) {
    std::fprintf(stderr, "seed_store: %s\n", store.error().message.c_str());
    return 1;
  }
  const json& scan = file["scan"];
  store::ScanRecord record;
  record.id = scan.at("id").get<std::string>();
  record.state = "running";
  record.request = json{{"tests", json::array()}, {"classpath", ""}}.dump();
  record.backend = scan.value("backend", "local");
  record.techniques = scan.value("techniques", std::vector<std::string>{});
  record.seed = scan.value("seed", std::int64_t{0});
  record.created_at = scan.value("created_at", "");
  std::vector<store::VerdictRow> rows;
  int runs = 0;
  for (const auto& v : file["verdicts"]) {
    rows.push_back({v.at("test").get<std::string>(), v.at("verdict").get<std::string>(),
                    v.value("category", json()).is_string() ? v["category"].get<std::string>() : "", v.dump()});
    runs += v["runs"].value("total", 0);
  }
  auto ok = (*store)->create_scan(record);
  if (ok) ok = (*store)->save_verdicts(record.id, rows);
  if (ok) ok = (*store)->set_scan_progress(record.id, int(rows.size()), runs);
  if (ok) ok = (*store)->set_scan_state(record.id, scan.value("state", "completed"));
  if (!ok) {
    std::fprintf(stderr, "seed_store: %s\n", ok.error().message.c_str());
    return 1;
  }
  std::printf("%s\n", record.id.c_str());
  return 0;
}
