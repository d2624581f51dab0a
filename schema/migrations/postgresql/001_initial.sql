-- flakescan store on PostgreSQL, version 1: the same tables as sqlite/001_initial.sql. Two
-- differences of dialect: ids are BIGSERIAL, and scans and verdicts carry `seq`, the insertion
-- order that SQLite keeps in its rowid (the quarantine breaks ties between scans created in
-- the same millisecond with it; a scan's verdicts are listed in it).
CREATE TABLE scans (
  seq           BIGSERIAL UNIQUE,
  id            TEXT PRIMARY KEY,
  state         TEXT NOT NULL CHECK (state IN ('queued','running','completed','failed','cancelled','interrupted')),
  request       TEXT NOT NULL,
  backend       TEXT NOT NULL,
  techniques    TEXT NOT NULL,
  seed          BIGINT NOT NULL,
  created_at    TEXT NOT NULL,
  started_at    TEXT,
  finished_at   TEXT,
  error         TEXT,
  tests_total   INTEGER NOT NULL DEFAULT 0,
  runs_planned  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE runs (
  id            BIGSERIAL PRIMARY KEY,
  scan_id       TEXT NOT NULL REFERENCES scans(id),
  technique     TEXT NOT NULL,
  purpose       TEXT NOT NULL,
  seed          BIGINT NOT NULL,
  tests         TEXT NOT NULL,
  exit_code     INTEGER NOT NULL,
  signal        INTEGER NOT NULL,
  timed_out     INTEGER NOT NULL,
  infra_reason  TEXT NOT NULL,
  wall_ms       DOUBLE PRECISION NOT NULL,
  log_path      TEXT NOT NULL,
  finished_at   TEXT NOT NULL
);
CREATE INDEX runs_by_scan ON runs(scan_id);

CREATE TABLE results (
  run_id        BIGINT NOT NULL REFERENCES runs(id),
  position      INTEGER NOT NULL,
  test          TEXT NOT NULL,
  outcome       TEXT NOT NULL CHECK (outcome IN ('pass','fail','error','skipped','not_found','infra')),
  message       TEXT NOT NULL,
  exception     TEXT NOT NULL,
  signature     TEXT NOT NULL,
  stack         TEXT NOT NULL,
  duration_ms   DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE INDEX results_by_test ON results(test);

CREATE TABLE verdicts (
  seq           BIGSERIAL,
  scan_id       TEXT NOT NULL REFERENCES scans(id),
  test          TEXT NOT NULL,
  verdict       TEXT NOT NULL CONSTRAINT verdicts_verdict_check CHECK (verdict IN ('flaky','not_flaky','could_not_run')),
  category      TEXT,
  body          TEXT NOT NULL,
  PRIMARY KEY (scan_id, test)
);
