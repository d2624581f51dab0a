-- flakescan store on PostgreSQL, version 2: CI history, as sqlite/002_ci_results.sql.
CREATE TABLE ci_imports (
  id              BIGSERIAL PRIMARY KEY,
  source          TEXT NOT NULL UNIQUE,
  commit_sha      TEXT NOT NULL DEFAULT '',
  branch          TEXT NOT NULL DEFAULT '',
  imported_at     TEXT NOT NULL,
  tests           INTEGER NOT NULL,
  failed          INTEGER NOT NULL,
  flaky_by_rerun  INTEGER NOT NULL
);
CREATE INDEX ci_imports_by_commit ON ci_imports(commit_sha);

CREATE TABLE ci_results (
  import_id       BIGINT NOT NULL REFERENCES ci_imports(id) ON DELETE CASCADE,
  test            TEXT NOT NULL,
  outcome         TEXT NOT NULL CHECK (outcome IN ('pass','fail','error','skipped')),
  duration_ms     DOUBLE PRECISION NOT NULL,
  message         TEXT NOT NULL,
  failed_attempts INTEGER NOT NULL CHECK (failed_attempts >= 0),
  PRIMARY KEY (import_id, test)
);
CREATE INDEX ci_results_by_test ON ci_results(test);

CREATE INDEX verdicts_by_test ON verdicts(test);
