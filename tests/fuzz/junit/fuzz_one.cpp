#include "fuzz_one.hpp"

#include <cmath>
#include <string_view>

#include "report/junit_import.hpp"

namespace flakescan::report::fuzz {

bool fuzz_one(const std::uint8_t* data, std::size_t size) {
  std::string_view xml(reinterpret_cast<const char*>(data), size);
  auto imported = parse_junit_xml(xml);
  if (!imported) {
    auto code = imported.error().code;
    return code == util::Errc::invalid_argument || code == util::Errc::too_large;
  }
  if (imported->results.empty() || imported->testcases < int(imported->results.size()) || imported->ignored < 0)
    return false;
  for (const auto& r : imported->results) {
    if (r.test.find('#') == std::string::npos) return false;
    if (!std::isfinite(r.duration_ms) || r.duration_ms < 0) return false;
    if (r.message.size() > max_junit_message_bytes || r.message.find('\n') != std::string::npos) return false;
    if (r.failed_attempts < 0) return false;
    (void)imported_outcome_name(r.outcome);
  }
  // Ids from any class and name text.
  auto nl = xml.find('\n');
  std::string id = import_test_id(xml.substr(0, nl), nl == std::string_view::npos ? std::string_view{} : xml.substr(nl + 1));
  return id.find('#') != std::string::npos;
}

}  // namespace flakescan::report::fuzz
