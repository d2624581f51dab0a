#pragma once
// The shared engine: a PostgreSQL database that any number of daemons (one per CI runner) use
// at once. One connection per daemon, guarded by a mutex (calls are short). Writes that two
// daemons could make at once are serialised by the database: ids come from sequences,
// migrations and imports of one source take a transaction-scoped advisory lock.
#include <memory>
#include <mutex>

#include "store/pg_connection.hpp"
#include "store/store.hpp"

namespace flakescan::store {

class PostgresStore final : public Store {
 public:
  static util::Result<std::unique_ptr<PostgresStore>> open(const std::string& uri);
  ~PostgresStore() override;

  std::string describe() const override;
  util::Result<bool> create_scan(const ScanRecord& scan) override;
  util::Result<ScanRecord> scan(const std::string& id) override;
  util::Result<std::vector<ScanRecord>> scans(int limit) override;
  util::Result<std::vector<ScanRecord>> scans_of_group(const std::string& group) override;
  util::Result<bool> set_scan_state(const std::string& id, const std::string& state, const std::string& error) override;
  util::Result<bool> set_scan_progress(const std::string& id, int tests_total, int runs_planned) override;
  util::Result<bool> heartbeat(const std::string& daemon) override;
  util::Result<int> interrupt_unfinished(const std::string& daemon) override;
  util::Result<int> interrupt_abandoned(int stale_seconds) override;
  util::Result<std::int64_t> record_run(const std::string& scan_id, const core::RunSpec& spec,
                                        const core::RunReport& report) override;
  util::Result<core::RecordedRun> run(std::int64_t id) override;
  util::Result<std::vector<core::RecordedRun>> runs_of_scan(const std::string& scan_id) override;
  util::Result<bool> save_verdicts(const std::string& scan_id, const std::vector<VerdictRow>& verdicts) override;
  util::Result<std::vector<VerdictRow>> verdicts(const std::string& scan_id) override;
  util::Result<CiImportRecord> import_ci_results(const CiImportRecord& import,
                                                 const std::vector<CiResultRow>& results) override;
  util::Result<int> ci_import_count() override;
  util::Result<BranchTests> tests_on_branch(const std::string& branch) override;
  util::Result<std::vector<CiSuspect>> ci_suspects(int window, int max_evidence) override;
  util::Result<std::vector<QuarantineRow>> quarantine() override;

 private:
  explicit PostgresStore(std::unique_ptr<PgConnection> db) : db_(std::move(db)) {}
  util::Result<bool> migrate();
  util::Result<bool> read_results(core::RecordedRun& run);

  std::unique_ptr<PgConnection> db_;
  std::mutex mutex_;
};

}  // namespace flakescan::store

