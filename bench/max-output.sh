#!/usr/bin/env bash
# Bounded running output: a command printing 1 GB of numbered lines through `runboard exec --max-output 50M`
# against the same command through `runboard exec` unbounded (docs/OUTPUT.md, docs/BENCHMARKS.md "Bounded
# running output").
#
#   bench/max-output.sh [--bytes 1G] [--max-output 50M] [--pairs 5] [--jar target/runboard.jar] [--durable]
#
# TMPDIR chooses the file system the runs write to (the data dir is made under it): the same script measured
# the virtio disk and ext4 on a RAM-backed loop device (docs/BENCHMARKS.md §18).
#
# --durable: each timed run ends with `sync -f` of the data dir, so both count the time their output takes to
# reach the disk (a bounded capture is written back as it goes, by each cut; an unbounded one after the run).
#
# Each pair runs both variants, in alternating order, with `sync` before each timed run so one run's dirty
# pages are not written back during the next. Prints each pair's wall times and their ratio (bounded /
# unbounded), then the median ratio: the target is at most 1.1. While each bounded run goes, a sampler reads its
# capture's size and allocated bytes every 100 ms (stat(1)); their largest values are printed beside the pair. Each bounded run is checked: exit 0, its
# kept output (the artifact) at most the bound and a step, its last line the command's last. Temp files go
# under $TMPDIR (mktemp -d) and are removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

BYTES=1G
BOUND=50M
PAIRS=5
JAR=target/runboard.jar
DURABLE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bytes) BYTES=$2; shift 2 ;;
    --max-output) BOUND=$2; shift 2 ;;
    --pairs) PAIRS=$2; shift 2 ;;
    --jar) JAR=$2; shift 2 ;;
    --durable) DURABLE=1; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "max-output.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
done
if [ ! -f "$JAR" ]; then
  echo "building $JAR ..."
  ./mvnw -B -q package -DskipTests
fi
size_bytes=$(numfmt --from=iec "$BYTES")
bound_bytes=$(numfmt --from=iec "$BOUND")
step=$(( bound_bytes / 10 / 4096 * 4096 ))

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Numbered lines of 100 bytes, 2000 to a write, until BYTES.
GEN="perl -e '\$| = 1; my (\$n, \$t) = (0, 0); while (\$t < $size_bytes) { my \$c = q(); for (1 .. 2000) { \$n++;"
GEN+=" \$c .= sprintf(qq(line %012d %s\\n), \$n, q(x) x 81) } print \$c; \$t += length(\$c) } print qq(last \$n\\n)'"

now_ns() { date +%s%N; }
# run NAME [OPTIONS...]: prints the wall seconds; leaves the snapshot in $WORK/NAME.json
run() {
  local name=$1 start end sampler=
  shift
  sync
  if [ "$name" = bounded ]; then echo "0 0" >"$WORK/peak.max"; sample & sampler=$!; fi
  start=$(now_ns)
  java -jar "$JAR" exec --data-dir "$WORK/data" "$@" --shell /bin/sh -- "$GEN" </dev/null >"$WORK/$name.json"
  if [ "$DURABLE" = 1 ]; then sync -f "$WORK/data"; fi
  end=$(now_ns)
  if [ -n "$sampler" ]; then kill "$sampler"; wait "$sampler" 2>/dev/null || true; fi
  awk -v ns="$((end - start))" 'BEGIN { printf "%.3f", ns / 1e9 }'
}
# The largest size and allocated bytes (st_blocks x 512) of a session's capture in $WORK/data, every 100 ms
# until killed; rewrites "$WORK/peak.max" as "SIZE ALLOCATED" each time a value grows.
sample() {
  local size=0 alloc=0 s a f
  trap 'exit 0' TERM
  while :; do
    for f in "$WORK"/data/sessions/*/capture.log; do
      [ -e "$f" ] || continue
      read -r s a < <(stat -c '%s %b' "$f" 2>/dev/null) || continue
      a=$((a * 512))
      if ((s > size || a > alloc)); then
        ((s > size)) && size=$s
        ((a > alloc)) && alloc=$a
        echo "$size $alloc" >"$WORK/peak.new" && mv "$WORK/peak.new" "$WORK/peak.max"
      fi
    done
    sleep 0.1
  done
}
field() { perl -MJSON::PP -0777 -ne 'my $v = decode_json($_)->{$ENV{FIELD}}; print defined $v ? $v : q()' "$2"; }

check_bounded() {
  local json=$WORK/bounded.json artifact kept
  artifact=$(FIELD=raw_output field raw_output "$json")
  [ "$(FIELD=exit_code field exit_code "$json")" = 0 ] || { echo "bounded run failed: $(head -c 400 "$json")" >&2; exit 1; }
  kept=$(stat -c %s "$artifact")
  [ "$kept" -le $((bound_bytes + step)) ] || echo "warning: the bounded run kept $kept bytes (> $BOUND + a step)" >&2
  tail -n 1 "$artifact" | grep -q '^last [0-9]*$' || { echo "bounded run lost its last line" >&2; exit 1; }
}

# The disk's own pace for the same bytes, for reading the figures: a bounded capture is written back as it goes.
disk=$(dd if=/dev/zero of="$WORK/dd" bs=1M count=$((size_bytes >> 20)) conv=fdatasync 2>&1 | tail -n 1)
rm -f "$WORK/dd"
echo "the disk under \$WORK, for $BYTES: $disk"
ratios=()
echo "pair  unbounded_s  bounded_s  ratio  bounded_peak_size_MiB  bounded_peak_allocated_MiB"
for ((i = 1; i <= PAIRS; i++)); do
  if ((i % 2)); then
    u=$(run unbounded); b=$(run bounded --max-output "$BOUND")
  else
    b=$(run bounded --max-output "$BOUND"); u=$(run unbounded)
  fi
  check_bounded
  r=$(awk -v b="$b" -v u="$u" 'BEGIN { printf "%.3f", b / u }')
  ratios+=("$r")
  read -r ps pa <"$WORK/peak.max"
  printf '%4d  %11s  %9s  %5s  %21.1f  %26.1f\n' "$i" "$u" "$b" "$r" "$(bc -l <<<"$ps / 1048576")" "$(bc -l <<<"$pa / 1048576")"
  rm -rf "$WORK/data" "$WORK/peak.max"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
what="bounded / unbounded"; [ "$DURABLE" = 1 ] && what="bounded / unbounded, each until its output is on disk"
echo "median ratio ($what, $BYTES, --max-output $BOUND, $PAIRS pairs): $median (target <= 1.1)"
