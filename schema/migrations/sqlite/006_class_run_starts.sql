-- flakescan store, version 6: where a run began a new run of a class although the entry before
-- was of the same class (core::RunSpec::class_run_starts; nio-isolated-class runs each class
-- twice in one JVM this way). A JSON array of positions in `tests`, '' for none, so a replay or
-- a restarted daemon makes the run again exactly.
ALTER TABLE runs ADD COLUMN class_run_starts TEXT NOT NULL DEFAULT '';
