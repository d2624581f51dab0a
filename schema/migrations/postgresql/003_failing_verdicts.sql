-- flakescan store on PostgreSQL, version 3: the verdict kind `failing` (sqlite/003). PostgreSQL
-- changes the CHECK constraint in place.
ALTER TABLE verdicts DROP CONSTRAINT verdicts_verdict_check;
ALTER TABLE verdicts ADD CONSTRAINT verdicts_verdict_check
  CHECK (verdict IN ('flaky','not_flaky','failing','could_not_run'));
