-- flakescan store, version 8: sharded scans. A scan of a CI matrix's job names its group (one
-- name for every shard of one scan, e.g. the CI run id) and its shard ("I/N"); both are ''
-- for a scan that was not sharded. GET /v1/groups/{group}/verdicts merges the shards.
ALTER TABLE scans ADD COLUMN scan_group TEXT NOT NULL DEFAULT '';
ALTER TABLE scans ADD COLUMN shard TEXT NOT NULL DEFAULT '';
CREATE INDEX scans_by_group ON scans(scan_group);
