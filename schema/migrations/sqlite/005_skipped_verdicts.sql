-- flakescan store, version 5: a fifth verdict kind, `skipped` (every run that reached the test
-- skipped it: @Ignore, @Disabled, a failed assumption; before, such a test was `could_not_run`,
-- as if the scan had failed to run it). SQLite cannot change a CHECK constraint in place, so
-- the verdicts table is rebuilt with its rows, in the migration's transaction.
CREATE TABLE verdicts_v5 (
  scan_id       TEXT NOT NULL REFERENCES scans(id),
  test          TEXT NOT NULL,
  verdict       TEXT NOT NULL CHECK (verdict IN ('flaky','not_flaky','failing','skipped','could_not_run')),
  category      TEXT,
  body          TEXT NOT NULL,           -- the verdict as written to verdicts.json (JSON)
  PRIMARY KEY (scan_id, test)
);
INSERT INTO verdicts_v5(scan_id, test, verdict, category, body)
  SELECT scan_id, test, verdict, category, body FROM verdicts ORDER BY rowid;
DROP TABLE verdicts;
ALTER TABLE verdicts_v5 RENAME TO verdicts;
CREATE INDEX verdicts_by_test ON verdicts(test);
