#!/usr/bin/env bash
# Diff benchmark (issue 18): `runboard diff` on the outputs of real sessions that each printed a
# ~1 GiB Maven-like log, against GNU cmp and diff on the same files, ROUNDS rounds interleaved;
# wall time (median) and peak RSS (/usr/bin/time) of each. Cases:
#   identical  two runs printing the same log        runboard diff      vs  cmp, diff -u
#   3 changes  the same log with 3 lines changed     runboard diff      vs  diff -u
#   timings    every timing, size and address differ runboard diff --ignore-volatile (equal)
#                                                    vs  diff -u (all different), diff -I '[0-9]'
# It builds nothing: `./mvnw -o -q package -DskipTests` first (target/runboard.jar + target/lib).
#
#   bench/diff.sh [ROUNDS]        (default 3; SIZE_MB=1024, JAR=target/runboard.jar, BENCH_DIR=target)
#
# Writes ~8 GiB under BENCH_DIR (three logs, a copy, four captures) and deletes it at the end; the
# sessions are plain `cat`s that have ended before timing starts; the supervisor is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
size_mb=${SIZE_MB:-1024}
jar=${JAR:-target/runboard.jar}
java=${JAVA:-java}
[[ -f $jar ]] || { echo "diff.sh: no jar at $jar (run ./mvnw -o -q package -DskipTests)" >&2; exit 2; }
base=${BENCH_DIR:-target}
mkdir -p "$base"
work=$(mktemp -d "$(cd "$base" && pwd)/bench-diff.XXXXXX")
data="$work/data"
export RUNBOARD_SUPERVISOR_IDLE=${RUNBOARD_SUPERVISOR_IDLE:-600}
rb() { "$java" -jar "$jar" "$@"; }
cleanup() {
  rb supervisor stop --data-dir "$data" >/dev/null 2>&1 || true
  [[ -n ${KEEP:-} ]] || rm -rf "$work"
}
trap cleanup EXIT

