#include "scan/techniques.hpp"

#include "rerun/rerun.hpp"

namespace flakescan::scan {

const std::vector<TechniqueEntry>& technique_table() {
  // ---- The technique table: one line per technique, in the order scans run them. ----
  static const std::vector<TechniqueEntry> table{
      {"rerun", rerun::run_rerun, "N runs per test; flaky when a pass and a failure were both observed"},
  };
  return table;
}

std::vector<std::string> technique_names() {
  std::vector<std::string> out;
  for (const auto& t : technique_table()) out.emplace_back(t.name);
  return out;
}

}  // namespace flakescan::scan
