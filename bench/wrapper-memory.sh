#!/usr/bin/env bash
# What the session wrapper costs beside each command: PSS and private dirty memory of a wrapper
# running `sleep 60`, read from /proc/PID/smaps_rollup once the command has started.
# Old wrapper (with POSIX, from git) against the current one, with no deadline and with a deadline
# an hour away, and the current one with Time::HiRes loaded (what the clock would cost without
# syscall()). Alone (one wrapper: PSS counts perl's shared pages for it almost alone, and depends on
# what other perl processes run on the machine) and as one of 10 at once (closer to a busy runboard,
# where the shared pages are divided among the sessions).
#
#   bench/wrapper-memory.sh [SAMPLES] [OLD_REV]     (default 3 samples; OLD_REV: the wrapper before the lean rewrite)
# Needs: bash, perl, git, pgrep (procps), awk.
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-3}
old_rev=${2:-26725c8377f9084d003a575fb73e1a299e093bdc}
path=src/main/resources/dev/runboard/process/runboard-wrap.pl
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
git show "$old_rev:$path" > "$work/old.pl"
cp "$path" "$work/new.pl"

# Starts one wrapper running sleep 60; sets $started to its pid once its command runs.
start() {   # start NAME N
  local name=$1 n=$2 w deadline=0
  case $name in
    old) perl "$work/old.pl" "$work/st-$name-$n" sleep 60 & ;;
    new) perl "$work/new.pl" "$work/st-$name-$n" 0 0 sleep 60 & ;;
    new-deadline) deadline=$(( $(date +%s%3N) + 3600000 ))
                  perl "$work/new.pl" "$work/st-$name-$n" "$deadline" 1000 sleep 60 & ;;
    new+HiRes) perl -MTime::HiRes "$work/new.pl" "$work/st-$name-$n" 0 0 sleep 60 & ;;
  esac
  w=$!
  pids+=("$w")
  for _ in $(seq 1 500); do pgrep -P "$w" -x sleep > /dev/null && break; sleep 0.01; done
  started=$w
}

# Ends a wrapper by ending its command (the wrapper ignores TERM while its command runs).
stop() {
  local w=$1 c
  for c in $(pgrep -P "$w" -x sleep); do kill -9 "$c" 2>/dev/null || true; done
  wait "$w" 2>/dev/null || true
}

measure() {  # measure NAME COUNT: average Pss and Private_Dirty (kB) of COUNT wrappers alive together
  local name=$1 count=$2 ws=() w
  for ((i = 0; i < count; i++)); do start "$name" "$i"; ws+=("$started"); done
  for w in "${ws[@]}"; do cat "/proc/$w/smaps_rollup"; done |
    awk -v n="$count" '/^Pss:/{p+=$2} /^Private_Dirty:/{d+=$2} /^Rss:/{r+=$2}
                       END {printf "%7.0f %7.0f %7.0f", r/n, p/n, d/n}'
  for w in "${ws[@]}"; do stop "$w"; done
  pids=()
}

echo "perl $(perl -e 'print $^V'), $(uname -r), other perl processes running: $(pgrep -c -x perl || true)"
printf '%-14s %-7s %-7s %7s %7s %7s\n' variant sample wrappers 'RSS kB' 'PSS kB' 'PrivDty'
for ((s = 1; s <= samples; s++)); do
  for name in old new new-deadline new+HiRes; do
    for count in 1 10; do
      printf '%-14s %-7s %-7s ' "$name" "$s" "$count"
      measure "$name" "$count"
      echo
    done
  done
done
