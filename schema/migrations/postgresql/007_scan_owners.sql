-- flakescan store, version 7: many daemons, one store. A scan names the daemon that runs it
-- (`daemon`: its --daemon-id), and every daemon writes when it was last seen alive, so that a
-- daemon that starts marks interrupted only its own unfinished scans and those of daemons
-- that stopped beating (killed, never restarted), never the scans another live daemon runs.
-- Scans from before this version belong to '' (the one daemon of an embedded store).
ALTER TABLE scans ADD COLUMN daemon TEXT NOT NULL DEFAULT '';
CREATE TABLE daemons (
  id          TEXT PRIMARY KEY,
  started_at  TEXT NOT NULL,
  last_seen   TEXT NOT NULL
);
