-- flakescan store, version 9: runs under the threads agent (technique `threads`,
-- docs/threads.md). A run keeps the schedule it was asked for (strategy, seed, depth, steps,
-- virtual time, and a replay's decisions), so a replay or a restarted daemon can make it again;
-- a result keeps the test's schedule record (threads, steps, decisions, deadlock, ...). Both
-- are JSON text, '' for runs and results without a schedule.
ALTER TABLE runs ADD COLUMN schedule TEXT NOT NULL DEFAULT '';
ALTER TABLE results ADD COLUMN threads TEXT NOT NULL DEFAULT '';
