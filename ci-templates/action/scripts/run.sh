#!/usr/bin/env bash
# Runs the flakescan Gradle tasks with the action's inputs (all passed in through env:).
# Annotations are printed once, by publish.sh, from the merged reports.
set -euo pipefail

cd "${INPUT_WORKING_DIRECTORY:-.}"
read -r -a gradle <<<"${INPUT_GRADLE_COMMAND:-./gradlew}"
read -r -a tasks <<<"${INPUT_GRADLE_TASKS:-flakeScan}"
args=(--continue "-Pflakescan.githubAnnotations=false" "-Pflakescan.failOn=never")
[ -n "${INPUT_TESTS:-}" ] && args+=("-Pflakescan.tests=$INPUT_TESTS")
[ -n "${INPUT_ANNOTATED:-}" ] && args+=("-Pflakescan.annotated=$INPUT_ANNOTATED")
[ -n "${INPUT_SUSPECTS:-}" ] && args+=("-Pflakescan.suspects=$INPUT_SUSPECTS")
[ -n "${INPUT_ALL:-}" ] && args+=("-Pflakescan.all=$INPUT_ALL")
[ -n "${INPUT_TECHNIQUES:-}" ] && args+=("-Pflakescan.techniques=$INPUT_TECHNIQUES")
[ -n "${INPUT_RUNS:-}" ] && args+=("-Pflakescan.runs=$INPUT_RUNS")
[ -n "${INPUT_SEED:-}" ] && args+=("-Pflakescan.seed=$INPUT_SEED")
[ -n "${INPUT_SHUFFLE_SEEDS:-}" ] && args+=("-Pflakescan.shuffleSeeds=$INPUT_SHUFFLE_SEEDS")
[ -n "${INPUT_SHUFFLE_MODE:-}" ] && args+=("-Pflakescan.shuffleMode=$INPUT_SHUFFLE_MODE")
[ -n "${INPUT_SHUFFLE_ROUNDS:-}" ] && args+=("-Pflakescan.shuffleRounds=$INPUT_SHUFFLE_ROUNDS")
[ -n "${INPUT_THREAD_STRATEGY:-}" ] && args+=("-Pflakescan.threadStrategy=$INPUT_THREAD_STRATEGY")
[ -n "${INPUT_THREAD_SCHEDULES:-}" ] && args+=("-Pflakescan.threadSchedules=$INPUT_THREAD_SCHEDULES")
[ -n "${INPUT_BUG_DEPTH:-}" ] && args+=("-Pflakescan.bugDepth=$INPUT_BUG_DEPTH")
[ -n "${INPUT_VIRTUAL_TIME:-}" ] && args+=("-Pflakescan.virtualTime=$INPUT_VIRTUAL_TIME")
[ -n "${INPUT_THREAD_MAX_STEPS:-}" ] && args+=("-Pflakescan.threadMaxSteps=$INPUT_THREAD_MAX_STEPS")
[ -n "${INPUT_THREAD_INCLUDE:-}" ] && args+=("-Pflakescan.threadInclude=$INPUT_THREAD_INCLUDE")
[ -n "${INPUT_MAX_SECONDS:-}" ] && args+=("-Pflakescan.maxSeconds=$INPUT_MAX_SECONDS")
[ -n "${INPUT_SHARD:-}" ] && args+=("-Pflakescan.shard=$INPUT_SHARD")
[ -n "${INPUT_GROUP:-}" ] && args+=("-Pflakescan.group=$INPUT_GROUP")
[ -n "${INPUT_NEW_SINCE:-}" ] && args+=("-Pflakescan.newSince=$INPUT_NEW_SINCE")
if [ "${INPUT_APPLY_PLUGIN:-true}" = "true" ]; then
  args+=(--init-script "${ACTION_PATH:?}/flakescan.init.gradle")
fi
if [ -n "${INPUT_EXTRA_GRADLE_ARGS:-}" ]; then
  read -r -a extra <<<"$INPUT_EXTRA_GRADLE_ARGS"
  args+=("${extra[@]}")
fi

echo "flakescan: ${gradle[*]} ${tasks[*]} ${args[*]}"
"${gradle[@]}" "${tasks[@]}" "${args[@]}"