# A Maven-like log of SIZE_MB: build lines, test lines with timings, downloads with sizes and rates,
# object addresses. SEED changes every number; CHANGE replaces 3 lines in the middle with new text.
make_log() { # SEED CHANGE FILE
  # A line count, not a byte count, so that logs with other numbers still have the same lines (~84 bytes each).
  mawk -v seed="$1" -v change="$2" -v lines=$((size_mb * 1048576 / 84)) 'BEGIN {
    srand(seed)
    for (i = 1; i <= lines; i++) {
      k = i % 4
      if (k == 0) line = sprintf("[INFO] Tests run: %d, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: %.3f s - in dev.demo.Suite%dTest", 10 + i % 7, rand() * 5, i)
      else if (k == 1) line = sprintf("[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/demo/lib%d/1.%d/lib%d-1.%d.jar (%d kB at %.1f MB/s)", i, i % 9, i, i % 9, 10 + int(rand() * 900), rand() * 40)
      else if (k == 2) line = sprintf("%02d:%02d:%02d.%03d [main] DEBUG dev.demo.Cache@%08x - warmed entry %d", int(rand() * 24), int(rand() * 60), int(rand() * 60), int(rand() * 1000), int(rand() * 2147483647), i)
      else line = sprintf("[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ module-%d ---", i % 50)
      if (change && (i == int(lines / 4) || i == int(lines / 2) || i == int(lines * 3 / 4))) line = "[ERROR] a real change at line " i
      print line
    }
  }' > "$3"
}
echo "generating logs of $size_mb MiB in $work ..." >&2
make_log 1 0 "$work/a.log"
cp "$work/a.log" "$work/a2.log"
make_log 1 1 "$work/c.log"
make_log 2 0 "$work/b.log"
ls -l "$work"/*.log >&2

session() { # FILE -> id of a finished session that printed it
  local id
  id=$(rb start --data-dir "$data" --no-shell --cwd "$work" -- cat "$1")
  rb wait --data-dir "$data" "$id" >/dev/null
  echo "$id"
}
# Four 1.2 GB captures outgrow the default artifact retention (5 GB): keep them all.
mkdir -p -m 700 "$data"
(umask 077; echo '{"keep_artifact_bytes": 50000000000}' > "$data/settings.json")
A=$(session a.log); A2=$(session a2.log); C=$(session c.log); B=$(session b.log)
raw() { rb show --data-dir "$data" "$1" | mawk -F'"' '/"raw_output"/ { for (i = 1; i <= NF; i++) if ($i == "raw_output") { print $(i + 2); exit } }'; }
fa=$(raw "$A"); fa2=$(raw "$A2"); fc=$(raw "$C"); fb=$(raw "$B")
cmp "$fa" "$work/a.log" && cmp "$fb" "$work/b.log" || { echo "diff.sh: a capture is not the log it printed" >&2; exit 1; }

declare -A times rss codes
measure_run() { # NAME COMMAND... : wall time and peak RSS, output to /dev/null
  local n=$1 t code secs kb
  shift
  t=$(mktemp)
  set +e
  /usr/bin/time -f "%e %M" -o "$t" timeout "${LIMIT:-600}" "$@" > /dev/null 2>>"$work/stderr"
  code=$?
  set -e
  read -r secs kb < <(tail -1 "$t")
  rm -f "$t"
  times[$n]+="$secs "
  rss[$n]=$kb
  codes[$n]=$code
}
for ((r = 1; r <= rounds; r++)); do
  echo "round $r/$rounds" >&2
  measure_run "identical: runboard diff" "$java" -jar "$jar" diff --data-dir "$data" "$A" "$A2"
  measure_run "identical: cmp" cmp "$fa" "$fa2"
  measure_run "identical: diff -u" diff -u "$fa" "$fa2"
  measure_run "3 changes: runboard diff" "$java" -jar "$jar" diff --data-dir "$data" "$A" "$C"
  measure_run "3 changes: diff -u" diff -u "$fa" "$fc"
  measure_run "timings: runboard diff --ignore-volatile" "$java" -jar "$jar" diff --ignore-volatile --data-dir "$data" "$A" "$B"
  measure_run "timings: diff -I '[0-9]'" diff -I '[0-9]' "$fa" "$fb"
  if ((r == 1)); then # all lines differ: GNU diff's time is minutes; once is enough
    measure_run "timings: runboard diff (no option)" "$java" -jar "$jar" diff --data-dir "$data" "$A" "$B"
    measure_run "timings: diff -u (no option)" diff -u "$fa" "$fb"
  fi
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "Files: $(stat -c %s "$fa") and $(stat -c %s "$fb") bytes; $rounds rounds; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "| case | median wall s | rounds (s) | peak RSS MiB | exit | ratio |"
echo "|---|---|---|---|---|---|"
for n in "identical: runboard diff" "identical: cmp" "identical: diff -u" "3 changes: runboard diff" "3 changes: diff -u" \
         "timings: runboard diff --ignore-volatile" "timings: diff -I '[0-9]'" "timings: runboard diff (no option)" "timings: diff -u (no option)"; do
  [[ -n ${times[$n]:-} ]] || continue
  m=$(echo "${times[$n]}" | median)
  case $n in
    identical:*) ref=$(echo "${times["identical: cmp"]}" | median); against="cmp" ;;
    "3 changes"*) ref=$(echo "${times["3 changes: diff -u"]}" | median); against="diff -u" ;;
    "timings: runboard diff --ignore-volatile"|"timings: diff -I"*) ref=$(echo "${times["timings: diff -I '[0-9]'"]}" | median); against="diff -I" ;;
    *) ref=$(echo "${times["timings: diff -u (no option)"]}" | median); against="diff -u" ;;
  esac
  ratio=$(awk -v a="$m" -v b="$ref" 'BEGIN { printf (b > 0 ? "%.2f× %s" : "-"), a / b, "'"$against"'" }')
  echo "| $n | $m | ${times[$n]}| $(( ${rss[$n]} / 1024 )) | ${codes[$n]} | $ratio |"
done
echo
echo "(exit 124 = stopped by the ${LIMIT:-600} s limit)"
