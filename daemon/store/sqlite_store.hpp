#pragma once
// The embedded engine: one SQLite database in WAL mode, one connection guarded by a mutex
// (calls are short). The default store of a daemon (DATA_DIR/flakescan.db).
#include <filesystem>
#include <memory>
#include <mutex>

#include "store/store.hpp"

struct sqlite3;

namespace flakescan::store {

class SqliteStore final : public Store {
 public:
  static util::Result<std::unique_ptr<SqliteStore>> open(const std::filesystem::path& path);
  ~SqliteStore() override;

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

  util::Result<std::string> journal_mode();

 private:
  SqliteStore(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)) {}
  util::Result<bool> migrate();
  util::Result<bool> exec(const std::string& sql);
  // exec, asked again while SQLite answers busy without waiting (a lock upgrade both sides
  // want), up to a minute.
  util::Result<bool> exec_when_free(const std::string& sql);

  sqlite3* db_;
  std::filesystem::path path_;
  std::mutex mutex_;
};

}  // namespace flakescan::store
