-- flakescan store on PostgreSQL, version 4: a run's shuffle and a result's shuffled sites
-- (sqlite/004), JSON text, '' for none.
ALTER TABLE runs ADD COLUMN shuffle TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN shuffled TEXT NOT NULL DEFAULT '';
