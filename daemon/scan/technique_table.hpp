#pragma once
// The techniques the daemon knows, by the names users give in `techniques`. Each entry is a
// core::TechniqueFn; scans run the requested ones in the order of this table and merge their
// verdicts per test (core::merge_verdicts).
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/technique.hpp"

namespace flakescan::scan {

struct TechniqueEntry {
  std::string_view name;
  core::TechniqueFn run;
  std::string_view summary;
  // Replays a verdict's failing schedule once from its evidence.details (techniques whose
  // reproducer is more than a test list, e.g. explore); empty: replay runs the reproducer.
  std::function<util::Result<core::RecordedRun>(const std::string& test, const std::map<std::string, std::string>& details,
                                                core::RunLog& runs)>
      replay = {};
};

const std::vector<TechniqueEntry>& technique_table();
std::vector<std::string> technique_names();

}  // namespace flakescan::scan
