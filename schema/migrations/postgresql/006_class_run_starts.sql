-- flakescan store on PostgreSQL, version 6: where a run began a new run of a class
-- (sqlite/006), a JSON array of positions, '' for none.
ALTER TABLE runs ADD COLUMN class_run_starts TEXT NOT NULL DEFAULT '';
