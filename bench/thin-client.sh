#!/usr/bin/env bash
# Client calls through bin/runboard with the data dir's supervisor up (issue 41): the thin client
# (bin/runboard-client.pl) against hello-world JVMs, in the same run, rounds interleaved.
#
#   bench/thin-client.sh [ROUNDS]        (default 7; build first: ./mvnw -B -o -q package -DskipTests)
#
#   1. one call at a time: `list`, `show ID`, `start -- true`, `kill ID` (a `sleep 600` started for it)
#      and a hello-world JVM (`java -cp DIR Hello`), each ROUNDS times, the order rotating per round:
#      median wall time and its ratio to the hello-world JVM's (target: at most 2x);
#   2. 100 concurrent `start -- sleep 600` against 100 concurrent hello-world JVMs, ROUNDS pairs
#      alternating which goes first: wall time of each hundred and the ratio (target: at most 1.5x);
#   3. `kill --status running --grace 1` of those 100 sessions after each round of 2 (they die at TERM):
#      its wall time against the grace + 2 s.
#   RUNBOARD_THIN_CLIENT=off in the environment runs the same through the JVM, for comparison.
#
# Everything lives in a mktemp -d (data dir, cache for bin/runboard's class-data archive); the supervisor
# is stopped and the folder removed at exit, and any session left running is killed by `kill --status`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac
[ -f target/runboard.jar ] || { echo "build first: ./mvnw -B -o -q package -DskipTests" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/thin-client.XXXXXX")
export XDG_CACHE_HOME=$WORK/cache RUNBOARD_SUPERVISOR_IDLE=600
DATA=$WORK/data
RB=(bin/runboard)
cleanup() {
  "${RB[@]}" kill --data-dir "$DATA" --status running --grace 0 >/dev/null 2>&1 || true
  "${RB[@]}" supervisor stop --data-dir "$DATA" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' >"$WORK/hello/Hello.java"
"$JAVAC" -d "$WORK/hello" "$WORK/hello/Hello.java"
hello() { "$JAVA" -cp "$WORK/hello" Hello >/dev/null; }

# Warm-up: the class-data archive (a first exec trains it), the supervisor (a start brings it up).
"${RB[@]}" exec --data-dir "$DATA" -- true >/dev/null
"${RB[@]}" start --data-dir "$DATA" -- true >/dev/null
"${RB[@]}" list --data-dir "$DATA" >/dev/null
SHOWN=$("${RB[@]}" start --data-dir "$DATA" -- 'echo shown')
"${RB[@]}" wait --data-dir "$DATA" "$SHOWN" >/dev/null || true

ms() { # wall time of "$@" in ms, by bash's clock (no fork around it)
  local t0=$EPOCHREALTIME
  "$@" >/dev/null
  local t1=$EPOCHREALTIME
  echo $(( (${t1/./} - ${t0/./}) / 1000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

declare -A times
kinds=(hello list show start kill)
for ((r = 0; r < ROUNDS; r++)); do
  victim=$("${RB[@]}" start --data-dir "$DATA" -- 'sleep 600')
  for ((k = 0; k < ${#kinds[@]}; k++)); do
    kind=${kinds[$(((k + r) % ${#kinds[@]}))]}
    case $kind in
      hello) t=$(ms hello) ;;
      list) t=$(ms "${RB[@]}" list --data-dir "$DATA") ;;
      show) t=$(ms "${RB[@]}" show --data-dir "$DATA" "$SHOWN") ;;
      start) t=$(ms "${RB[@]}" start --data-dir "$DATA" -- true) ;;
      kill) t=$(ms "${RB[@]}" kill --data-dir "$DATA" --grace 0 "$victim") ;;
    esac
    times[$kind]+="$t "
  done
done
hello_ms=$(tr ' ' '\n' <<<"${times[hello]}" | grep . | median)
echo "## one call at a time, $ROUNDS rounds (median ms, ratio to a hello-world JVM)"
for kind in "${kinds[@]}"; do
  m=$(tr ' ' '\n' <<<"${times[$kind]}" | grep . | median)
  printf '%-6s %7s ms  %5.2fx   (%s)\n' "$kind" "$m" "$(awk -v a="$m" -v b="$hello_ms" 'BEGIN {print a / b}')" "${times[$kind]% }"
done

hundred_hello() { for i in $(seq 100); do hello & done; wait; }
hundred_start() { for i in $(seq 100); do "${RB[@]}" start --data-dir "$DATA" -- 'sleep 600' >/dev/null & done; wait; }
echo "## 100 at once, $ROUNDS pairs (ms): hello-world JVMs, starts, ratio; then kill --status running --grace 1 (ms)"
for ((r = 0; r < ROUNDS; r++)); do
  if ((r % 2)); then s=$(ms hundred_start); h=$(ms hundred_hello); else h=$(ms hundred_hello); s=$(ms hundred_start); fi
  running=$("${RB[@]}" list --data-dir "$DATA" --status running | tail -n +2 | wc -l)
  k=$(ms "${RB[@]}" kill --data-dir "$DATA" --status running --grace 1)
  printf 'pair %d: hello %6d  start %6d  %5.2fx   running %d, killed in %d ms\n' "$r" "$h" "$s" \
    "$(awk -v a="$s" -v b="$h" 'BEGIN {print a / b}')" "$running" "$k"
done
