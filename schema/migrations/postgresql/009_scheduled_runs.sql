-- flakescan store on PostgreSQL, version 9: a run's schedule and a result's schedule record
-- (sqlite/009, technique `threads`), JSON text, '' for none.
ALTER TABLE runs ADD COLUMN schedule TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN threads TEXT NOT NULL DEFAULT '';
