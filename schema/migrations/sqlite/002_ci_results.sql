-- flakescan store, version 2: JUnit XML results imported from CI runs (POST /v1/results), the
-- history behind GET /v1/suspects. One row per import (one CI run's report, named by its
-- `source`) and one per test in it. Importing a source again replaces its import in one
-- transaction, so a source is never counted twice.
CREATE TABLE ci_imports (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- import order: "the last N imports"
  source          TEXT NOT NULL UNIQUE,              -- the CI run id the importer gave
  commit_sha      TEXT NOT NULL DEFAULT '',
  branch          TEXT NOT NULL DEFAULT '',
  imported_at     TEXT NOT NULL,
  tests           INTEGER NOT NULL,
  failed          INTEGER NOT NULL,                  -- final outcome fail or error
  flaky_by_rerun  INTEGER NOT NULL                   -- passed after failed reruns
);
CREATE INDEX ci_imports_by_commit ON ci_imports(commit_sha);

CREATE TABLE ci_results (
  import_id       INTEGER NOT NULL REFERENCES ci_imports(id) ON DELETE CASCADE,
  test            TEXT NOT NULL,                     -- pkg.Class#method
  outcome         TEXT NOT NULL CHECK (outcome IN ('pass','fail','error','skipped')),
  duration_ms     REAL NOT NULL,
  message         TEXT NOT NULL,                     -- first line of the failure message
  failed_attempts INTEGER NOT NULL CHECK (failed_attempts >= 0),  -- before the final outcome
  PRIMARY KEY (import_id, test)
);
CREATE INDEX ci_results_by_test ON ci_results(test);

-- GET /v1/quarantine looks up each test's latest verdict across scans.
CREATE INDEX verdicts_by_test ON verdicts(test);
