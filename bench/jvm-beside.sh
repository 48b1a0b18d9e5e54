#!/usr/bin/env bash
# What a runboard JVM's own CPU costs a command that keeps both cores busy (issue 16, docs/BENCHMARKS.md §10,
# round 13): the 1 GiB `yes | head` redirect by the shell alone, and the same redirect with
# `bin/runboard exec -- sleep 1.3` started beside it (that JVM's command only sleeps, so all it adds is its
# start, its monitor's first pass and its end). Pairs in A B B A order, `sync` before each run; prints the
# median of the pairs' ratios (beside ÷ alone) and the median times.
#
#   bench/jvm-beside.sh [PAIRS]      (default 24)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/abba-pairs.sh
PAIRS=${1:-24}
abba_prepare jvm-beside.sh
bin/runboard exec --data-dir "$work/data" -- true >/dev/null # the archive and the data dir, as a user's
run() { # alone|beside
  local t0 t1 jvm=""
  sync
  t0=$EPOCHREALTIME
  if [ "$1" = beside ]; then
    bin/runboard exec --data-dir "$work/data" -- sleep 1.3 </dev/null >/dev/null &
    jvm=$!
  fi
  sh -c "yes '$LINE' | head -c 1G" >"$work/out"
  t1=$EPOCHREALTIME
  if [ -n "$jvm" ]; then wait "$jvm"; fi
  abba_record "$1" "$t0" "$t1" "$work/times"
  rm -rf "$work/out" "$work/data/sessions/"* "$work/data/artifacts/"*
}
echo "jvm-beside: $PAIRS pairs, $(date -u +%Y-%m-%dT%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
abba_loop "$PAIRS" beside alone
abba_report "$work/times" beside alone ">=" 0.99
