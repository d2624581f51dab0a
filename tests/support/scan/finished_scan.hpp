#pragma once
// Waits for a scan to end and returns its record: on its event log's close (the manager closes
// it after it stored the scan's last state), not by polling. Errors: the scan is unknown, or it
// did not end within `at_most`.
#include <chrono>
#include <string>

#include "scan/scan_manager.hpp"

namespace flakescan::testing {

inline util::Result<store::ScanRecord> finished_scan(scan::ScanManager& manager, const std::string& id,
                                                     std::chrono::milliseconds at_most = std::chrono::seconds(60)) {
  auto events = manager.events(id);
  if (!events) return std::unexpected(events.error());
  if (!(*events)->wait_closed(at_most)) return util::fail(util::Errc::timeout, "scan " + id + " did not end");
  return manager.get(id);
}

}  // namespace flakescan::testing
