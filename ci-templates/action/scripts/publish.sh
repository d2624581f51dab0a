#!/usr/bin/env bash
# Publishes what the scan found: merges the verdicts of every project in the working directory
# with `flakescan report` (the one implementation of the formats), prints the annotations,
# appends the summary to the job summary, and sets the step outputs.
set -euo pipefail

root=$(cd "${INPUT_WORKING_DIRECTORY:-.}" && pwd)
# Where the verdicts are: the working directory, or (a sharded scan's merge job) the folder the
# shards' verdicts were downloaded into. The sources are always the working directory's.
verdicts_root=$(cd "${INPUT_VERDICTS_DIRECTORY:-$root}" && pwd)
out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/flakescan-reports"
rm -rf "$out"
mkdir -p "$out"

# The merged verdicts of each project (build/reports/flakescan/verdicts.json), not the
# per-task copies below them.
verdicts=()
while IFS= read -r -d '' f; do verdicts+=(--verdicts "$f"); done < <(
  find "$verdicts_root" -path '*/node_modules' -prune -o -path '*/.git' -prune -o \
    -path '*/build/reports/flakescan/verdicts.json' -print0 | sort -z)

if [ "${#verdicts[@]}" -eq 0 ]; then
  echo "::warning title=flakescan::no verdicts.json under $verdicts_root: did the scan run?"
  {
    echo "## flakescan"
    echo
    echo "No scan results were found."
  } >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
  echo "reports-dir=" >>"${GITHUB_OUTPUT:-/dev/null}"
  exit 0
fi

# Source roots: the working directory; flakescan finds each test's file below it.
flakescan report "${verdicts[@]}" --out-dir "$out" --source-root "$root" --github-annotations 2>"$out/report.log"
counts=$(grep -o 'flakescan report: [0-9]* flaky, [0-9]* not flaky, [0-9]* could not run' "$out/report.log" || true)
cat "$out/report.log" >&2
flaky=$(sed -E 's/flakescan report: ([0-9]+) flaky.*/\1/' <<<"$counts")
not_run=$(sed -E 's/.* ([0-9]+) could not run/\1/' <<<"$counts")

cat "$out/summary.md" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"

policy_failed=false
reason=""
case "${INPUT_FAIL_ON:-never}" in
  flaky) if [ "${flaky:-0}" -gt 0 ]; then policy_failed=true; reason="$flaky flaky test(s) found"; fi ;;
  any)
    if [ "${flaky:-0}" -gt 0 ] || [ "${not_run:-0}" -gt 0 ]; then
      policy_failed=true
      reason="${flaky:-0} flaky test(s), ${not_run:-0} that could not run"
    fi
    ;;
  never) ;;
  *) echo "::error title=flakescan::fail-on must be never, flaky or any (got '$INPUT_FAIL_ON')"; exit 2 ;;
esac

{
  echo "flaky-count=${flaky:-0}"
  echo "reports-dir=$out"
  echo "sarif-file=$out/flakescan.sarif"
  echo "policy-failed=$policy_failed"
  echo "policy-reason=$reason"
} >>"${GITHUB_OUTPUT:-/dev/null}"
