-- flakescan store, version 4: runs on the shuffling JDK (technique `shuffle`). A run keeps
-- the shuffle it was made with (seed, mode, the sites it was limited to), so a replay or a
-- restarted daemon can make it again; a result keeps the call sites whose order was permuted.
-- Both are JSON text, '' for runs and results without a shuffle.
ALTER TABLE runs ADD COLUMN shuffle TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN shuffled TEXT NOT NULL DEFAULT '';
