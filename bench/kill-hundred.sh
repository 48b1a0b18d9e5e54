#!/usr/bin/env bash
# `kill --status running --grace 1` of 100 running sessions through bin/runboard with the data dir's supervisor
# up (issue 41's target: within the grace + 2 s = 3 s), for two builds in one run: BASE_JAR (the baseline, e.g.
# main's) and this checkout's target/runboard.jar, each in its own data dir and class-data cache, the rounds
# alternating which goes first. Only one supervisor runs at a time: each round of a build starts its supervisor,
# 100 concurrent `start -- sleep 600` (which die at TERM), waits until all 100 run, times the kill, checks that
# no `sleep 600` of it is left in /proc and stops the supervisor.
#
#   bench/kill-hundred.sh BASE_JAR [ROUNDS]     (default 5; build first: ./mvnw -B -o -q package -DskipTests)
#
# Prints each kill's wall time, the medians and their ratio (this build / the baseline), and the load.
# PERF=1: each kill runs under `perf record -a -e cpu-clock -F 1000`, and its CPU is printed by whose it was
# (the supervisor's JVM, the session wrappers, the other perl processes: the kill helpers or the kill server's forks
# and the thin client; the rest is not ours). perf's own cost slows the kill: compare CPU, not wall, then.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE_JAR=$(readlink -f "${1:?usage: bench/kill-hundred.sh BASE_JAR [ROUNDS]}")
ROUNDS=${2:-5}
NEW_JAR=$(readlink -f target/runboard.jar)
[ -f "$BASE_JAR" ] && [ -f "$NEW_JAR" ] || { echo "build first: ./mvnw -B -o -q package -DskipTests" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kill-hundred.XXXXXX")
export RUNBOARD_SUPERVISOR_IDLE=600
declare -A JAR=([base]=$BASE_JAR [new]=$NEW_JAR)
rb() { # rb VARIANT ARGS...: bin/runboard with that build's jar, cache and data dir
  local v=$1
  shift
  RUNBOARD_JAR=${JAR[$v]} XDG_CACHE_HOME=$WORK/$v/cache bin/runboard "$@"
}
cleanup() {
  for v in base new; do
    rb "$v" kill --data-dir "$WORK/$v/data" --status running --grace 0 >/dev/null 2>&1 || true
    rb "$v" supervisor stop --data-dir "$WORK/$v/data" >/dev/null 2>&1 || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

ms() { # wall time of "$@" in ms, by bash's clock
  local t0=$EPOCHREALTIME
  "$@" >/dev/null || true
  local t1=$EPOCHREALTIME
  echo $(( (${t1/./} - ${t0/./}) / 1000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
running() { rb "$1" list --data-dir "$WORK/$1/data" --status running | tail -n +2 | wc -l; }
sleeps_left() { # this build's `sleep 600` processes still in /proc (the kill's guarantee: none)
  local n=0 p
  for p in /proc/[0-9]*; do
    [ "$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")" = "sleep 600 " ] || continue
    grep -qz "^XDG_CACHE_HOME=$WORK/$1/cache\$" "$p/environ" 2>/dev/null && n=$((n + 1))
  done
  echo "$n"
}

one_round() { # one_round VARIANT: prints the kill's wall ms
  local v=$1 data=$WORK/$1/data
  rb "$v" start --data-dir "$data" -- true >/dev/null # brings the supervisor up
  for i in $(seq 100); do rb "$v" start --data-dir "$data" -- 'sleep 600' >/dev/null & done
  wait
  local tries=0
  while [ "$(running "$v")" -lt 100 ] && [ $tries -lt 100 ]; do sleep 0.1; tries=$((tries + 1)); done
  local n
  n=$(running "$v")
  local t
  if [ -n "${PERF:-}" ]; then
    local sup w=$WORK/$v/wrappers
    sup=$(sed -n 2p "$data/supervisor.address")
    for d in "$data"/sessions/*/; do grep -o '"pid" *: *[0-9]*' "$d/session.json" 2>/dev/null | head -1 | grep -o '[0-9]*$'; done >"$w"
    t=$(ms perf record -q -a -e cpu-clock -F 1000 -o "$WORK/$v/perf.data" -- \
      env RUNBOARD_JAR="${JAR[$v]}" XDG_CACHE_HOME="$WORK/$v/cache" bin/runboard kill --data-dir "$data" --status running --grace 1)
    perf script -i "$WORK/$v/perf.data" -F pid,comm 2>/dev/null | awk -v sup="$sup" -v v="$v" 'NR == FNR { w[$1] = 1; next }
      { pid = $NF; $NF = ""; who = pid == sup ? "supervisor JVM" : (pid in w) ? "wrappers" : $0 ~ /perl|jspawnhelper/ ? "other perl" : "not ours"; c[who]++ }
      END { for (k in c) printf "%s: CPU %s %d ms\n", v, k, c[k] }' "$w" - | sort >&2
    rm -f "$WORK/$v/perf.data"
  else
    t=$(ms rb "$v" kill --data-dir "$data" --status running --grace 1)
  fi
  echo "$v: $n running, killed in $t ms, left $(running "$v") running and $(sleeps_left "$v") of its sleeps; load $(cut -d' ' -f1 /proc/loadavg)" >&2
  rb "$v" supervisor stop --data-dir "$data" >/dev/null
  echo "$t"
}

# Warm-up: each build's class-data archive (a first exec trains it) and its data dir.
for v in base new; do rb "$v" exec --data-dir "$WORK/$v/data" -- true >/dev/null; done
declare -A times
for ((r = 0; r < ROUNDS; r++)); do
  if ((r % 2)); then order=(new base); else order=(base new); fi
  for v in "${order[@]}"; do times[$v]+="$(one_round "$v") "; done
done
b=$(tr ' ' '\n' <<<"${times[base]}" | grep . | median)
n=$(tr ' ' '\n' <<<"${times[new]}" | grep . | median)
echo "## kill --status running --grace 1 of 100 sessions, $ROUNDS rounds each (ms; target: 3000)"
echo "base  median $b   (${times[base]% })"
echo "new   median $n   (${times[new]% })"
awk -v a="$n" -v b="$b" 'BEGIN {printf "ratio new/base %.2f\n", a / b}'
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
