#!/usr/bin/env bash
# What niceness costs a command (docs/BENCHMARKS.md #2), without the window:
#  1. CPU split between two busy loops at nice 10 and two at nice 0, first in two sessions (two
#     scheduler autogroups, as runboard's commands against another program), then in one session
#     (as runboard's commands against runboard's own threads);
#  2. bytes 20 floods write in 3 s at nice 0 and at nice 10.
#   bench/sched.sh [ROUNDS]
set -euo pipefail
rounds=${1:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
loop='while :; do :; done'

ticks() { # total utime+stime of the children of $1
  local sum=0 p
  for p in $(pgrep -P "$1"); do sum=$((sum + $(awk '{print $14+$15}' "/proc/$p/stat"))); done
  echo "$sum"
}

split() { # $1 = sessions: "two" or "one"
  local a b a0 b0
  if [ "$1" = two ]; then
    setsid sh -c "nice -n 10 sh -c '$loop' & nice -n 10 sh -c '$loop' & wait" & a=$!
    setsid sh -c "sh -c '$loop' & sh -c '$loop' & wait" & b=$!
  else
    setsid sh -c "nice -n 10 sh -c '$loop' & nice -n 10 sh -c '$loop' & exec sh -c \"sh -c '$loop' & sh -c '$loop' & wait\"" & a=$!
    b=""
  fi
  sleep 0.3
  if [ -n "$b" ]; then
    a0=$(ticks "$a"); b0=$(ticks "$b"); sleep 3
    echo "  $1 sessions: nice 10 pair $(( $(ticks "$a") - a0 )) ticks, nice 0 pair $(( $(ticks "$b") - b0 )) ticks in 3 s"
    pkill -P "$a"; pkill -P "$b"
  else
    local n10 n0
    read -r n10 n0 < <(for p in $(pgrep -P "$a"); do awk '{print $19, $14+$15}' "/proc/$p/stat"; done | sort | awk '{s[$1]+=$2} END {print s[10]+0, s[0]+0}')
    sleep 3
    local m10 m0
    read -r m10 m0 < <(for p in $(pgrep -P "$a"); do awk '{print $19, $14+$15}' "/proc/$p/stat"; done | sort | awk '{s[$1]+=$2} END {print s[10]+0, s[0]+0}')
    echo "  one session: nice 10 pair $((m10 - n10)) ticks, nice 0 pair $((m0 - n0)) ticks in 3 s"
    pkill -P "$a" || true
  fi
  wait 2>/dev/null || true
}

floods() { # $1 = niceness
  local i
  for i in $(seq 20); do
    nice -n "$1" timeout 3 bash -c 'yes "ok building module with a fairly long line of output" | head -c 2G' > "$work/out$i" &
  done
  wait || true
  echo "  20 floods at nice $1: $(cat "$work"/out* | wc -c) bytes in 3 s"
  rm -f "$work"/out*
}

for r in $(seq "$rounds"); do
  echo "round $r"
  split two
  split one
  floods 0
  floods 10
done
