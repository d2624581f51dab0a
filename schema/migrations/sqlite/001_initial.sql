-- flakescan store, version 1. Every run is written in its own transaction as soon as it
-- finishes, so a daemon killed at any moment keeps every finished run.
CREATE TABLE scans (
  id            TEXT PRIMARY KEY,
  state         TEXT NOT NULL CHECK (state IN ('queued','running','completed','failed','cancelled','interrupted')),
  request       TEXT NOT NULL,           -- the validated POST /v1/scans body (JSON)
  backend       TEXT NOT NULL,
  techniques    TEXT NOT NULL,           -- JSON array of technique names
  seed          INTEGER NOT NULL,
  created_at    TEXT NOT NULL,
  started_at    TEXT,
  finished_at   TEXT,
  error         TEXT,
  tests_total   INTEGER NOT NULL DEFAULT 0,
  runs_planned  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE runs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  scan_id       TEXT NOT NULL REFERENCES scans(id),
  technique     TEXT NOT NULL,
  purpose       TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  tests         TEXT NOT NULL,           -- JSON array: the order the tests ran in, one process
  exit_code     INTEGER NOT NULL,
  signal        INTEGER NOT NULL,
  timed_out     INTEGER NOT NULL,
  infra_reason  TEXT NOT NULL,
  wall_ms       REAL NOT NULL,
  log_path      TEXT NOT NULL,
  finished_at   TEXT NOT NULL
);
CREATE INDEX runs_by_scan ON runs(scan_id);

CREATE TABLE results (
  run_id        INTEGER NOT NULL REFERENCES runs(id),
  position      INTEGER NOT NULL,
  test          TEXT NOT NULL,
  outcome       TEXT NOT NULL CHECK (outcome IN ('pass','fail','error','skipped','not_found','infra')),
  message       TEXT NOT NULL,
  exception     TEXT NOT NULL,
  signature     TEXT NOT NULL,
  stack         TEXT NOT NULL,
  duration_ms   REAL NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE INDEX results_by_test ON results(test);

CREATE TABLE verdicts (
  scan_id       TEXT NOT NULL REFERENCES scans(id),
  test          TEXT NOT NULL,
  verdict       TEXT NOT NULL CHECK (verdict IN ('flaky','not_flaky','could_not_run')),
  category      TEXT,
  body          TEXT NOT NULL,           -- the verdict as written to verdicts.json (JSON)
  PRIMARY KEY (scan_id, test)
);
