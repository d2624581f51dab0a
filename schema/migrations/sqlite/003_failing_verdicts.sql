-- flakescan store, version 3: a fourth verdict kind, `failing` (a test that failed every run
-- that reached it: broken, not flaky; a failure that flakescan observed never ends in
-- not_flaky). SQLite cannot change a CHECK constraint in place, so the verdicts table is
-- rebuilt with its rows, in the migration's transaction.
CREATE TABLE verdicts_v3 (
  scan_id       TEXT NOT NULL REFERENCES scans(id),
  test          TEXT NOT NULL,
  verdict       TEXT NOT NULL CHECK (verdict IN ('flaky','not_flaky','failing','could_not_run')),
  category      TEXT,
  body          TEXT NOT NULL,           -- the verdict as written to verdicts.json (JSON)
  PRIMARY KEY (scan_id, test)
);
INSERT INTO verdicts_v3(scan_id, test, verdict, category, body)
  SELECT scan_id, test, verdict, category, body FROM verdicts ORDER BY rowid;
DROP TABLE verdicts;
ALTER TABLE verdicts_v3 RENAME TO verdicts;
CREATE INDEX verdicts_by_test ON verdicts(test);
