#!/usr/bin/env bash
# Time index overhead: the same 1 GiB capture three ways, interleaved, the order rotating by round:
#   shell     bash -c "yes LINE | head -c 1G" > FILE               (the baseline: a plain redirect)
#   index     java -jar runboard.jar exec -- "yes LINE | head -c 1G"  (capture + time index, the default)
#   no-index  java -Drunboard.timeIndex=off -jar runboard.jar exec -- ...  (capture alone)
#
#   bench/time-index.sh [--bytes 1G] [--rounds 5] [--jar target/runboard.jar]
#
# Prints per round the wall times and the engine's elapsed_seconds (child start to exit, JVM
# start-up excluded), the index's entries and bytes, then the medians and the ratios
#   index ÷ no-index (wall and engine elapsed; 1.00 = the index costs nothing) and shell ÷ index.
# Each round checks the artifact has the baseline's size, then deletes everything. `sync` before
# each timed run. Temp files under $TMPDIR (mktemp -d), removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

BYTES=1G
ROUNDS=5
JAR=target/runboard.jar
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "time-index.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
[ -f "$JAR" ] || { echo "building $JAR ..."; ./mvnw -B -q package -DskipTests; }

LINE='runboard time index benchmark line ............................................................'
CMD="yes '$LINE' | head -c $BYTES"
size_bytes=$(numfmt --from=iec "$BYTES")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
avail=$(( $(df -Pk "$WORK" | awk 'NR==2 {print $4}') * 1024 ))
if [ "$avail" -lt $(( size_bytes + 512 * 1024 * 1024 )) ]; then
  echo "time-index.sh: need $(numfmt --to=iec $(( size_bytes + 512 * 1024 * 1024 ))) free under $WORK" >&2; exit 1
fi

now_ns() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e9 }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
json_field() { sed -n "s/^  \"$2\" : \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1; }

echo "== time index overhead benchmark =="
echo "date:    $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(java -version 2>&1 | head -1)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at start"
echo "command: bash -c \"$CMD\"   ($size_bytes bytes)"
echo

java -jar "$JAR" exec --data-dir "$WORK/warm" -- true > /dev/null # warm the page cache for the JVM and jar
rm -rf "$WORK/warm"

declare -a shell_w index_w noindex_w index_e noindex_e
# Sets WALL (ns) and ELAPSED (s); $1 = "on" or "off".
run_exec() {
  local flag=() data="$WORK/data" json="$WORK/snap.json" t0 t1 artifact
  [ "$1" = off ] && flag=(-Drunboard.timeIndex=off)
  sync
  t0=$(now_ns)
  java "${flag[@]}" -jar "$JAR" exec --shell /bin/bash --data-dir "$data" -- "$CMD" > "$json"
  t1=$(now_ns)
  WALL=$(( t1 - t0 ))
  ELAPSED=$(json_field "$json" elapsed_seconds)
  artifact=$(json_field "$json" artifact)
  [ "$(stat -c %s "$artifact")" = "$size_bytes" ] || { echo "artifact $artifact has the wrong size" >&2; exit 1; }
  if [ -f "$artifact.times" ]; then
    ENTRIES=$(( $(stat -c %s "$artifact.times") / 16 )); INDEX_BYTES=$(stat -c %s "$artifact.times")
  else
    ENTRIES=0; INDEX_BYTES=0
  fi
  rm -rf "$data" "$json"
}
run_shell() {
  sync
  local t0 t1
  t0=$(now_ns)
  bash -c "$CMD" > "$WORK/baseline.log"
  t1=$(now_ns)
  WALL=$(( t1 - t0 ))
  [ "$(stat -c %s "$WORK/baseline.log")" = "$size_bytes" ] || { echo "baseline has the wrong size" >&2; exit 1; }
  rm -f "$WORK/baseline.log"
}

for r in $(seq 1 "$ROUNDS"); do
  order=(shell index noindex)
  case $(( r % 3 )) in 2) order=(index noindex shell) ;; 0) order=(noindex shell index) ;; esac
  line="round $r:"
  for v in "${order[@]}"; do
    case $v in
      shell) run_shell; shell_w+=("$(secs "$WALL")"); line+=" shell $(secs "$WALL")s" ;;
      index) run_exec on; index_w+=("$(secs "$WALL")"); index_e+=("$ELAPSED")
             line+=" index $(secs "$WALL")s (engine $ELAPSED s, $ENTRIES entries, $INDEX_BYTES bytes)" ;;
      noindex) run_exec off; noindex_w+=("$(secs "$WALL")"); noindex_e+=("$ELAPSED")
               line+=" no-index $(secs "$WALL")s (engine $ELAPSED s)" ;;
    esac
  done
  echo "$line"
done

ms=$(printf '%s\n' "${shell_w[@]}" | median)
miw=$(printf '%s\n' "${index_w[@]}" | median)
mnw=$(printf '%s\n' "${noindex_w[@]}" | median)
mie=$(printf '%s\n' "${index_e[@]}" | median)
mne=$(printf '%s\n' "${noindex_e[@]}" | median)
echo
echo "median wall:    shell ${ms}s   exec+index ${miw}s   exec without index ${mnw}s"
echo "median engine:  exec+index ${mie}s   exec without index ${mne}s"
awk -v a="$miw" -v b="$mnw" 'BEGIN { printf "ratio index ÷ no-index, wall:    %.3f  (1.000 = no cost)\n", a / b }'
awk -v a="$mie" -v b="$mne" 'BEGIN { printf "ratio index ÷ no-index, engine:  %.3f\n", a / b }'
awk -v a="$ms" -v b="$miw" 'BEGIN { printf "ratio shell ÷ exec+index, wall:  %.3f  (JVM start-up included)\n", a / b }'
awk -v a="$ms" -v b="$mie" 'BEGIN { printf "ratio shell ÷ exec+index engine: %.3f  (JVM start-up excluded)\n", a / b }'
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min) at the end"
