-- flakescan store on PostgreSQL, version 5: the verdict kind `skipped` (sqlite/005).
ALTER TABLE verdicts DROP CONSTRAINT verdicts_verdict_check;
ALTER TABLE verdicts ADD CONSTRAINT verdicts_verdict_check
  CHECK (verdict IN ('flaky','not_flaky','failing','skipped','could_not_run'));
